// bandwidth_probe: the ceiling a scan kernel can reach on this device, for
// benchmarks to report next to the star pipeline's GB/s. It sums a 4-byte
// column with 16-byte loads, a grid-stride loop and full occupancy, and
// does nothing else: reads 4 B per row, writes one atomic per warp.
// Bound: device memory bandwidth (H100 SXM: 3.35 TB/s peak, ~3 TB/s
// achievable for streaming reads).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(256) probe_sum_i32(const int4* in, long long n4, unsigned long long* out) {
  long long s = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    int4 v = __ldg(in + i);
    s += (long long)v.x + v.y + v.z + v.w;
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, (unsigned long long)s);
}
