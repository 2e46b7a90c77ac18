// hash_build: the build side of a star join, run over a (small, filtered)
// dimension table. dim_mark evaluates the dimension's filters and marks the
// group value of every surviving row in a flag array over the group domain;
// the host turns the flags into dense ranks (so the fact kernel's group
// index spans only values that survive, e.g. 5 AMERICA nations instead of
// 25); dim_build writes each surviving row's rank into the join table.
//
// Join table: a direct-mapped array indexed by key - keyMin (a perfect hash
// for dense integer keys such as SSB's surrogate keys and yyyymmdd dates:
// one 4 B load per probe, no collisions) or, for sparse keys, open
// addressing with linear probing and 64-bit compare-and-swap, at least twice
// the build size (DESIGN.md "Hash join"). A duplicate key sets status bit 0
// (the fused pipeline needs a unique build side), a key outside the
// direct-mapped range bit 1.
//
// Per dimension row: reads the predicate, group and key columns (4 B each),
// writes one flag byte and one 4 B map entry. Launch: one thread per row,
// THREADS per block. Bound: memory bandwidth on tiny inputs — these kernels
// are launch-latency bound (tens of µs) for SSB's dimensions.
#include "common.cuh"

struct DimBuildParams {
  long long n;
  int npreds, ngcols;
  Pred preds[MAX_PREDS];
  GCol gcols[MAX_GCOLS];
  Col key;
  unsigned char* flags;     // dim_mark: flags[group value] = 1
  const int* rank;          // group value → payload (nil: the value itself)
  int* map;                 // direct-mapped array or open-addressing payloads
  long long keyMin;
  long long mapLen;
  long long* hkeys;         // open addressing keys (nil: direct-mapped)
  long long hmask;
  int* status;
  // keyRange, when set, gets the least and greatest key of the rows built
  // (host-initialized to the largest and least int64): the interval a
  // clustered fact key is tested against chunk by chunk
  // (planner/gpu_dim_zones.go).
  long long* keyRange;
};

extern "C" __global__ void dim_params_size(long long* out) { *out = sizeof(DimBuildParams); }

__device__ __forceinline__ bool dim_row(const DimBuildParams& p, long long i, long long* g) {
  for (int q = 0; q < MAX_PREDS; q++)
    if (q < p.npreds && !pred_test(p.preds[q], i)) return false;
  long long v = 0;
  for (int c = 0; c < MAX_GCOLS; c++)
    if (c < p.ngcols) v += gcol_digit(p.gcols[c], i);
  *g = v;
  return true;
}

extern "C" __global__ void dim_mark(const DimBuildParams p) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  long long g;
  if (dim_row(p, i, &g)) p.flags[g] = 1;
}

extern "C" __global__ void dim_build(const DimBuildParams p) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  long long g;
  if (!dim_row(p, i, &g)) return;
  if (!isvalid(p.key, i)) return;  // a NULL key joins nothing
  int payload = p.rank ? p.rank[g] : (int)g;
  long long key = ldi(p.key, i);
  if (p.keyRange) {
    atomicMin(p.keyRange, key);
    atomicMax(p.keyRange + 1, key);
  }
  if (p.hkeys == 0) {
    long long k = key - p.keyMin;
    if (k < 0 || k >= p.mapLen) {
      atomicOr(p.status, 2);
      return;
    }
    if (atomicCAS(p.map + k, -1, payload) != -1) atomicOr(p.status, 1);
    return;
  }
  unsigned long long h = hash64(key) & p.hmask;
  for (;;) {
    long long prev = (long long)atomicCAS((unsigned long long*)(p.hkeys + h), (unsigned long long)EMPTY_KEY, (unsigned long long)key);
    if (prev == EMPTY_KEY) {
      p.map[h] = payload;
      return;
    }
    if (prev == key) {
      atomicOr(p.status, 1);
      return;
    }
    h = (h + 1) & p.hmask;
  }
}

// fill_i64 sets n int64s to v (EMPTY_KEY before an open-addressing build).
extern "C" __global__ void fill_i64(long long* p, long long v, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    p[i] = v;
}
