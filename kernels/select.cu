// select: stream compaction of a filtered scan (Filter over TableScan with
// no aggregate above), after Diamos et al.'s partition-compute-gather
// select, with the prefix sums kept on the device.
//
// select_count evaluates the predicates over each tile of 256 x SEL_IT rows
// and writes its number of passing rows (int64) and, when asked, each
// thread's SEL_IT pass bits (a byte); the device-wide scan_exclusive_i64
// (sort.cu) turns the counts in place into exclusive tile offsets (1/2048
// of a row per row), so only the 8-byte total crosses to the host. Then
// either select_emit ranks each thread's passing rows from its pass bits
// (a shared-memory scan of per-warp counts) and writes the plain output
// columns, and the row numbers when computed columns need them, at offset
// + rank: the predicate columns are read once; or select_scatter (the
// compaction of a flag vector for other operators) re-evaluates the
// predicates and writes row numbers. Per row: reads the predicate columns
// (4-8 B each) once, writes 1/8 B of pass bits; select_emit's costs are at
// its kernel. Launch: 256 threads a block; select_count and select_emit
// loop over tiles from a grid of a few blocks an SM (no block set up and
// torn down per 2048 rows), select_scatter one block a tile. Bound: device
// memory bandwidth.
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
  // mask (optional): select_count writes each thread's SEL_IT pass bits,
  // one byte a thread (bit k: row i0 + k), for select_emit.
  unsigned char* mask;
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

// select_count loops over tiles tile, tile + gridDim.x, ... Five blocks an
// SM (48 registers, none spilled) rather than four: more loads in flight.
extern "C" __global__ void __launch_bounds__(256, 5) select_count(const SelectParams p) {
  const long long tiles = (p.n + 256LL * SEL_IT - 1) / (256LL * SEL_IT);
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const long long thread = tile * blockDim.x + threadIdx.x;
    const long long i0 = thread * SEL_IT;
    bool alive[SEL_IT];
    int total;
    block_exclusive_scan(tile_rows(p, i0, alive), &total);
    if (threadIdx.x == 0) p.counts[tile] = total;
    if (p.mask) {
      unsigned bits = 0;
#pragma unroll
      for (int k = 0; k < SEL_IT; k++) bits |= alive[k] ? 1u << k : 0u;
      p.mask[thread] = (unsigned char)bits;
    }
    __syncthreads();  // the scan's shared sums are the next tile's
  }
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

// select_emit: the compaction's second pass without re-evaluating the
// predicates or writing row numbers for a gather: each thread reads its
// byte of select_count's pass bits, ranks its passing rows in the block
// (the same scan as select_scatter) and writes the selected values of the
// plain output columns at offset + rank, their validity bits with at most
// two atomicOr a thread (the output bitmap zeroed before), and row numbers
// only when computed columns need them (rowids set).
//
// Per row: reads 1/8 B of pass bits; per thread with a passing row: its
// SEL_IT values of each output column (one 32 B sector of an INT column, as
// vector loads in a full tile), writes 4-8 B a column per passing row and
// 4 B of row number when asked.
// Launch: 256 threads a block, looping over tiles of 256 x SEL_IT rows as
// select_count does. Bound: device memory bandwidth.
#define MAX_EMIT 8

// EmitCol is a plain output column: values of in at the passing rows into
// out (8 B a value when in.width is 8, else 4 B), validity into outValid
// (32 rows a word) when in has a bitmap.
struct EmitCol {
  Col in;
  void* out;
  unsigned int* outValid;
};

struct EmitParams {
  long long n;
  const long long* offsets;  // per tile, exclusive (select_count + scan)
  const unsigned char* mask;  // per thread: its rows' pass bits
  int* rowids;               // nullptr: not written
  int ncols;
  int pad;
  EmitCol cols[MAX_EMIT];
};

extern "C" __global__ void emit_params_size(long long* out) { *out = sizeof(EmitParams); }

// emit_rows writes a thread's passing rows (bits over rows i0 ..
// i0+SEL_IT-1) from output position at0 on.
__device__ __forceinline__ void emit_rows(const EmitParams& p, long long i0, unsigned bits, long long at0) {
  if (p.rowids) {
    long long at = at0;
#pragma unroll
    for (int k = 0; k < SEL_IT; k++)
      if ((bits >> k) & 1u) p.rowids[at++] = (int)(i0 + k);
  }
  bool pass[SEL_IT];
#pragma unroll
  for (int k = 0; k < SEL_IT; k++) pass[k] = (bits >> k) & 1u;
  const bool full = i0 + SEL_IT <= p.n;
  for (int c = 0; c < p.ncols; c++) {
    const EmitCol& e = p.cols[c];
    // All the thread's values and its validity word are loaded at once
    // (vector loads in a full tile), not one dependent load per passing
    // row: a thread then waits for memory once a column.
    long long v[SEL_IT];
    bool nn[SEL_IT];
    load_i<SEL_IT>(e.in, i0, full, pass, v);
    load_valid<SEL_IT>(e.in, i0, pass, nn);
    const bool wide = e.in.width == 8 && !e.in.frame;
    unsigned long long vbits = 0;
    int nv = 0;
    long long at = at0;
#pragma unroll
    for (int k = 0; k < SEL_IT; k++) {
      if (!pass[k]) continue;
      if (wide) ((long long*)e.out)[at] = v[k];
      else ((int*)e.out)[at] = (int)v[k];
      if (e.outValid && nn[k]) vbits |= 1ULL << nv;
      nv++;
      at++;
    }
    if (vbits) {
      // The thread's outputs are positions at0 .. at0+nv-1 (nv <= 8): at
      // most two bitmap words, shared with neighbouring threads.
      const unsigned long long shifted = vbits << (at0 & 31);
      unsigned int* w = e.outValid + (at0 >> 5);
      if ((unsigned)shifted) atomicOr(w, (unsigned)shifted);
      if ((unsigned)(shifted >> 32)) atomicOr(w + 1, (unsigned)(shifted >> 32));
    }
  }
}

extern "C" __global__ void __launch_bounds__(256) select_emit(const EmitParams p) {
  const long long tiles = (p.n + 256LL * SEL_IT - 1) / (256LL * SEL_IT);
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const long long thread = tile * blockDim.x + threadIdx.x;
    const unsigned bits = p.mask[thread];
    int total;
    const long long at0 = p.offsets[tile] + block_exclusive_scan(__popc(bits), &total);
    if (bits != 0) emit_rows(p, thread * SEL_IT, bits, at0);
    __syncthreads();  // the scan's shared sums are the next tile's
  }
}
