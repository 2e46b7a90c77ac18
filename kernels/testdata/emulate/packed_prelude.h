// Host stand-ins for the CUDA features kernels/common.cuh uses, so that
// kernels/emulate_test.go can compile common.cuh itself with g++ and check
// its packed-column decoding (ld_packed, load_packed, ldi, load_i) against
// the Go packer's output. Atomics are plain read-modify-writes: the
// harness is single-threaded.
#pragma once
#include <cstdint>
#include <cstring>
#define __device__
#define __forceinline__ inline
struct int4 { int x, y, z, w; };
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
struct longlong2 { long long x, y; };
struct double2 { double x, y; };
// ldg_count counts the loads, so that a test can see which words a
// decode fetched.
inline long long ldg_count = 0;
template <class T> T __ldg(const T* p) { ldg_count++; return *p; }
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)(v >> (s & 31));
}
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline double __longlong_as_double(long long x) { double d; std::memcpy(&d, &x, 8); return d; }
inline long long __double_as_longlong(double d) { long long x; std::memcpy(&x, &d, 8); return x; }
template <class T> T atomicAdd(T* p, T v) { T o = *p; *p = o + v; return o; }
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long c, unsigned long long v) {
  unsigned long long o = *p; if (o == c) *p = v; return o;
}
inline long long atomicMin(long long* p, long long v) { long long o = *p; if (v < o) *p = v; return o; }
inline long long atomicMax(long long* p, long long v) { long long o = *p; if (v > o) *p = v; return o; }
