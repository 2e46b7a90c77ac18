// gather: materializes a column at the row numbers select.cu produced
// (join/selection output). gather_col copies 4- or 8-byte values; 
// gather_valid builds the output validity bitmap 32 rows per warp ballot.
//
// Per output row: reads a 4 B row number and one value (random within the
// source, sorted so mostly sector-coalesced for selections), writes the
// value. Launch: grid-stride, 256 threads per block. Bound: memory
// bandwidth, worse for scattered row numbers (a 32 B sector per value).
#include "common.cuh"

extern "C" __global__ void gather_col(const int* rowids, long long m, const void* in, void* out, long long width) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
    int r = __ldg(rowids + i);
    if (width == 4) ((int*)out)[i] = __ldg((const int*)in + r);
    else ((long long*)out)[i] = __ldg((const long long*)in + r);
  }
}

// gather_valid: every lane of a warp takes part in each ballot, so the
// loop bound is rounded up to whole warps.
extern "C" __global__ void gather_valid(const int* rowids, long long m, const unsigned long long* in, unsigned int* out) {
  long long m32 = (m + 31) & ~31LL;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m32; i += (long long)gridDim.x * blockDim.x) {
    bool v = false;
    if (i < m) {
      int r = __ldg(rowids + i);
      v = (__ldg(in + (r >> 6)) >> (r & 63)) & 1ULL;
    }
    unsigned int b = __ballot_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) out[i >> 5] = b;
  }
}
