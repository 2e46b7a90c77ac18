// sort: an LSD radix sort of (normalized key, row id) pairs, the device half
// of Sort, TopN and SortMergeJoin (exec/gpu/sort.go). A multi-column ORDER BY
// sorts by its least significant key first; each key is one value pass and,
// when the column has NULLs, one NULL-flag pass after it (the flag is the
// more significant), every pass a stable radix sort on 8-bit digits, so the
// permutation ends ordered by all keys (Satish et al.'s histogram / scan /
// scatter scheme, without CUB).
//
//   sort_iota          perm[i] = i. Writes 4 B per row.
//   sort_encode        keys[i] = an order-preserving uint64 of the key at row
//                      perm[i] (integers: sign bit flipped; doubles: sign bit
//                      flipped for positives, every bit for negatives, -0
//                      taken as 0; DESC: complemented; NULL-flag pass: 0/1
//                      so NULLs come first ascending, last descending), and
//                      the AND and OR of all keys, so the host skips the
//                      digits on which every key agrees (dictionary codes
//                      and small integers need one to three passes, not
//                      eight). Reads 4 B + one gathered value, writes 8 B.
//   radix_hist         per tile of SORT_TILE rows, the 256-bin histogram of
//                      one digit in shared memory, written digit-major
//                      (counts[digit * tiles + tile]) so that one exclusive
//                      scan gives every tile's output base per digit.
//                      Reads 8 B per row.
//   scan_exclusive_i64 one block of 1024 threads scans counts in place.
//                      256 * rows / 4096 entries: 1/16 of a row per row.
//   radix_scatter      per tile, in row order, ranks each row among equal
//                      digits (warp __match_any_sync, then per-warp counts
//                      in shared memory) and writes (key, row id) to its
//                      stable position. Reads 12 B, writes 12 B per row,
//                      scattered into at most 256 runs per tile.
//   sort_count_valid   how many rows have every (join) key non-NULL.
//
// Launch: 256 threads per block (one per digit value), one block per tile
// for hist/scatter, grid-stride for the rest. Bound: memory bandwidth,
// ~50 B per row per pass plus the scattered writes' partial sectors.
#include "common.cuh"

#define RADIX 256
#define SORT_ITEMS 16
#define SORT_TILE (RADIX * SORT_ITEMS)
#define SORT_WARPS (RADIX / 32)

extern "C" __global__ void sort_iota(int* perm, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    perm[i] = (int)i;
}

struct EncodeParams {
  Col col;
  const int* perm;
  long long n;
  unsigned long long* keys;
  int desc;
  int nullFlag;
  unsigned long long* andOr;  // [0] AND (host sets ~0), [1] OR (host sets 0)
};

__device__ __forceinline__ unsigned long long encode_value(const Col& c, long long r) {
  if (c.isFloat) {
    double d = __ldg((const double*)c.data + r);
    if (d == 0.0) d = 0.0;  // -0 sorts with 0
    unsigned long long b = (unsigned long long)__double_as_longlong(d);
    return (b >> 63) ? ~b : (b | 0x8000000000000000ULL);
  }
  return (unsigned long long)ldi(c, r) ^ 0x8000000000000000ULL;
}

extern "C" __global__ void sort_encode(EncodeParams p) {
  unsigned long long a = ~0ULL, o = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    long long r = p.perm ? __ldg(p.perm + i) : i;
    bool ok = isvalid(p.col, r);
    unsigned long long k;
    if (p.nullFlag) {
      k = p.desc ? (ok ? 0 : 1) : (ok ? 1 : 0);
    } else {
      k = ok ? encode_value(p.col, r) : 0;
      if (p.desc) k = ~k;
    }
    p.keys[i] = k;
    a &= k;
    o |= k;
  }
  for (int s = 16; s > 0; s >>= 1) {
    a &= __shfl_xor_sync(0xffffffffu, a, s);
    o |= __shfl_xor_sync(0xffffffffu, o, s);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAnd(p.andOr, a);
    atomicOr(p.andOr + 1, o);
  }
}

struct RadixParams {
  const unsigned long long* keysIn;
  const int* valsIn;
  unsigned long long* keysOut;
  int* valsOut;
  long long n;
  long long tiles;
  long long* counts;
  int shift;
  int pad;
};

extern "C" __global__ void radix_hist(RadixParams p) {
  __shared__ int h[RADIX];
  int t = threadIdx.x;
  h[t] = 0;
  __syncthreads();
  long long base = (long long)blockIdx.x * SORT_TILE;
  for (int j = 0; j < SORT_ITEMS; j++) {
    long long i = base + (long long)j * RADIX + t;
    if (i < p.n) atomicAdd(&h[(p.keysIn[i] >> p.shift) & (RADIX - 1)], 1);
  }
  __syncthreads();
  p.counts[(long long)t * p.tiles + blockIdx.x] = h[t];
}

extern "C" __global__ void radix_scatter(RadixParams p) {
  __shared__ long long base[RADIX];
  __shared__ int wc[SORT_WARPS][RADIX];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  base[t] = p.counts[(long long)t * p.tiles + blockIdx.x];
  long long tile = (long long)blockIdx.x * SORT_TILE;
  unsigned lt = (1u << lane) - 1;
  for (int j = 0; j < SORT_ITEMS; j++) {
    for (int w = 0; w < SORT_WARPS; w++) wc[w][t] = 0;
    __syncthreads();
    long long i = tile + (long long)j * RADIX + t;
    bool ok = i < p.n;
    unsigned long long k = ok ? p.keysIn[i] : 0;
    int d = ok ? (int)((k >> p.shift) & (RADIX - 1)) : RADIX + lane;
    unsigned peers = __match_any_sync(0xffffffffu, d);
    int rank = __popc(peers & lt);
    if (ok && rank == 0) wc[warp][d] = __popc(peers);
    __syncthreads();
    if (ok) {
      long long pos = base[d] + rank;
      for (int w = 0; w < warp; w++) pos += wc[w][d];
      p.keysOut[pos] = k;
      p.valsOut[pos] = p.valsIn[i];
    }
    __syncthreads();
    int tot = 0;
    for (int w = 0; w < SORT_WARPS; w++) tot += wc[w][t];
    base[t] += tot;
    __syncthreads();
  }
}

// scan_exclusive_i64: a[i] = sum of a[0..i), *total = sum of all; one block
// of 1024 threads, each over a contiguous chunk.
extern "C" __global__ void scan_exclusive_i64(long long* a, long long n, long long* total) {
  __shared__ long long s[1024];
  int t = threadIdx.x;
  long long chunk = (n + 1023) / 1024;
  long long lo = min(n, t * chunk), hi = min(n, lo + chunk);
  long long sum = 0;
  for (long long i = lo; i < hi; i++) sum += a[i];
  s[t] = sum;
  __syncthreads();
  for (int off = 1; off < 1024; off <<= 1) {
    long long v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  long long run = s[t] - sum;
  for (long long i = lo; i < hi; i++) {
    long long x = a[i];
    a[i] = run;
    run += x;
  }
  if (t == 1023) *total = s[1023];
}

struct CountValidParams {
  Col cols[4];
  long long n;
  int nkeys;
  int pad;
  unsigned long long* out;
};

extern "C" __global__ void sort_count_valid(CountValidParams p) {
  unsigned long long c = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    bool ok = true;
    for (int k = 0; k < p.nkeys; k++) ok = ok && isvalid(p.cols[k], i);
    c += ok;
  }
  for (int s = 16; s > 0; s >>= 1) c += __shfl_xor_sync(0xffffffffu, c, s);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(p.out, c);
}

// sort_param_sizes: the byte sizes of this file's parameter structs, for exec/gpu's layout test.
extern "C" __global__ void sort_param_sizes(long long* out) {
  out[0] = sizeof(EncodeParams);
  out[1] = sizeof(RadixParams);
  out[2] = sizeof(CountValidParams);
}
