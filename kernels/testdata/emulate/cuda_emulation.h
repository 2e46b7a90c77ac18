// CPU emulation of the few CUDA features kernels/merge_path_join.cu and
// kernels/radix_sort.cu and kernels/group_compact.cu use, copied beside them as common.cuh by
// kernels/emulate_test.go: a launch runs one OS thread per CUDA thread of a
// block, the blocks one after another with a barrier between them, so
// function-static arrays stand for __shared__ ones and __syncthreads is a
// barrier wait. The extern __shared__ array becomes g_dyn_shared (the test
// rewrites that line). Warps: each group of 32 threads shares a barrier
// and 32 exchange slots (g_warps, set by the launch), so the warp
// intrinsics below work when all 32 lanes call them together (full-mask
// use, as the kernels make).
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdint>
struct dim3e { unsigned x = 0, y = 0, z = 0; };
extern thread_local dim3e threadIdx, blockIdx;
extern dim3e blockDim, gridDim;
extern std::barrier<>* g_bar;
extern unsigned long long g_dyn_shared[];
inline void __syncthreads() { g_bar->arrive_and_wait(); }
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
template <class T> T __ldg(const T* p) { return *p; }
using std::max;
using std::min;

struct WarpEmu {
  std::barrier<>* bar;
  long long slot[32];
};
extern WarpEmu* g_warps;
inline WarpEmu& emu_warp() { return g_warps[threadIdx.x / 32]; }
inline void __syncwarp() { emu_warp().bar->arrive_and_wait(); }
inline unsigned __match_any_sync(unsigned, long long v) {
  WarpEmu& w = emu_warp();
  w.slot[threadIdx.x % 32] = v;
  w.bar->arrive_and_wait();
  unsigned m = 0;
  for (int i = 0; i < 32; i++)
    if (w.slot[i] == v) m |= 1u << i;
  w.bar->arrive_and_wait();
  return m;
}
template <class T> T __shfl_sync(unsigned, T v, int src) {
  WarpEmu& w = emu_warp();
  w.slot[threadIdx.x % 32] = (long long)v;
  w.bar->arrive_and_wait();
  T r = (T)w.slot[src & 31];
  w.bar->arrive_and_wait();
  return r;
}
inline unsigned __ballot_sync(unsigned, int pred) {
  WarpEmu& w = emu_warp();
  w.slot[threadIdx.x % 32] = pred != 0;
  w.bar->arrive_and_wait();
  unsigned m = 0;
  for (int i = 0; i < 32; i++)
    if (w.slot[i]) m |= 1u << i;
  w.bar->arrive_and_wait();
  return m;
}
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
template <class T> T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
