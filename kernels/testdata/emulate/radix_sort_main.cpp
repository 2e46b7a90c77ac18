// The host side of exec/gpu/radix_sort.go over kernels/radix_sort.cu run in
// CPU emulation (cuda_emulation.h): encoded keys of many shapes (one value;
// few values; skew; uniform 32-bit; 64-bit; a narrow range near 2^64),
// sizes around the 4096-row tile, every plan the Go side makes (digits of
// key - min, 32-bit after the first pass when the range fits; or the
// digits where the bits differ, from AND/OR masks), with and without the
// sorted keys written back, with row ids given or implicit (the identity). The permutation must be the one
// std::stable_sort gives, the keys the sorted keys. Exit status 1 on any
// mismatch. Built and run by kernels/emulate_test.go.
#include "rs.cpp"
#include <cstdio>
#include <random>
#include <thread>
#include <vector>
#include <functional>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
WarpEmu* g_warps;
unsigned long long g_dyn_shared[1];

template <class P>
void launch(void (*k)(P), int grid, int block, P p) {
  gridDim.x = grid;
  blockDim.x = block;
  std::barrier<> bar(block);
  g_bar = &bar;
  std::vector<std::barrier<>*> wb;
  std::vector<WarpEmu> warps(block / 32);
  for (auto& w : warps) w.bar = new std::barrier<>(32);
  g_warps = warps.data();
  std::vector<std::thread> ts;
  for (int t = 0; t < block; t++)
    ts.emplace_back([&, t] {
      threadIdx.x = t;
      for (int b = 0; b < grid; b++) {
        blockIdx.x = b;
        k(p);
        bar.arrive_and_wait();  // the block's shared memory is the next block's
      }
    });
  for (auto& t : ts) t.join();
  for (auto& w : warps) delete w.bar;
}

struct Plan {
  unsigned long long sub = 0;
  std::vector<int> shifts;
  bool narrow = false;
  unsigned long long base = 0;
};

Plan from_range(unsigned long long lo, unsigned long long hi) {  // radix_plan.go's planFromRange
  Plan p;
  if (hi <= lo) return p;
  unsigned long long span = hi - lo;
  p.sub = p.base = lo;
  p.narrow = (span >> 32) == 0;
  for (int s = 0; s < 64 - __builtin_clzll(span); s += 8) p.shifts.push_back(s);
  return p;
}

Plan from_masks(unsigned long long a, unsigned long long o) {  // planFromMasks
  Plan p;
  unsigned long long diff = a ^ o;
  p.narrow = (diff >> 32) == 0;
  if (p.narrow) p.base = a & ~0xffffffffULL;
  for (int s = 0; s < 64; s += 8)
    if ((diff >> s) & 0xff) p.shifts.push_back(s);
  return p;
}

// radix_sort.go's radixSorter.sort: perm sorted by keys; the sorted keys
// (8-byte) when wantKeys.
// identity: the first pass takes row i's id as i (valsIn null), as a sort
// starting from the identity does.
void sort(std::vector<unsigned long long> keys, std::vector<int>& perm, const Plan& plan, bool wantKeys, bool identity,
          std::vector<unsigned long long>& sortedKeys) {
  long long n = keys.size(), tiles = (n + RS_TILE - 1) / RS_TILE;
  std::vector<unsigned long long> spareKeys(n, 0xdeadbeefdeadbeefULL);
  std::vector<int> spare(n, -7);
  std::vector<long long> counts(RS_RADIX * tiles, -7);
  unsigned long long *kin = keys.data(), *kout = spareKeys.data();
  int *vin = perm.data(), *vout = spare.data();
  bool wide = true;
  for (size_t i = 0; i < plan.shifts.size(); i++) {
    bool first = i == 0, last = i + 1 == plan.shifts.size();
    RadixSortParams p{};
    p.keysIn = kin, p.valsIn = first && identity ? nullptr : vin, p.keysOut = kout, p.valsOut = vout, p.n = n, p.tiles = tiles, p.counts = counts.data();
    p.shift = plan.shifts[i];
    if (first) p.sub = plan.sub;
    bool outWide = !plan.narrow;
    if (last && wantKeys) outWide = true, p.add = first ? plan.sub : plan.base;
    else if (last) p.keysOut = nullptr;
    launch(wide ? radix_upsweep64 : radix_upsweep32, (int)tiles, RS_THREADS, p);
    long long run = 0;
    for (auto& c : counts) { long long x = c; c = run; run += x; }
    if (run != n) { printf("histogram total %lld, want %lld\n", run, n); exit(1); }
    auto down = wide ? (outWide ? radix_downsweep_64_64 : radix_downsweep_64_32) : (outWide ? radix_downsweep_32_64 : radix_downsweep_32_32);
    launch(down, (int)tiles, RS_THREADS, p);
    std::swap(kin, kout);
    std::swap(vin, vout);
    wide = outWide;
  }
  if (vin != perm.data()) perm.assign(vin, vin + n);
  if (wantKeys) sortedKeys.assign(kin, kin + n);
}

int main() {
  std::mt19937_64 rng(7);
  struct Case { const char* name; int n; std::function<unsigned long long()> gen; };
  std::vector<Case> cases = {
      {"one value", 5000, [&] { return 0x8000000000000007ULL; }},
      {"few values", 4097, [&] { return 0x8000000000000000ULL + rng() % 5; }},
      {"skew", 6000, [&] { return rng() % 10 ? 0x8000000000001234ULL : 0x8000000000000000ULL + rng() % 100000; }},
      {"uniform 32-bit", 6001, [&] { return 0x8000000000000000ULL + (rng() & 0xffffffffULL); }},
      {"64-bit", 5000, [&] { return rng(); }},
      {"near 2^64", 4095, [&] { return ~0ULL - rng() % 70000; }},
      {"two keys", 2, [&] { return rng() % 3; }},
      {"one row", 1, [&] { return rng(); }},
      {"tile", 4096, [&] { return rng() >> 20; }},
  };
  int bad = 0;
  for (auto& c : cases) {
    std::vector<unsigned long long> keys(c.n);
    unsigned long long lo = ~0ULL, hi = 0, a = ~0ULL, o = 0;
    for (auto& k : keys) {
      k = c.gen();
      lo = std::min(lo, k), hi = std::max(hi, k), a &= k, o |= k;
    }
    std::vector<int> want(c.n);
    for (int i = 0; i < c.n; i++) want[i] = i;
    std::stable_sort(want.begin(), want.end(), [&](int x, int y) { return keys[x] < keys[y]; });
    for (int m = 0; m < 2; m++)
      for (int wk = 0; wk < 2; wk++) {
        Plan plan = m == 0 ? from_range(lo, hi) : from_masks(a, o);
        std::vector<int> perm(c.n);
        for (int i = 0; i < c.n; i++) perm[i] = i;
        std::vector<unsigned long long> sk;
        // The permutation's values are row ids carried along: start from
        // the identity, so the result must equal the stable order.
        sort(keys, perm, plan, wk, m == wk, sk);
        bool ok = perm == want;
        if (ok && wk && !plan.shifts.empty())
          for (int i = 0; i < c.n; i++) ok = ok && sk[i] == keys[want[i]];
        bad += !ok;
        printf("%-15s n=%-6d plan=%s passes=%zu narrow=%d keys=%d identity=%d: %s\n", c.name, c.n, m ? "masks" : "range",
               plan.shifts.size(), plan.narrow, wk, m == wk, ok ? "ok" : "MISMATCH");
      }
  }
  return bad != 0;
}
