// The host side of exec/gpu/compaction.go's compactEmit over
// kernels/select.cu in CPU emulation: select_count keeping each thread's
// pass bits, an exclusive scan of the tile counts (the host's stand-in for
// sort.cu's scan_exclusive_i64), select_emit writing the plain output
// columns (an INT, a BIGINT with NULLs, a DOUBLE) and the row numbers.
// Against a sequential filter: the selected rows in row order, each value
// and validity bit, the row numbers, nothing written past the last row and
// no validity bit set past it. Sizes around the 2048-row tile, 0 to 100 %
// selectivity, more columns than one launch takes (the Go side's groups of
// MAX_EMIT), two blocks looping over up to ten tiles. Exit status 1 on any mismatch. Built and run by
// kernels/common_emulate_test.go.
#include "kernel.cpp"
#include <cstdio>
#include <cstring>
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
  std::mt19937_64 rng(9);
  int bad = 0;
  for (long long n : {1LL, 100LL, 2047LL, 2048LL, 2049LL, 6000LL, 20000LL}) {
    std::vector<int> k(n);
    std::vector<long long> w(n);
    std::vector<double> f(n);
    std::vector<unsigned long long> wValid((n + 63) / 64 + 1);
    for (long long i = 0; i < n; i++) {
      k[i] = (int)(rng() % 1000);
      w[i] = (long long)(rng() >> 1) - (1LL << 62);
      f[i] = (double)(rng() % 100000) / 7.0;
      if (rng() % 4) wValid[i / 64] |= 1ULL << (i % 64);
    }
    Col kc{}, wc{}, fc{};
    kc.data = k.data(), kc.width = 4;
    wc.data = w.data(), wc.valid = wValid.data(), wc.width = 8;
    fc.data = f.data(), fc.width = 8, fc.isFloat = 1;
    // Output columns: k w f k w f k w f k (10 > MAX_EMIT: two launches).
    std::vector<Col> outsIn;
    for (int c = 0; c < 10; c++) outsIn.push_back(c % 3 == 0 ? kc : c % 3 == 1 ? wc : fc);
    for (long long hi : {-1LL, 9LL, 499LL, 999LL}) {
      const std::string where = "n=" + std::to_string(n) + " k<=" + std::to_string(hi);
      SelectParams sp{};
      sp.n = n, sp.npreds = 1;
      sp.preds[0].col = kc, sp.preds[0].kind = PRED_RANGE, sp.preds[0].lo = 0, sp.preds[0].hi = hi;
      const long long tiles = (n + 256 * SEL_IT - 1) / (256 * SEL_IT);
      std::vector<long long> counts(tiles, -7);
      std::vector<unsigned char> mask(tiles * 256, 0xee);
      sp.counts = counts.data(), sp.mask = mask.data();
      launch(select_count, (int)std::min<long long>(tiles, 2), 256, sp);  // two blocks loop over the tiles
      long long m = 0;
      for (auto& c : counts) {
        long long x = c;
        c = m;
        m += x;
      }
      std::vector<int> want;
      for (long long i = 0; i < n; i++)
        if (k[i] <= hi) want.push_back((int)i);
      if ((long long)want.size() != m) {
        printf("MISMATCH %s: %lld rows counted, %zu pass\n", where.c_str(), m, want.size());
        return 1;
      }
      std::vector<int> rowids(m + 4, -5);
      std::vector<std::vector<long long>> data(outsIn.size(), std::vector<long long>(m + 4));
      for (auto& d : data) memset(d.data(), 0xa5, d.size() * 8);  // 0xa5a5... past the rows
      std::vector<std::vector<unsigned>> valid(outsIn.size(), std::vector<unsigned>((m + 63) / 64 * 2 + 2, 0));
      for (size_t lo = 0; lo < outsIn.size(); lo += MAX_EMIT) {
        EmitParams ep{};
        ep.n = n, ep.offsets = counts.data(), ep.mask = mask.data();
        ep.rowids = lo == 0 ? rowids.data() : nullptr;
        for (size_t c = lo; c < outsIn.size() && c < lo + MAX_EMIT; c++) {
          ep.cols[ep.ncols].in = outsIn[c];
          ep.cols[ep.ncols].out = data[c].data();
          ep.cols[ep.ncols].outValid = outsIn[c].valid ? valid[c].data() : nullptr;
          ep.ncols++;
        }
        if (m > 0) launch(select_emit, (int)std::min<long long>(tiles, 2), 256, ep);
      }
      for (long long j = 0; j < m && !bad; j++) {
        const long long i = want[j];
        if (rowids[j] != i) {
          printf("MISMATCH %s: row number %lld is %d, want %lld\n", where.c_str(), j, rowids[j], i);
          bad = 1;
        }
        for (size_t c = 0; c < outsIn.size() && !bad; c++) {
          const Col& in = outsIn[c];
          long long got = in.width == 8 ? data[c][j] : (long long)((int*)data[c].data())[j];
          long long exp = in.width == 8 ? ((const long long*)in.data)[i] : (long long)((const int*)in.data)[i];
          bool gotValid = (valid[c][j >> 5] >> (j & 31)) & 1u;
          bool expValid = in.valid && ((in.valid[i >> 6] >> (i & 63)) & 1ULL);
          if (got != exp || (in.valid && gotValid != expValid)) {
            printf("MISMATCH %s column %zu output row %lld (row %lld): %lld valid %d, want %lld valid %d\n", where.c_str(), c, j, i, got, gotValid, exp, expValid);
            bad = 1;
          }
        }
      }
      if (!bad && rowids[m] != -5) {
        printf("MISMATCH %s: row numbers written past %lld\n", where.c_str(), m);
        bad = 1;
      }
      for (size_t c = 0; c < outsIn.size() && !bad; c++) {
        const bool untouched = outsIn[c].width == 8 ? (unsigned long long)data[c][m] == 0xa5a5a5a5a5a5a5a5ULL
                                                    : (unsigned)((int*)data[c].data())[m] == 0xa5a5a5a5u;
        if (!untouched) {
          printf("MISMATCH %s column %zu: written past row %lld\n", where.c_str(), c, m);
          bad = 1;
        }
        for (long long j = m; j < (long long)valid[c].size() * 32 && !bad; j++)
          if ((valid[c][j >> 5] >> (j & 31)) & 1u) {
            printf("MISMATCH %s column %zu: validity bit %lld set past the rows\n", where.c_str(), c, j);
            bad = 1;
          }
      }
      if (bad) return 1;
    }
    printf("ok n=%lld\n", n);
  }
  return 0;
}
