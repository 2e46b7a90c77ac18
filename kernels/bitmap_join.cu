// bitmap_join: joins whose build key domain is small enough for one bit per
// value (Kruliš & Yaghob, "Revision of relational joins for multi-core and
// many-core architectures"). Keys arrive as 8-byte normalized vectors (as
// for hash_join), so a key's bit is key - min.
//
//   bitmap_build   sets one bit per non-NULL build key with atomicOr into a
//                  global bitmap of span bits; for joins that need the
//                  build row it also writes the row into a direct array.
//                  Flags: [0] a key outside [min, min+span) (statistics
//                  were stale: the host falls back to the hash join), [1] a
//                  bit set twice (duplicate build keys: a payload join falls
//                  back), [2] NULL build keys (NOT IN returns nothing).
//   bitmap_probe   one bit test per probe row; the kept rows (matches for
//                  inner and semi joins, misses for anti joins, all rows for
//                  left joins) and their build rows are staged in shared
//                  memory and flushed with one global atomicAdd per flush.
//   bucket_hist,   the bucketed variant for domains too wide for one
//   bucket_scatter bitmap: both sides are histogrammed by the key's top bits
//                  (bucket = (key - min) >> shift; NULL keys and keys
//                  outside the domain get two extra buckets), offsets are
//                  scanned on the device, and each row's low bits and row number are
//                  scattered into its bucket.
//   bitmap_bucket_join  one block per bucket: fill the bucket's bitmap
//                  (2^shift bits) in shared memory from its build keys,
//                  then probe the bucket's probe keys against it, staging
//                  kept rows as bitmap_probe does.
//
// Launch: grid-stride, 256 threads per block. Per probe row: one 8-byte key
// load, one bit load (the bitmap — span/8 bytes — stays in L2 up to tens of
// MB) and 4 or 8 bytes written per kept row. Bound: HBM bandwidth of the
// key read plus the output write; the bucketed variant reads and writes
// each row twice more (scatter) but probes in shared memory.
#include "common.cuh"

struct BitmapParams {
  long long nProbe, nBuild;
  Col probe, build;
  long long min;
  unsigned long long span;
  unsigned int* bits;  // global bitmap (bitmap_build, bitmap_probe)
  int* rows;           // direct array of build rows, or null
  unsigned int* flags;
  int mode;     // 0 keep matches (inner, semi), 1 keep misses (anti), 2 keep all (left)
  int nullHit;  // a NULL probe key counts as a match (NOT IN drops it)
  unsigned long long* total;
  int* outProbe;
  int* outBuild;  // null: not written
  int shift, nBuckets;
  unsigned int* bKeys;  // build side by bucket: low key bits, row
  int* bRows;
  unsigned long long* bStart;  // nBuckets + 3 offsets (then cursors)
  unsigned int* pKeys;
  int* pRows;
  unsigned long long* pStart;
};

extern "C" __global__ void bitmap_params_size(long long* out) { *out = sizeof(BitmapParams); }

#define BM_BLOCK 256
#define BM_CACHE 1024

// Stage is a block's shared-memory result cache; push/flush must be called
// by every thread of the block.
struct Stage {
  int probe[BM_CACHE];
  int build[BM_CACHE];
  int n;
  long long base;
};

__device__ void stage_flush(Stage& s, const BitmapParams& p) {
  __syncthreads();
  const int n = s.n;
  if (n > 0) {
    if (threadIdx.x == 0) s.base = (long long)atomicAdd(p.total, (unsigned long long)n);
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      p.outProbe[s.base + k] = s.probe[k];
      if (p.outBuild) p.outBuild[s.base + k] = s.build[k];
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) s.n = 0;
  __syncthreads();
}

// stage_push appends (i, b) for the threads with keep set, one shared
// atomic per warp; the cache is flushed when the next round might not fit.
__device__ void stage_push(Stage& s, bool keep, int i, int b, const BitmapParams& p) {
  const int lane = threadIdx.x & 31;
  unsigned want = __ballot_sync(0xffffffffu, keep);
  if (want) {
    int leader = __ffs(want) - 1, at = 0;
    if (lane == leader) at = atomicAdd(&s.n, __popc(want));
    at = __shfl_sync(0xffffffffu, at, leader) + __popc(want & ((1u << lane) - 1));
    if (keep) {
      s.probe[at] = i;
      s.build[at] = b;
    }
  }
  __syncthreads();
  if (s.n > BM_CACHE - BM_BLOCK) stage_flush(s, p);
}

extern "C" __global__ void bitmap_build(const BitmapParams p) {
  for (long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x; b < p.nBuild; b += (long long)gridDim.x * blockDim.x) {
    if (!isvalid(p.build, b)) {
      p.flags[2] = 1u;
      continue;
    }
    unsigned long long d = (unsigned long long)(ldi(p.build, b) - p.min);
    if (d >= p.span) {
      p.flags[0] = 1u;
      continue;
    }
    unsigned int bit = 1u << (d & 31);
    if (atomicOr(p.bits + (d >> 5), bit) & bit) p.flags[1] = 1u;
    if (p.rows) p.rows[d] = (int)b;
  }
}

extern "C" __global__ void __launch_bounds__(BM_BLOCK) bitmap_probe(const BitmapParams p) {
  __shared__ Stage s;
  if (threadIdx.x == 0) s.n = 0;
  __syncthreads();
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long tile = (long long)blockIdx.x * blockDim.x; tile < p.nProbe; tile += stride) {
    const long long i = tile + threadIdx.x;
    bool hit = false, keep = false;
    int b = -1;
    if (i < p.nProbe) {
      if (!isvalid(p.probe, i)) {
        hit = p.nullHit;
      } else {
        unsigned long long d = (unsigned long long)(ldi(p.probe, i) - p.min);
        if (d < p.span && ((__ldg(p.bits + (d >> 5)) >> (d & 31)) & 1u)) {
          hit = true;
          if (p.rows) b = p.rows[d];
        }
      }
      keep = p.mode == 2 || (p.mode == 0) == hit;
    }
    stage_push(s, keep, (int)i, b, p);
  }
  stage_flush(s, p);
}

// bucket_of: a row's bucket, nBuckets for a key outside the domain,
// nBuckets + 1 for a NULL key.
__device__ __forceinline__ int bucket_of(const BitmapParams& p, const Col& c, long long i, unsigned int* low) {
  if (!isvalid(c, i)) return p.nBuckets + 1;
  unsigned long long d = (unsigned long long)(ldi(c, i) - p.min);
  if (d >= p.span) return p.nBuckets;
  *low = (unsigned int)(d & ((1ULL << p.shift) - 1));
  return (int)(d >> p.shift);
}

// bucket_hist counts the rows of one side (side 0 build, 1 probe) per
// bucket into start[k] (scan_exclusive_i64 then turns the counts into
// offsets on the device, no host round trip); a build key outside the domain raises flags[0],
// a NULL one flags[2]. (It takes bucket_scatter's parameters, cursor
// unused, so that both launch from one parameter buffer.)
extern "C" __global__ void bucket_hist(const BitmapParams p, int side, unsigned long long* cursor) {
  const Col& c = side == 0 ? p.build : p.probe;
  unsigned long long* start = side == 0 ? p.bStart : p.pStart;
  long long n = side == 0 ? p.nBuild : p.nProbe;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned int low;
    int k = bucket_of(p, c, i, &low);
    if (side == 0 && k >= p.nBuckets) {
      p.flags[k == p.nBuckets ? 0 : 2] = 1u;
      continue;
    }
    atomicAdd(start + k, 1ULL);
  }
}

// bucket_scatter writes each row's low key bits and row number at its
// bucket's cursor (cursor = a copy of the scanned offsets).
extern "C" __global__ void bucket_scatter(const BitmapParams p, int side, unsigned long long* cursor) {
  const Col& c = side == 0 ? p.build : p.probe;
  unsigned int* keys = side == 0 ? p.bKeys : p.pKeys;
  int* rows = side == 0 ? p.bRows : p.pRows;
  long long n = side == 0 ? p.nBuild : p.nProbe;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned int low = 0;
    int k = bucket_of(p, c, i, &low);
    if (side == 0 && k >= p.nBuckets) continue;
    unsigned long long at = atomicAdd(cursor + k, 1ULL);
    keys[at] = low;
    rows[at] = (int)i;
  }
}

// bitmap_bucket_join: dynamic shared memory holds one bucket's bitmap
// (2^shift bits); blocks stride over the buckets, the two extra ones
// included (outside the domain: never a match; NULL: nullHit).
extern "C" __global__ void __launch_bounds__(BM_BLOCK) bitmap_bucket_join(const BitmapParams p) {
  extern __shared__ unsigned int bm[];
  __shared__ Stage s;
  const int words = 1 << (p.shift - 5);
  if (threadIdx.x == 0) s.n = 0;
  __syncthreads();
  for (int k = blockIdx.x; k < p.nBuckets + 2; k += gridDim.x) {
    const bool real = k < p.nBuckets;
    if (real) {
      for (int w = threadIdx.x; w < words; w += blockDim.x) bm[w] = 0u;
      __syncthreads();
      for (unsigned long long e = p.bStart[k] + threadIdx.x; e < p.bStart[k + 1]; e += blockDim.x) {
        unsigned int low = p.bKeys[e];
        atomicOr(bm + (low >> 5), 1u << (low & 31));
      }
      __syncthreads();
    }
    const unsigned long long lo = p.pStart[k], hi = p.pStart[k + 1];
    for (unsigned long long tile = lo; tile < hi; tile += blockDim.x) {
      const unsigned long long e = tile + threadIdx.x;
      bool keep = false;
      int row = -1;
      if (e < hi) {
        bool hit = real ? ((bm[p.pKeys[e] >> 5] >> (p.pKeys[e] & 31)) & 1u) != 0 : (k == p.nBuckets + 1 && p.nullHit);
        row = p.pRows[e];
        keep = p.mode == 2 || (p.mode == 0) == hit;
      }
      stage_push(s, keep, row, -1, p);
    }
    __syncthreads();
  }
  stage_flush(s, p);
}
