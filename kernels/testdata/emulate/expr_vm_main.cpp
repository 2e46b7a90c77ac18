// kernels/expr_vm.cu's integer ABS and negation run in CPU emulation
// (warp_emulation.h, with the real common.cuh): a BIGINT column with the
// smallest value, NULLs (whose slots hold it too) and ordinary values, at
// sizes around the warp and block; the program LDCOL a; IABS|INEG a,
// checked (imm2 = 1) or not. Every valid row must be |a| or -a as exec/cpu
// computes it, the validity bits must be the column's, and the overflow
// flag must be set exactly when a valid row holds -2^63 and the op is
// checked (exec/gpu then fails the query with MySQL's error 1690). Exit
// status 1 on any mismatch. Built and run by kernels/emulate_test.go.
#include <cmath>
#include <cstdio>
#include <cstdlib>
using std::isfinite;
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
#include "ev.cpp"
#include <thread>
#include <vector>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
std::barrier<>* g_warp_bar[32];
unsigned long long g_warp_slot[32][32];
int g_block_flag[1024];

template <class P>
void launch(void (*k)(P), int grid, int block, P p) {
  gridDim.x = grid;
  blockDim.x = block;
  std::barrier<> bar(block);
  g_bar = &bar;
  std::vector<std::barrier<>*> warps;
  for (int w = 0; w < block / 32; w++) warps.push_back(g_warp_bar[w] = new std::barrier<>(32));
  std::vector<std::thread> ts;
  for (int t = 0; t < block; t++)
    ts.emplace_back([&, t] {
      threadIdx.x = t;
      for (int b = 0; b < grid; b++) {
        blockIdx.x = b;
        k(p);
        bar.arrive_and_wait();
      }
    });
  for (auto& t : ts) t.join();
  for (auto* w : warps) delete w;
}

int main() {
  const long long MIN = (long long)0x8000000000000000ULL;
  unsigned int flag = 0;
  gpusql_overflow = &flag;
  int bad = 0;
  for (int op : {(int)VM_IABS, (int)VM_INEG}) {
    for (int checked : {0, 1}) {
      for (long long n : {1LL, 31LL, 64LL, 65LL, 300LL}) {
        for (int withMin : {0, 1, 2}) {  // none, in a valid row, only in NULL rows
          std::vector<long long> a(n);
          std::vector<unsigned long long> valid((n + 63) / 64, 0);
          for (long long i = 0; i < n; i++) {
            a[i] = (i % 5) * 1000003LL - 2000000LL + i;
            bool isNull = i % 7 == 3;
            if (isNull) a[i] = MIN;  // a NULL slot's value must not count
            else valid[i >> 6] |= 1ULL << (i & 63);
          }
          if (withMin == 1) a[n - 1] = MIN, valid[(n - 1) >> 6] |= 1ULL << ((n - 1) & 63);
          VMIns prog[2] = {{VM_LDCOL, 0, 0, 0, 0, 0, 0, 0}, {op, 1, 0, 0, 0, 0, 0, checked}};
          std::vector<long long> out(n, 12345);
          std::vector<unsigned int> outValid((n + 31) / 32 + 8, 0);
          ExprVMParams p{};
          p.n = n, p.prog = prog, p.nins = 2, p.ncols = 1;
          p.cols[0] = Col{a.data(), valid.data(), 8, 0, nullptr, 0, 0};
          p.out = out.data(), p.outValid = outValid.data(), p.outKind = VM_OUT_I64, p.outReg = 1;
          flag = 0;
          int blocks = (int)std::min<long long>(2, (n + 63) / 64);
          launch(expr_vm, blocks, 64, p);
          bool wantFlag = false, ok = true;
          for (long long i = 0; i < n; i++) {
            bool v = (valid[i >> 6] >> (i & 63)) & 1;
            bool got = (outValid[i >> 5] >> (i & 31)) & 1;
            if (v != got) ok = false;
            if (!v) continue;
            if (a[i] == MIN) {
              wantFlag = checked;
              if (out[i] != MIN) ok = false;  // wraps to itself; the flag says so
              continue;
            }
            long long want = op == VM_IABS ? (a[i] < 0 ? -a[i] : a[i]) : -a[i];
            if (out[i] != want) ok = false;
          }
          if ((flag != 0) != wantFlag) ok = false;
          bad += !ok;
          printf("%s checked=%d n=%lld min=%d: flag=%u %s\n", op == VM_IABS ? "abs" : "neg", checked, n, withMin, flag,
                 ok ? "ok" : "MISMATCH");
        }
      }
    }
  }
  return bad ? 1 : 0;
}
