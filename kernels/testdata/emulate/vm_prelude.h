// The CUDA features kernels/common.cuh and the kernels tested over it use beyond
// cuda_emulation.h's threads, barriers and warp intrinsics: the vector
// types, 64-bit bit tricks and the atomics common.cuh's helpers name (run
// as std::atomic_ref read-modify-writes). kernels/common_emulate_test.go
// puts this and the real common.cuh behind the common.cuh the kernel
// includes.
#pragma once
#include "cuda_emulation.h"
#include <cmath>
#include <cstring>
#include <math.h>
struct int4 { int x, y, z, w; };
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
struct longlong2 { long long x, y; };
struct double2 { double x, y; };
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)(v >> (s & 31));
}
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline double __longlong_as_double(long long x) { double d; std::memcpy(&d, &x, 8); return d; }
inline long long __double_as_longlong(double d) { long long x; std::memcpy(&x, &d, 8); return x; }
template <class T> T atomicCAS(T* p, T c, T v) {
  std::atomic_ref<T>(*p).compare_exchange_strong(c, v);
  return c;
}
inline long long atomicMin(long long* p, long long v) {
  std::atomic_ref<long long> a(*p);
  long long o = a.load();
  while (v < o && !a.compare_exchange_weak(o, v)) {
  }
  return o;
}
inline long long atomicMax(long long* p, long long v) {
  std::atomic_ref<long long> a(*p);
  long long o = a.load();
  while (v > o && !a.compare_exchange_weak(o, v)) {
  }
  return o;
}
inline unsigned atomicOr(unsigned* p, unsigned v) { return std::atomic_ref<unsigned>(*p).fetch_or(v); }
template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned d) {
  const int lane = threadIdx.x % 32;
  const T up = __shfl_sync(mask, v, lane >= (int)d ? lane - (int)d : lane);
  return up;
}
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
template <class T> T __shfl_down_sync(unsigned mask, T v, unsigned d) {
  const int lane = threadIdx.x % 32;
  return __shfl_sync(mask, v, lane + (int)d < 32 ? lane + (int)d : lane);
}
inline double atomicAdd(double* p, double v) { return std::atomic_ref<double>(*p).fetch_add(v); }
