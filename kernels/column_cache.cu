// column_cache: conversions done once when a column enters the GPU column
// cache. narrow_i64_i32 stores a BIGINT/DECIMAL column whose values all fit
// in 32 bits (the planner's statistics say so; SSB's lo_revenue,
// lo_extendedprice, lo_supplycost) as int32, halving the bytes every later
// scan reads.
//
// Per row: reads 8 B, writes 4 B. Launch: grid-stride, THREADS per block,
// a few blocks per SM. Bound: device memory bandwidth (~12 B/row); run once
// per column, right after the host-to-device copy (which is PCIe-bound and
// ~100x slower), so it never matters to a warm query.
#include "common.cuh"

extern "C" __global__ void narrow_i64_i32(const long long* in, int* out, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = (int)in[i];
}
