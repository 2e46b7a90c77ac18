// The launch the mains of kernels/common_emulate_test.go share: the grid's
// blocks one after another, a block's threads as OS threads meeting at the
// block's barrier, each warp at its own (cuda_emulation.h's WarpEmu).
#pragma once
#include <barrier>
#include <thread>
#include <vector>

template <class P>
void launch(void (*k)(P), int grid, int block, P p) {
  gridDim.x = grid;
  blockDim.x = block;
  std::barrier<> bar(block);
  g_bar = &bar;
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
        bar.arrive_and_wait();
      }
    });
  for (auto& t : ts) t.join();
  for (auto& w : warps) delete w.bar;
}
