// group_compact: device-side compaction of a star pipeline's dense group
// table (exec/gpu/star_compact.go), so that only its non-empty groups
// cross to the host. The table has ngroups slots of width 8-byte words,
// word 0 the slot's row count (0: no row reached the group).
//
// The select skeleton's partition–compute–gather stages (Diamos et al.),
// over slots instead of rows:
//   group_compact_count    writes each tile's number of non-empty slots;
//   scan_exclusive_i64     (sort.cu) turns them in place into offsets;
//   group_compact_scatter  writes, in slot order, one row of width + 1
//                          words per non-empty slot: the slot index, then
//                          the slot's words.
// Launch: one block of GC_THREADS threads per tile of GC_THREADS ×
// GC_ITEMS slots, each thread over GC_ITEMS consecutive slots; the block's
// offsets come from a shared-memory scan (no warp intrinsics, so that
// kernels/emulate_test.go runs this source on the CPU). Per slot: the
// count reads word 0 (the whole table in 32-byte sectors at width 2-4),
// the scatter reads it again and copies non-empty slots. Bound: device
// memory bandwidth, two reads of the table: a 100 MB table costs ~70 µs
// at the H100's 2.9 TB/s, against ~1.8 ms to copy it to the host at 55 GB/s.
#include "common.cuh"

#define GC_THREADS 256
#define GC_ITEMS 8

struct GroupCompactParams {
  const unsigned long long* table;
  long long ngroups;
  long long width;
  long long* counts;         // per tile; scanned in place into offsets
  unsigned long long* out;   // rows of width + 1 words
};

extern "C" __global__ void group_compact_params_size(long long* out) { *out = sizeof(GroupCompactParams); }

// tile_nonempty counts the non-empty slots among this thread's GC_ITEMS.
__device__ __forceinline__ long long tile_nonempty(const GroupCompactParams& p, long long s0) {
  long long c = 0;
  for (int k = 0; k < GC_ITEMS; k++) {
    long long s = s0 + k;
    if (s < p.ngroups && p.table[s * p.width] != 0ULL) c++;
  }
  return c;
}

// gc_block_scan returns the sum of c over the threads before this one in
// the block and sets *total to the block's sum (Hillis–Steele in shared
// memory).
__device__ __forceinline__ long long gc_block_scan(long long c, long long* total) {
  __shared__ long long s[GC_THREADS];
  const int t = threadIdx.x;
  s[t] = c;
  __syncthreads();
  for (int off = 1; off < GC_THREADS; off <<= 1) {
    long long v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  *total = s[GC_THREADS - 1];
  long long before = s[t] - c;
  __syncthreads();  // s is read before any thread of the block reuses it
  return before;
}

extern "C" __global__ void __launch_bounds__(GC_THREADS) group_compact_count(const GroupCompactParams p) {
  const long long s0 = ((long long)blockIdx.x * GC_THREADS + threadIdx.x) * GC_ITEMS;
  long long total;
  gc_block_scan(tile_nonempty(p, s0), &total);
  if (threadIdx.x == 0) p.counts[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(GC_THREADS) group_compact_scatter(const GroupCompactParams p) {
  const long long s0 = ((long long)blockIdx.x * GC_THREADS + threadIdx.x) * GC_ITEMS;
  long long total;
  long long at = p.counts[blockIdx.x] + gc_block_scan(tile_nonempty(p, s0), &total);
  const long long w = p.width;
  for (int k = 0; k < GC_ITEMS; k++) {
    long long s = s0 + k;
    if (s >= p.ngroups) break;
    const unsigned long long* slot = p.table + s * w;
    if (slot[0] == 0ULL) continue;
    unsigned long long* row = p.out + at * (w + 1);
    row[0] = (unsigned long long)s;
    for (long long j = 0; j < w; j++) row[1 + j] = slot[j];
    at++;
  }
}
