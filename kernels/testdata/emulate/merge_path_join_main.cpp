// The host side of exec/gpu/merge_path.go over kernels/merge_path_join.cu
// run in CPU emulation (cuda_emulation.h): random sorted key tuples (one
// to three keys; one value repeated on every row; few values; mostly
// unique), shuffled row ids (or none: sides in row order), both join modes
// (all pairs; first partner only), sizes around the 1024-element tile; every (left row, right row)
// pair must be the one a two-pointer merge gives. Exit status 1 on any
// mismatch. Built and run by kernels/emulate_test.go.
#include "mpj.cpp"
#include <cstdio>
#include <random>
#include <thread>
#include <vector>
#include <functional>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
unsigned long long g_dyn_shared[4 * MP_NV];

template <class P>
void launch(void (*k)(P), int grid, int block, P p) {
  gridDim.x = grid;
  blockDim.x = block;
  std::barrier<> bar(block);
  g_bar = &bar;
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
}

// host side of exec/gpu/merge_path.go
std::vector<std::pair<int, int>> join(int nk, std::vector<std::vector<unsigned long long>>& A, std::vector<std::vector<unsigned long long>>& B,
                                      std::vector<int>& ap, std::vector<int>& bp, bool first, bool nullPerms) {
  long long na = ap.size(), nb = bp.size();
  std::vector<std::pair<int, int>> out;
  if (na == 0 || nb == 0) return out;
  long long tiles = (na + nb + MP_NV - 1) / MP_NV;
  std::vector<long long> cor(tiles + 1, -7), counts(na, -7);
  std::vector<int> lo(na, -7);
  MergePathParams p{};
  for (int k = 0; k < nk; k++) p.ak[k] = A[k].data(), p.bk[k] = B[k].data();
  p.na = na, p.nb = nb, p.nkeys = nk, p.first = first, p.corank = cor.data(), p.lo = lo.data(), p.counts = counts.data();
  for (int upper = 0; upper < 2; upper++) {
    p.upper = upper;
    launch(mpj_partition, 3, 256, p);
    launch(mpj_search, (int)tiles, MP_THREADS, p);
  }
  // scan
  long long stiles = (na + MP_SCAN_TILE - 1) / MP_SCAN_TILE;
  std::vector<long long> sums(stiles, -7);
  ScanParams sp{counts.data(), na, sums.data()};
  launch(mpj_scan_tiles, (int)stiles, MP_SCAN_THREADS, sp);
  long long m = 0;
  for (auto& s : sums) { long long x = s; s = m; m += x; }
  launch(mpj_scan_apply, (int)stiles, MP_SCAN_THREADS, sp);
  if (m == 0) return out;
  long long etiles = (m + na + MP_NV - 1) / MP_NV;
  std::vector<long long> ecor(etiles + 1, -7);
  std::vector<int> outL(m, -7), outR(m, -7);
  ExpandParams ep{m, na, counts.data(), lo.data(), nullPerms ? nullptr : ap.data(), nullPerms ? nullptr : bp.data(),
                  ecor.data(), outL.data(), outR.data()};
  launch(mpj_expand_partition, 2, 256, ep);
  launch(mpj_expand, (int)etiles, MP_THREADS, ep);
  for (long long k = 0; k < m; k++) out.push_back({outL[k], outR[k]});
  std::sort(out.begin(), out.end());
  return out;
}

int main() {
  std::mt19937_64 rng(42);
  struct Case { int na, nb, nk; unsigned long long dom; };
  std::vector<Case> cases = {{1, 1, 1, 1}, {1, 3000, 1, 1}, {3000, 1, 1, 1}, {1023, 1025, 1, 5}, {2500, 700, 2, 4},
                             {700, 2500, 1, 100000}, {5000, 5000, 1, 7000}, {2, 100000, 1, 1}, {4097, 4095, 3, 3}, {9000, 7000, 1, 1000}};
  int bad = 0;
  for (auto c : cases) {
    for (int mode = 0; mode < 3; mode++) {
      // Modes: all pairs; first partner only; all pairs with null
      // permutations (sides in row order, as a presorted side's).
      bool first = mode == 1, nullPerms = mode == 2;
      auto gen = [&](int n) {
        std::vector<std::vector<unsigned long long>> rows(n, std::vector<unsigned long long>(c.nk));
        for (auto& r : rows) for (auto& v : r) v = rng() % c.dom;
        std::sort(rows.begin(), rows.end());
        std::vector<std::vector<unsigned long long>> cols(c.nk, std::vector<unsigned long long>(n));
        for (int i = 0; i < n; i++) for (int k = 0; k < c.nk; k++) cols[k][i] = rows[i][k];
        return cols;
      };
      auto A = gen(c.na), B = gen(c.nb);
      std::vector<int> ap(c.na), bp(c.nb);
      for (int i = 0; i < c.na; i++) ap[i] = i;
      for (int i = 0; i < c.nb; i++) bp[i] = i;
      if (!nullPerms) {
        std::shuffle(ap.begin(), ap.end(), rng);
        std::shuffle(bp.begin(), bp.end(), rng);
      }
      auto got = join(c.nk, A, B, ap, bp, first, nullPerms);
      std::vector<std::pair<int, int>> want;
      for (int i = 0, j = 0; i < c.na; i++) {
        auto key = [&](auto& X, int r) { std::vector<unsigned long long> k; for (auto& col : X) k.push_back(col[r]); return k; };
        auto ka = key(A, i);
        while (j < c.nb && key(B, j) < ka) j++;
        for (int k = j; k < c.nb && key(B, k) == ka; k++) { want.push_back({ap[i], bp[k]}); if (first) break; }
      }
      std::sort(want.begin(), want.end());
      bool ok = got == want;
      bad += !ok;
      printf("na=%d nb=%d nk=%d dom=%llu first=%d nullPerms=%d: %zu pairs, want %zu %s\n", c.na, c.nb, c.nk, c.dom, first, nullPerms, got.size(), want.size(), ok ? "ok" : "MISMATCH");
    }
  }
  return bad != 0;
}
