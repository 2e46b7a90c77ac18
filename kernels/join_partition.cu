// join_partition: splits a hash join's inputs into P = 2^bits partitions by
// a hash of their normalized keys, for joins whose hash table does not fit
// the device memory budget in one pass (planner/gpu_join_passes.go; the
// passes themselves run hash_join.cu's join_build and join_probe on one
// partition at a time, exec/gpu/hash_join_passes.go). The partition is the
// top bits of a hash that differs from join_build's slot hash (whose low
// bits pick a slot), so the rows of one partition still spread over its
// table. Rows with a NULL key belong to no partition: they never match,
// and the join kinds that output unmatched rows find them by the pairs
// they are missing from.
//
//   join_part_hist     counts the rows of each partition: a per-block
//                      shared-memory histogram (P ≤ 4096 counters) added
//                      to the global one. Reads K keys a row.
//   join_part_scatter  writes each row's keys (8 B each) and row number
//                      (4 B) at its partition's next position, from cursors
//                      the host set to the partitions' starts (the
//                      exclusive scan of the histogram); with only ≥ 0 it
//                      keeps only that partition's rows, compacted behind
//                      cursor 0. Lanes of a warp bound for one partition
//                      share one atomic (__match_any_sync). Order within a
//                      partition is unspecified, as a join's order is.
//   join_part_map      turns a pass's pairs of partition-local positions
//                      into row numbers of the whole input.
//
// Launch: grid-stride over whole warps, 256 threads a block. Bound: memory
// bandwidth (K·8 B read a row to count, K·8 B read and K·8 + 4 B written
// to scatter), then the cursor atomics for small P.
#include "common.cuh"

#define PART_MAX_KEYS 4  // MAX_JKEYS of hash_join.cu
#define PART_MAX_PARTS 4096

struct PartParams {
  long long n;
  int nkeys;
  int shift;  // partition = hash >> shift (64 - bits)
  Col keys[PART_MAX_KEYS];
  int only;    // scatter: -1 for every partition, else only this one
  int nparts;  // P
  unsigned int* counts;  // hist: P counts; scatter: P cursors (only < 0) or 1
  long long* outKeys[PART_MAX_KEYS];
  int* outRows;
};

extern "C" __global__ void join_part_params_size(long long* out) { *out = sizeof(PartParams); }

// part_of is row i's partition, or -1 when a key is NULL.
__device__ __forceinline__ int part_of(const PartParams& p, long long i) {
  unsigned long long x = 0x2545f4914f6cdd1dULL;
  for (int k = 0; k < p.nkeys; k++) {
    if (!isvalid(p.keys[k], i)) return -1;
    x = hash64((long long)((x + (unsigned long long)ldi(p.keys[k], i)) * 0xbf58476d1ce4e5b9ULL) ^ (long long)k);
  }
  return (int)(x >> p.shift);
}

extern "C" __global__ void join_part_hist(const PartParams p) {
  __shared__ unsigned int hist[PART_MAX_PARTS];
  for (int j = threadIdx.x; j < p.nparts; j += blockDim.x) hist[j] = 0;
  __syncthreads();
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    int part = part_of(p, i);
    if (part >= 0) atomicAdd(&hist[part], 1u);
  }
  __syncthreads();
  for (int j = threadIdx.x; j < p.nparts; j += blockDim.x)
    if (hist[j]) atomicAdd(&p.counts[j], hist[j]);
}

extern "C" __global__ void join_part_scatter(const PartParams p) {
  const int lane = threadIdx.x & 31;
  const long long n32 = (p.n + 31) & ~31LL;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n32; i += (long long)gridDim.x * blockDim.x) {
    int part = i < p.n ? part_of(p, i) : -1;
    if (p.only >= 0) part = part == p.only ? 0 : -1;
    // Lanes with the same partition reserve their positions together.
    unsigned same = __match_any_sync(0xffffffffu, part);
    int leader = __ffs(same) - 1;
    unsigned int base = 0;
    if (part >= 0 && lane == leader) base = atomicAdd(&p.counts[part], (unsigned)__popc(same));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (part < 0) continue;
    unsigned int at = base + __popc(same & ((1u << lane) - 1));
    for (int k = 0; k < p.nkeys; k++) p.outKeys[k][at] = ldi(p.keys[k], i);
    p.outRows[at] = (int)i;
  }
}

extern "C" __global__ void join_part_map(const int* local, long long m, const int* rows, int* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x)
    out[i] = rows[local[i]];
}
