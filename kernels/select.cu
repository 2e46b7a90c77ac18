// select: stream compaction of a filtered scan (Filter over TableScan with
// no aggregate above): the row numbers of the rows that pass, in row order,
// for gather.cu to materialize the projected columns.
//
// Two passes over the predicate columns (re-evaluating beats writing and
// re-reading a flag per row while there are few predicate columns):
// select_count writes each tile's number of passing rows (int64); the
// device-wide scan_exclusive_i64 (sort.cu) turns them in place into
// exclusive offsets (one per tile, 1/2048 of a row per row), so the counts
// never cross to the host (only the 8-byte total does); select_scatter
// re-evaluates and writes row numbers at offset + in-tile rank (warp
// ballots and a shared-memory scan of per-warp counts). Launch: one block
// of 256 threads per tile of 256 x SEL_IT rows. Per row: reads the
// predicate columns (4-8 B each) twice, writes 4 B per passing row.
// Bound: device memory bandwidth.
#include "common.cuh"

#define SEL_IT 8

struct SelectParams {
  long long n;
  int npreds;
  int pad;
  Pred preds[MAX_PREDS];
  long long* counts;   // per tile; scanned in place into offsets
  const long long* offsets;  // per tile, exclusive
  int* rowids;
};

extern "C" __global__ void select_params_size(long long* out) { *out = sizeof(SelectParams); }

__device__ __forceinline__ int tile_rows(const SelectParams& p, long long i0, bool* alive) {
  const bool full = i0 + SEL_IT <= p.n;
#pragma unroll
  for (int k = 0; k < SEL_IT; k++) alive[k] = i0 + k < p.n;
  for (int q = 0; q < p.npreds; q++) pred_items<SEL_IT>(p.preds[q], i0, full, alive);
  int c = 0;
#pragma unroll
  for (int k = 0; k < SEL_IT; k++) c += alive[k] ? 1 : 0;
  return c;
}

// block_exclusive_scan returns the sum of c over threads before this one in
// the block and sets *total to the block's sum.
__device__ __forceinline__ int block_exclusive_scan(int c, int* total) {
  __shared__ int warpSums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int incl = c;
  for (int off = 1; off < 32; off <<= 1) {
    int o = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += o;
  }
  if (lane == 31) warpSums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int nw = blockDim.x >> 5;
    int v = lane < nw ? warpSums[lane] : 0;
    for (int off = 1; off < 32; off <<= 1) {
      int o = __shfl_up_sync(0xffffffffu, v, off);
      if (lane >= off) v += o;
    }
    if (lane < nw) warpSums[lane] = v;  // inclusive over warps
  }
  __syncthreads();
  *total = warpSums[(blockDim.x >> 5) - 1];
  return (warp > 0 ? warpSums[warp - 1] : 0) + incl - c;
}

extern "C" __global__ void __launch_bounds__(256) select_count(const SelectParams p) {
  const long long i0 = (long long)blockIdx.x * blockDim.x * SEL_IT + (long long)threadIdx.x * SEL_IT;
  bool alive[SEL_IT];
  int total;
  block_exclusive_scan(tile_rows(p, i0, alive), &total);
  if (threadIdx.x == 0) p.counts[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(256) select_scatter(const SelectParams p) {
  const long long i0 = (long long)blockIdx.x * blockDim.x * SEL_IT + (long long)threadIdx.x * SEL_IT;
  bool alive[SEL_IT];
  int total;
  int c = tile_rows(p, i0, alive);
  long long at = p.offsets[blockIdx.x] + block_exclusive_scan(c, &total);
#pragma unroll
  for (int k = 0; k < SEL_IT; k++)
    if (alive[k]) p.rowids[at++] = (int)(i0 + k);
}
