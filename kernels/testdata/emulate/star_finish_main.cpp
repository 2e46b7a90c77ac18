// The host side of exec/gpu/star_finish.go over kernels/star_finish.cu run
// in CPU emulation (cuda_emulation.h and vm_prelude.h): group tables of three components
// (two dimension keys read through value tables with NULL entries, a fact
// key with a NULL digit), four aggregates (an integer, a count in 4 bytes,
// a double's bits NULL where its count is 0, an integer into a DOUBLE),
// dense and compacted, empty to full, in blocks of 64 and 256 threads;
// unsorted, sorted on keys and aggregates in both directions, reversed;
// more groups than the kernel holds (the overflow flag), and sort keys too
// wide for one word (the unsorted flag, rows in slot order). Every output
// is checked against a sequential decode and std::stable_sort written here
// from the column definitions, bitmaps to the last 64-bit word. Exit status
// 1 on any mismatch. Built and run by kernels/common_emulate_test.go.
#include "kernel.cpp"
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
WarpEmu* g_warps;
unsigned long long g_dyn_shared[1];

#include "emulate_launch.h"

// One expected cell: its value (as the column's bytes hold it) and validity.
struct Cell {
  long long v;
  bool ok;
};

// cellOf decodes column c of the group at slot with words w, sequentially.
Cell cellOf(const FinParams& p, const FinCol& c, long long slot, const unsigned long long* w) {
  const long long digit = c.kind == FIN_KEY_TAB || c.kind == FIN_KEY_FACT ? slot / c.stride % c.size : 0;
  switch (c.kind) {
    case FIN_KEY_TAB: {
      int e = c.tab + (int)digit;
      if ((p.tabNull[e / 64] >> (e % 64)) & 1) return {0, false};
      return {p.tab[e], true};
    }
    case FIN_KEY_FACT:
      if (digit == c.nullDigit) return {0, false};
      return {digit + c.lo, true};
    default:
      return {(long long)w[c.word], c.cnt < 0 || w[c.cnt] != 0};
  }
}

struct Case {
  const char* name;
  long long sizes[3];
  int block;
  bool compact;
  int fill;  // percent of slots non-empty
  int nsort;
  FinSortKey sort[FIN_MAX_SORT];
  int reverse;
  bool wide;  // aggregate values across the whole int64 range
};

int runCase(const Case& k, std::mt19937_64& rng) {
  const long long W = 4, ngroups = k.sizes[0] * k.sizes[1] * k.sizes[2];
  FinParams p;
  std::memset(&p, 0, sizeof p);
  // Components: 0 least significant. Keys: two value tables and a fact key.
  long long stride = 1;
  int tab = 0;
  for (int c = 0; c < 3; c++) {
    FinCol col{};
    col.stride = stride, col.size = k.sizes[c], col.valid = 0, col.width = c == 1 ? 4 : 8;
    if (c < 2) {
      col.kind = FIN_KEY_TAB, col.tab = tab;
      for (long long d = 0; d < k.sizes[c]; d++, tab++) {
        p.tab[tab] = (long long)(rng() % 2000) - 1000;
        if (rng() % 7 == 0) p.tabNull[tab / 64] |= 1ULL << (tab % 64);
      }
    } else {
      col.kind = FIN_KEY_FACT, col.lo = 1990, col.nullDigit = k.sizes[c] - 1;
    }
    p.cols[p.ncols++] = col;
    stride *= k.sizes[c];
  }
  FinCol sum{}, cnt{}, fsum{}, asFloat{};
  sum.kind = FIN_AGG_INT, sum.width = 8, sum.word = 1, sum.cnt = 0;
  cnt.kind = FIN_AGG_INT, cnt.width = 4, cnt.word = 0, cnt.cnt = -1;
  fsum.kind = FIN_AGG_FLOAT, fsum.width = 8, fsum.word = 2, fsum.cnt = 3;
  asFloat.kind = FIN_AGG_INT_AS_FLOAT, asFloat.width = 8, asFloat.word = 3, asFloat.cnt = -1;
  for (FinCol c : {sum, cnt, fsum, asFloat}) p.cols[p.ncols++] = c;
  // Places in the output: rows capacity of the whole table, bitmaps for all.
  const long long cap = std::max(ngroups, 1LL);
  long long off = 16;
  for (int c = 0; c < p.ncols; c++) {
    p.cols[c].out = off;
    off += (cap * p.cols[c].width + 7) / 8 * 8;
    p.cols[c].valid = off;
    off += 8 * ((cap + 63) / 64);
  }
  // The dense table, then its compacted rows.
  std::vector<unsigned long long> dense(ngroups * W + 1, 0), rows;
  for (long long s = 0; s < ngroups; s++) {
    if ((long long)(rng() % 100) >= k.fill) continue;
    unsigned long long* w = &dense[s * W];
    w[0] = 1 + rng() % 9;
    w[1] = k.wide ? rng() : (unsigned long long)((long long)(rng() % 100000) - 50000);
    double f = (double)(rng() % 1000) / 8;
    std::memcpy(&w[2], &f, 8);
    w[3] = k.wide ? rng() : rng() % 3;
    rows.push_back((unsigned long long)s);
    rows.insert(rows.end(), w, w + W);
  }
  long long count = (long long)(rows.size() / (W + 1));
  std::vector<unsigned long long> out(off / 8 + 1, 0xabababababababababULL);
  p.out = out.data(), p.ngroups = ngroups, p.width = W, p.nsort = k.nsort, p.reverse = k.reverse;
  for (int s = 0; s < k.nsort; s++) p.sort[s] = k.sort[s];
  if (k.compact) {
    p.table = rows.data(), p.count = &count, p.compact = 1;
  } else {
    p.table = dense.data();
  }
  launch(star_finish, 1, k.block, p);

  // The expected rows: non-empty slots in order, then sorted or reversed.
  std::vector<long long> slots;
  for (long long s = 0; s < ngroups; s++)
    if (dense[s * W] != 0) slots.push_back(s);
  const long long n = (long long)slots.size();
  auto fail = [&](const char* what, long long i, long long c) {
    std::printf("MISMATCH %s: %s at row %lld column %lld (%lld groups)\n", k.name, what, i, c, n);
    return 1;
  };
  if (n > FIN_MAX_ROWS) {
    return out[1] == FIN_OVERFLOW ? 0 : fail("no overflow flag", -1, -1);
  }
  if ((long long)out[0] != n) return fail("row count", (long long)out[0], -1);
  bool unsorted = out[1] == FIN_UNSORTED;
  if (out[1] != 0 && !unsorted) return fail("flags", (long long)out[1], -1);
  if (unsorted != (k.wide && k.nsort > 0 && n > 1)) return fail("unsorted flag", (long long)out[1], -1);
  if (k.nsort > 0 && !unsorted) {
    std::stable_sort(slots.begin(), slots.end(), [&](long long a, long long b) {
      for (int s = 0; s < k.nsort; s++) {
        const FinCol& c = p.cols[k.sort[s].col];
        Cell x = cellOf(p, c, a, &dense[a * W]), y = cellOf(p, c, b, &dense[b * W]);
        int d = x.ok != y.ok ? (x.ok ? 1 : -1) : (x.ok && x.v != y.v ? (x.v < y.v ? -1 : 1) : 0);
        if (k.sort[s].desc) d = -d;
        if (d != 0) return d < 0;
      }
      return false;
    });
  } else if (k.reverse) {
    std::reverse(slots.begin(), slots.end());
  }
  const char* base = (const char*)out.data();
  for (int c = 0; c < p.ncols; c++) {
    const FinCol& col = p.cols[c];
    const unsigned long long* bits = (const unsigned long long*)(base + col.valid);
    for (long long i = 0; i < n; i++) {
      Cell want = cellOf(p, col, slots[i], &dense[slots[i] * W]);
      long long got;
      if (col.width == 4) {
        got = *(const int*)(base + col.out + 4 * i);
        want.v = (int)want.v;
      } else {
        std::memcpy(&got, base + col.out + 8 * i, 8);
      }
      if (col.kind == FIN_AGG_INT_AS_FLOAT) {
        double d = (double)want.v;
        std::memcpy(&want.v, &d, 8);
      }
      if (got != want.v) return fail("value", i, c);
      if ((((bits[i / 64] >> (i % 64)) & 1) != 0) != want.ok) return fail("validity", i, c);
    }
    if (n % 64 != 0 && (bits[n / 64] >> (n % 64)) != 0) return fail("bits past the last row", n, c);
  }
  return 0;
}

int main() {
  std::mt19937_64 rng(17);
  const FinSortKey byFactThenSumDesc[2] = {{2, 0}, {3, 1}}, byKeysDesc[2] = {{0, 1}, {1, 1}};
  const FinSortKey byCountThenKey[2] = {{4, 0}, {0, 0}}, bySums[2] = {{3, 0}, {6, 1}};
  std::vector<Case> cases;
  for (bool compact : {false, true}) {
    for (int block : {64, 256}) {
      for (int fill : {0, 1, 35, 100}) {
        cases.push_back({"unsorted", {7, 5, 3}, block, compact, fill, 0, {}, 0, false});
        cases.push_back({"reversed", {7, 5, 3}, block, compact, fill, 0, {}, 1, false});
        Case c{"fact-then-sum-desc", {7, 5, 3}, block, compact, fill, 2, {}, 0, false};
        std::memcpy(c.sort, byFactThenSumDesc, sizeof byFactThenSumDesc);
        cases.push_back(c);
        c = {"keys-desc", {7, 5, 3}, block, compact, fill, 2, {}, 0, false};
        std::memcpy(c.sort, byKeysDesc, sizeof byKeysDesc);
        cases.push_back(c);
        c = {"count-then-key", {13, 11, 5}, block, compact, fill, 2, {}, 0, false};
        std::memcpy(c.sort, byCountThenKey, sizeof byCountThenKey);
        cases.push_back(c);
        c = {"too-wide", {7, 5, 3}, block, compact, fill, 2, {}, 0, true};
        std::memcpy(c.sort, bySums, sizeof bySums);
        cases.push_back(c);
      }
    }
    // Past the dense table's first chunk and to the kernel's limit, and over it.
    Case c{"full-2040", {34, 20, 3}, 256, compact, 100, 2, {}, 0, false};
    std::memcpy(c.sort, byKeysDesc, sizeof byKeysDesc);
    cases.push_back(c);
    cases.push_back({"overflow", {35, 20, 3}, 256, compact, 100, 0, {}, 0, false});
  }
  int bad = 0;
  for (const Case& c : cases) bad |= runCase(c, rng);
  std::printf("%zu cases, %s\n", cases.size(), bad ? "MISMATCH" : "all equal");
  return bad;
}
