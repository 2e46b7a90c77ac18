// hash_join: a materializing equi-join for joins whose output is rows (no
// aggregate above to fuse into). Keys arrive as 8-byte normalized vectors
// (exec/gpu casts both sides to their common type with the expression VM
// and maps string codes into one dictionary), so equality is equality of
// 64-bit words, NULL never matching.
//
//   join_build  inserts every build row with non-NULL keys into an
//               open-addressing table of row numbers (linear probing, CAS on
//               an empty slot; duplicates take their own slots, so a probe
//               walks the run of slots until an empty one). Table size is a
//               power of two at least twice the build rows.
//   join_probe  probes every probe row once and writes the matching (probe
//               row, build row) pairs through a per-block shared-memory
//               result cache (below).
//   join_mark   sets flag[probe row] for each pair (semi/anti/outer joins
//               decide per probe row after a residual filter).
//   join_cross  writes every (i, j) pair of a cross product.
//   gather_rows materializes a column at row numbers, -1 giving NULL (the
//               build side of an unmatched outer row).
//
// Launch: grid-stride, 256 threads per block. Per probe row: K key loads
// and a chain walk of expected length ~1.5 at load factor 1/2; the table
// (4 B per slot) stays in L2 for build sides up to a few million rows.
// Bound: random access latency into the table, then memory bandwidth.
//
// Past L2 the bound is in 32 B sectors, not bytes. A table of 2^k >= 2n
// slots (load factor 1/2; 8 slots a sector) costs, with one 8-byte key:
// per probe row ~1.2 slot sectors (linear probing examines ~1.5 slots on a
// hit, ~2.5 on a miss, and they share a sector but for ~1 in 5 walks) plus
// one random 8 B build-key load per occupied slot examined (~1.5 sectors,
// slots hold row ids, not keys): ~2.7 sectors = ~86 B of HBM traffic for
// 8 B of input; per build row one CAS on a random slot sector (read and
// written back: ~1.2 x 64 B) plus the 4n-slot memset. bench join's 64 M x
// 64 M intersection is then ~11.8 GB moved, 4.1 ms at 2.9 TB/s; the
// measured 15.5 ms (README) is ~0.33 G sectors / 15.5 ms = ~21 G random
// sectors/s, ~23 % of HBM in sector terms, which is what the H100 gives
// for dependent random 32 B reads. Going faster means fewer sectors per
// row (keys stored in the slots: one sector per probe) or a table that
// fits L2 (radix-partitioned build), not a tighter loop.
#include "common.cuh"

#define MAX_JKEYS 4

struct JoinParams {
  long long nProbe, nBuild;
  int nkeys;
  int pad;
  Col probe[MAX_JKEYS];
  Col build[MAX_JKEYS];
  int* slots;
  long long mask;
  unsigned long long* total;  // pairs found (may exceed cap)
  long long cap;              // pairs outProbe/outBuild hold
  int* outProbe;
  int* outBuild;
};

extern "C" __global__ void join_params_size(long long* out) { *out = sizeof(JoinParams); }

__device__ __forceinline__ long long key_at(const Col& c, long long i) {
  if (c.width == 4) return (long long)__ldg((const int*)c.data + i);
  return __ldg((const long long*)c.data + i);
}

// row_hash hashes the keys of row i of cols; false when a key is NULL.
__device__ __forceinline__ bool row_hash(const Col* cols, int nkeys, long long i, unsigned long long* h) {
  unsigned long long x = 0x9e3779b97f4a7c15ULL;
  for (int k = 0; k < nkeys; k++) {
    if (!isvalid(cols[k], i)) return false;
    x = hash64((long long)(x ^ (unsigned long long)key_at(cols[k], i)) + k);
  }
  *h = x;
  return true;
}

__device__ __forceinline__ bool keys_equal(const JoinParams& p, long long i, long long b) {
  for (int k = 0; k < p.nkeys; k++)
    if (key_at(p.probe[k], i) != key_at(p.build[k], b)) return false;
  return true;
}

extern "C" __global__ void join_build(const JoinParams p) {
  for (long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x; b < p.nBuild; b += (long long)gridDim.x * blockDim.x) {
    unsigned long long h;
    if (!row_hash(p.build, p.nkeys, b, &h)) continue;
    long long s = h & p.mask;
    while (atomicCAS(p.slots + s, -1, (int)b) != -1) s = (s + 1) & p.mask;
  }
}

// join_probe: one pass over the probe rows that writes the join's pairs
// through a per-block shared-memory result cache flushed with one global
// atomic per flush (DESIGN "GPU execution"; the output-buffering scheme of
// He et al., "Relational joins on graphics processors", SIGMOD 2008, minus
// their count pass). A block takes a tile of blockDim probe rows; in rounds,
// each thread walks its chain to its next match and appends the pair to the
// cache (warp-aggregated: one shared atomic per warp per round). A round
// adds at most blockDim pairs, so the cache is flushed whenever it holds
// more than JOIN_CACHE - blockDim: thread 0 reserves the range in the
// output with one atomicAdd on total, and the block copies the pairs out
// coalesced. Any fan-out fits: a probe row with many matches just takes
// many rounds. Pairs beyond cap are counted but not written; the host then
// reruns the kernel with an output of exactly *total pairs.
//
// Per probe row: K key loads, the chain walk, 8 B written per pair (plus 8 B
// of shared memory written and read). Launch: grid-stride over tiles,
// JOIN_BLOCK threads, 16 KB of static shared memory per block (several
// blocks per SM). Bound: the table's random access latency, then the output
// write bandwidth; the global atomics are ~1/1800 per pair.
#define JOIN_BLOCK 256
#define JOIN_CACHE 2048

extern "C" __global__ void __launch_bounds__(JOIN_BLOCK) join_probe(const JoinParams p) {
  __shared__ int cacheProbe[JOIN_CACHE];
  __shared__ int cacheBuild[JOIN_CACHE];
  __shared__ int cached;
  __shared__ long long base;
  const int lane = threadIdx.x & 31;
  if (threadIdx.x == 0) cached = 0;
  __syncthreads();
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long tile = (long long)blockIdx.x * blockDim.x; tile < p.nProbe; tile += stride) {
    const long long i = tile + threadIdx.x;
    unsigned long long h;
    bool active = i < p.nProbe && row_hash(p.probe, p.nkeys, i, &h);
    long long s = active ? (long long)(h & p.mask) : 0;
    while (__syncthreads_or(active)) {
      int b = -1;
      while (active) {
        int x = p.slots[s];
        if (x < 0) {
          active = false;
          break;
        }
        s = (s + 1) & p.mask;
        if (keys_equal(p, i, x)) {
          b = x;
          break;
        }
      }
      unsigned want = __ballot_sync(0xffffffffu, b >= 0);
      if (want) {
        int leader = __ffs(want) - 1, at = 0;
        if (lane == leader) at = atomicAdd(&cached, __popc(want));
        at = __shfl_sync(0xffffffffu, at, leader) + __popc(want & ((1u << lane) - 1));
        if (b >= 0) {
          cacheProbe[at] = (int)i;
          cacheBuild[at] = b;
        }
      }
      __syncthreads();
      if (cached > JOIN_CACHE - JOIN_BLOCK) {
        const int n = cached;
        if (threadIdx.x == 0) base = (long long)atomicAdd(p.total, (unsigned long long)n);
        __syncthreads();
        for (int k = threadIdx.x; k < n; k += blockDim.x)
          if (base + k < p.cap) {
            p.outProbe[base + k] = cacheProbe[k];
            p.outBuild[base + k] = cacheBuild[k];
          }
        __syncthreads();
        if (threadIdx.x == 0) cached = 0;
      }
    }
  }
  __syncthreads();
  const int n = cached;
  if (n == 0) return;
  if (threadIdx.x == 0) base = (long long)atomicAdd(p.total, (unsigned long long)n);
  __syncthreads();
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    if (base + k < p.cap) {
      p.outProbe[base + k] = cacheProbe[k];
      p.outBuild[base + k] = cacheBuild[k];
    }
}

extern "C" __global__ void join_mark(const int* rows, long long m, unsigned char* flags, long long val) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x)
    flags[rows[i]] = (unsigned char)val;
}

extern "C" __global__ void join_cross(long long nl, long long nr, int* outL, int* outR) {
  const long long m = nl * nr;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
    outL[i] = (int)(i / nr);
    outR[i] = (int)(i % nr);
  }
}

// gather_rows: out[i] = in[rows[i]] (NULL where rows[i] < 0 or the source
// is NULL); validity 32 rows per warp ballot, so the loop runs whole warps.
extern "C" __global__ void gather_rows(const int* rows, long long m, Col in, void* out, unsigned int* outValid) {
  long long m32 = (m + 31) & ~31LL;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m32; i += (long long)gridDim.x * blockDim.x) {
    bool v = false;
    if (i < m) {
      long long r = rows ? rows[i] : i;
      v = r >= 0 && isvalid(in, r);
      if (in.width == 4) ((int*)out)[i] = v ? __ldg((const int*)in.data + r) : 0;
      else ((long long*)out)[i] = v ? __ldg((const long long*)in.data + r) : 0;
    }
    unsigned int b = __ballot_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) outValid[i >> 5] = b;
  }
}
