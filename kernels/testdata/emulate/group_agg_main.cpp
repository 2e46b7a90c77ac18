// kernels/group_by.cu's group_agg_one (an aggregate without GROUP BY: thread
// and warp partials, one atomic a warp) in CPU emulation against a
// sequential fold: COUNT(*), COUNT, SUM, MIN and MAX of a nullable BIGINT
// and of a DOUBLE, over every row and over flagged rows only (DISTINCT's
// first copies), sizes below, at and past a warp and a block, grids
// smaller than the rows need; a SUM whose total leaves int64 must set the
// overflow flag, one that stays in range must not. Exit status 1 on any
// mismatch. Built and run by kernels/common_emulate_test.go.
#include "kernel.cpp"
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
WarpEmu* g_warps;
unsigned long long g_dyn_shared[1];
static unsigned overflow_word;

#include "emulate_launch.h"

int main() {
  gpusql_overflow = &overflow_word;
  std::mt19937_64 rng(13);
  const char* fnName[] = {"count(*)", "count", "sum", "min", "max"};
  for (long long n : {1LL, 31LL, 33LL, 300LL, 5000LL}) {
    for (int big = 0; big < 2; big++) {
      std::vector<long long> iv(n);
      std::vector<double> fv(n);
      std::vector<unsigned long long> valid((n + 63) / 64);
      std::vector<unsigned char> only(n);
      for (long long i = 0; i < n; i++) {
        iv[i] = big ? (1LL << 61) + (long long)(rng() % 1000) : (long long)(rng() % 2000001) - 1000000;
        fv[i] = (double)((long long)(rng() % 20001) - 10000) / 8.0;  // exact sums in any order
        if (rng() % 4) valid[i / 64] |= 1ULL << (i % 64);
        only[i] = rng() % 3 == 0;
      }
      for (int isF = 0; isF < 2; isF++) {
        for (int fn = AGG_COUNT_STAR; fn <= AGG_MAX; fn++) {
          for (int useOnly = 0; useOnly < 2; useOnly++) {
            for (int grid : {1, 3}) {
              Agg a{};
              a.fn = fn, a.op = EXPR_A, a.isFloat = isF;
              a.a.data = isF ? (const void*)fv.data() : (const void*)iv.data();
              a.a.valid = valid.data(), a.a.width = 8, a.a.isFloat = isF;
              // Sequential reference (agg_fold's semantics; wrapped sums flagged).
              unsigned long long want = agg_identity(a);
              bool wantOverflow = false;
              for (long long i = 0; i < n; i++) {
                if (useOnly && !only[i]) continue;
                bool ok = fn == AGG_COUNT_STAR || ((valid[i / 64] >> (i % 64)) & 1);
                if (!ok) continue;
                if (fn <= AGG_COUNT) want++;
                else if (fn == AGG_SUM && isF) want = (unsigned long long)__double_as_longlong(__longlong_as_double(want) + fv[i]);
                else if (fn == AGG_SUM) {
                  long long s;
                  wantOverflow |= __builtin_add_overflow((long long)want, iv[i], &s);
                  want = (unsigned long long)s;
                } else if (isF) {
                  double x = __longlong_as_double(want);
                  if (fn == AGG_MIN ? fv[i] < x : fv[i] > x) want = (unsigned long long)__double_as_longlong(fv[i]);
                } else if (fn == AGG_MIN ? iv[i] < (long long)want : iv[i] > (long long)want) want = (unsigned long long)iv[i];
              }
              unsigned long long acc = agg_identity(a);
              overflow_word = 0;
              GroupAggParams p{};
              p.n = n, p.only = useOnly ? only.data() : nullptr, p.a = a, p.acc = &acc;
              launch(group_agg_one, grid, 256, p);
              const std::string where = std::string(fnName[fn]) + (isF ? " double" : " bigint") + " n=" + std::to_string(n) +
                                        (useOnly ? " only" : "") + (big ? " big" : "") + " grid=" + std::to_string(grid);
              if (fn == AGG_SUM && !isF && wantOverflow) {
                if (!overflow_word) {
                  printf("MISMATCH %s: the total leaves int64, no overflow flagged\n", where.c_str());
                  return 1;
                }
                continue;
              }
              if (overflow_word) {
                printf("MISMATCH %s: overflow flagged, the total is in range\n", where.c_str());
                return 1;
              }
              if (acc != want) {
                printf("MISMATCH %s: %llx, want %llx\n", where.c_str(), acc, want);
                return 1;
              }
            }
          }
        }
      }
    }
    printf("ok n=%lld\n", n);
  }
  return 0;
}
