// The host side of exec/gpu/star_compact.go over kernels/group_compact.cu
// run in CPU emulation (cuda_emulation.h): dense group tables of several
// widths (1 and 3 words) and sizes around the 2048-slot tile (empty, one slot, every
// slot, the first and last only, random fills), compacted by
// group_compact_count, an exclusive scan of the tile counts (the host's
// stand-in for sort.cu's scan_exclusive_i64) and group_compact_scatter;
// the rows must be the non-empty slots in slot order, each its index and
// its words. Exit status 1 on any mismatch. Built and run by
// kernels/emulate_test.go.
#include "kernel.cpp"
#include <cstdio>
#include <random>
#include <thread>
#include <vector>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
unsigned long long g_dyn_shared[1];

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

// compact is star_compact.go's sequence: count, scan, scatter.
std::vector<unsigned long long> compact(std::vector<unsigned long long>& table, long long ngroups, long long width, long long* m) {
  const long long tile = GC_THREADS * GC_ITEMS, tiles = (ngroups + tile - 1) / tile;
  *m = 0;
  if (tiles == 0) return {};
  std::vector<long long> counts(tiles, -7);
  std::vector<unsigned long long> out(ngroups * (width + 1) + 1, 0xdeadULL);
  GroupCompactParams p{table.data(), ngroups, width, counts.data(), out.data()};
  launch(group_compact_count, (int)tiles, GC_THREADS, p);
  for (auto& c : counts) { long long x = c; c = *m; *m += x; }
  launch(group_compact_scatter, (int)tiles, GC_THREADS, p);
  out.resize(*m * (width + 1));
  return out;
}

int main() {
  std::mt19937_64 rng(7);
  int bad = 0;
  for (long long width : {1, 3}) {
    for (long long n : {0LL, 1LL, 2047LL, 2049LL, 6001LL}) {
      for (int fill = 0; fill < 5; fill++) {
        std::vector<unsigned long long> table(n * width + 1, 0);
        for (long long s = 0; s < n; s++) {
          bool on = fill == 1 || (fill == 2 && s == n / 2) || (fill == 3 && (s == 0 || s == n - 1)) || (fill == 4 && rng() % 10 == 0);
          if (!on) continue;
          table[s * width] = 1 + rng() % 1000;
          for (long long j = 1; j < width; j++) table[s * width + j] = rng();
        }
        long long m;
        auto got = compact(table, n, width, &m);
        std::vector<unsigned long long> want;
        for (long long s = 0; s < n; s++) {
          if (table[s * width] == 0) continue;
          want.push_back(s);
          for (long long j = 0; j < width; j++) want.push_back(table[s * width + j]);
        }
        bool ok = got == want && m * (width + 1) == (long long)want.size();
        bad += !ok;
        printf("width=%lld groups=%lld fill=%d: %lld rows, want %zu %s\n", width, n, fill, m, want.size() / (width + 1), ok ? "ok" : "MISMATCH");
      }
    }
  }
  return bad != 0;
}
