// CPU emulation of the few CUDA features kernels/merge_path_join.cu and
// kernels/group_compact.cu use, copied beside each as common.cuh by
// kernels/emulate_test.go: a launch runs
// one OS thread per CUDA thread of a block, the blocks one after another
// with a barrier between them, so function-static arrays stand for
// __shared__ ones and __syncthreads is a barrier wait. The
// extern __shared__ array becomes g_dyn_shared (the test rewrites that
// line). No warps: code relying on warp-synchronous execution or warp
// intrinsics cannot run here.
#pragma once
#include <algorithm>
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
#define __launch_bounds__(...)
#define __shared__ static
template <class T> T __ldg(const T* p) { return *p; }
using std::max;
using std::min;
