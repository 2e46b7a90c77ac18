// CPU emulation of the CUDA features kernels/join_partition.cu,
// kernels/hash_join.cu and kernels/common.cuh use, copied beside the kernel as common.cuh by
// kernels/emulate_test.go (the real common.cuh follows as
// common_real.cuh): as cuda_emulation.h, one OS thread per CUDA thread of
// a block and the blocks one after another, plus warps: the 32 lanes of a
// warp meet at a barrier of their own in each warp intrinsic
// (__match_any_sync, __shfl_sync, __ballot_sync; __syncthreads_or meets
// at the block's barrier), which is what a converged warp does, so
// kernels whose warps stay converged through their intrinsics (loops over
// whole warps) run here. Atomics are std::atomic_ref.
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstring>
struct dim3e { unsigned x = 0, y = 0, z = 0; };
extern thread_local dim3e threadIdx, blockIdx;
extern dim3e blockDim, gridDim;
extern std::barrier<>* g_bar;
extern std::barrier<>* g_warp_bar[32];
extern unsigned long long g_warp_slot[32][32];
inline void __syncthreads() { g_bar->arrive_and_wait(); }
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
template <class T> T __ldg(const T* p) { return *p; }
using std::max;
using std::min;

inline unsigned __match_any_sync(unsigned, long long v) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  g_warp_slot[w][lane] = (unsigned long long)v;
  g_warp_bar[w]->arrive_and_wait();
  unsigned m = 0;
  for (int l = 0; l < 32; l++)
    if (g_warp_slot[w][l] == (unsigned long long)v) m |= 1u << l;
  g_warp_bar[w]->arrive_and_wait();
  return m;
}
template <class T> T __shfl_sync(unsigned, T v, int src) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned long long x = 0;
  std::memcpy(&x, &v, sizeof(T));
  g_warp_slot[w][lane] = x;
  g_warp_bar[w]->arrive_and_wait();
  x = g_warp_slot[w][src];
  g_warp_bar[w]->arrive_and_wait();
  T r;
  std::memcpy(&r, &x, sizeof(T));
  return r;
}
inline unsigned __ballot_sync(unsigned, bool v) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  g_warp_slot[w][lane] = v;
  g_warp_bar[w]->arrive_and_wait();
  unsigned m = 0;
  for (int l = 0; l < 32; l++)
    if (g_warp_slot[w][l]) m |= 1u << l;
  g_warp_bar[w]->arrive_and_wait();
  return m;
}
extern int g_block_flag[1024];
inline int __syncthreads_or(int v) {
  g_block_flag[threadIdx.x] = v;
  g_bar->arrive_and_wait();
  int any = 0;
  for (unsigned t = 0; t < blockDim.x; t++) any |= g_block_flag[t] != 0;
  g_bar->arrive_and_wait();
  return any;
}
inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
template <class T, class U> T atomicAdd(T* p, U v) { return std::atomic_ref<T>(*p).fetch_add((T)v); }
inline double atomicAdd(double* p, double v) {
  std::atomic_ref<double> a(*p);
  double old = a.load();
  while (!a.compare_exchange_weak(old, old + v)) {}
  return old;
}
template <class T> T atomicCAS(T* p, T cmp, T v) {
  std::atomic_ref<T>(*p).compare_exchange_strong(cmp, v);
  return cmp;
}
template <class T> T atomicMin(T* p, T v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (v < old && !a.compare_exchange_weak(old, v)) {}
  return old;
}
template <class T> T atomicMax(T* p, T v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (v > old && !a.compare_exchange_weak(old, v)) {}
  return old;
}
inline long long __double_as_longlong(double d) { long long x; std::memcpy(&x, &d, 8); return x; }
inline double __longlong_as_double(long long x) { double d; std::memcpy(&d, &x, 8); return d; }
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)(v >> (s & 31));
}
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
struct int4 { int x, y, z, w; };
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
struct longlong2 { long long x, y; };
struct double2 { double x, y; };
#define __launch_bounds__(...)
#include "common_real.cuh"
