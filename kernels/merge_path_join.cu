// merge_path_join: the join stages of SortMergeJoin (exec/gpu/merge_path.go)
// once both inputs are sorted on their keys (kernels/sort.cu), NULL keys cut
// off. Keys arrive as up to 4 order-preserving uint64 arrays per side, in
// sorted order: A is the left side (na rows), B the right (nb rows).
//
// Merge path (Green, Odeh and Birk; the partition stage of Diamos et al.'s
// skeletons, as in ModernGPU's sorted search and load-balancing search):
// the merge of A and B is a path of na + nb steps; cutting it every MP_NV
// steps gives every block exactly MP_NV elements to merge, taken from A and
// B in whatever proportion the keys dictate, so a key repeated millions of
// times costs its blocks no more than any other. Each cut (a diagonal) is
// found by one binary search along the cross diagonal (its co-rank).
//
// A left row's partners are the right rows [lo, hi): lo = how many right
// keys are below its key (the merge with ties taken from A first), hi = how
// many are at most its key (ties taken from B first). Two merges give both,
// so runs of equal keys that span tiles need no special case; counts =
// hi - lo (at most 1 for semi / anti joins without a residual) are scanned
// on the device into output offsets, and a second merge path over the
// output positions 0..m-1 against those offsets (load-balancing search)
// gives every block MP_NV (output, left row) steps: one left row with a
// million partners is expanded by a thousand blocks, not one thread.
//
//   mpj_partition  per diagonal d = k * MP_NV, the co-rank a (rows of A
//                  before the cut; b = d - a). log2(min(na, nb)) dependent
//                  8 B loads per key per diagonal, 8 B written: negligible.
//   mpj_search     per tile, A[a0, a1) and B[b0, b1) (MP_NV keys) into
//                  shared memory, each thread finds its sub-diagonal's
//                  co-rank there and merges MP_ITEMS steps serially. Lower
//                  pass: writes lo (4 B per left row). Upper pass: writes
//                  counts = hi - lo (8 B), reading lo. Reads 8 B per key per
//                  row of each side per pass.
//   mpj_scan_tiles / mpj_scan_apply  exclusive scan of counts in place,
//                  MP_SCAN_TILE rows per block: tile sums, one block scans
//                  the sums (scan_exclusive_i64 of sort.cu, 1/2048 of a row
//                  per row), then each tile rescans itself from its base.
//                  Reads 8 B, then reads and writes 8 B per left row.
//   mpj_expand_partition  co-ranks of the merge of outputs 0..m-1 (implicit)
//                  against offsets[0..na), ties taken from the offsets.
//   mpj_expand     per tile, offsets into shared memory, each thread merges
//                  MP_ITEMS steps to find each output's left row, then the
//                  block writes its outputs in order (coalesced):
//                  outL[k] = lperm[row], outR[k] = rperm[lo[row] + k -
//                  offsets[row]]. Per output: 8 B written, one 4 B gather
//                  from rperm (sequential within a run), lperm / lo per row.
//
// Launch: MP_THREADS threads per block, one block per tile (grid-stride for
// the partitions). Dynamic shared memory: nkeys * MP_NV * 8 B for
// mpj_search (32 KB at 4 keys); static 12 KB for mpj_expand, 16 KB for the
// scans. Bound: HBM bandwidth; every stage streams its inputs once, plus
// the partition searches (one per 1024 elements).
#include "common.cuh"

#define MP_THREADS 128
#define MP_ITEMS 8
#define MP_NV (MP_THREADS * MP_ITEMS)
#define MP_SCAN_THREADS 256
#define MP_SCAN_ITEMS 8
#define MP_SCAN_TILE (MP_SCAN_THREADS * MP_SCAN_ITEMS)

struct MergePathParams {
  const unsigned long long* ak[4];
  const unsigned long long* bk[4];
  long long na, nb;
  int nkeys;
  int upper;  // 0: ties from A first (lo), 1: ties from B first (hi)
  int first;  // counts capped at 1 (semi / anti without a residual)
  int pad;
  long long* corank;  // tiles + 1 co-ranks (rows of A before each cut)
  int* lo;
  long long* counts;
};

// takes_a: in the merge, A's row i comes before B's row j.
__device__ __forceinline__ bool takes_a(const MergePathParams& p, long long i, long long j) {
  for (int k = 0; k < p.nkeys; k++) {
    unsigned long long a = __ldg(p.ak[k] + i), b = __ldg(p.bk[k] + j);
    if (a != b) return a < b;
  }
  return !p.upper;
}

extern "C" __global__ void mpj_partition(MergePathParams p) {
  long long total = p.na + p.nb, cuts = (total + MP_NV - 1) / MP_NV + 1;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < cuts; c += (long long)gridDim.x * blockDim.x) {
    long long d = min(c * MP_NV, total);
    long long lo = max(0LL, d - p.nb), hi = min(d, p.na);
    while (lo < hi) {
      long long mid = (lo + hi) >> 1;
      if (takes_a(p, mid, d - 1 - mid)) lo = mid + 1; else hi = mid;
    }
    p.corank[c] = lo;
  }
}

// Shared layout of mpj_search: key k of the tile's A rows at
// sh[k * MP_NV + i], of its B rows at sh[k * MP_NV + na + j].
__device__ __forceinline__ bool tile_takes_a(const unsigned long long* sh, int nkeys, int upper, int na, int i, int j) {
  for (int k = 0; k < nkeys; k++) {
    unsigned long long a = sh[k * MP_NV + i], b = sh[k * MP_NV + na + j];
    if (a != b) return a < b;
  }
  return !upper;
}

extern "C" __global__ void mpj_search(MergePathParams p) {
  extern __shared__ unsigned long long sh[];
  long long total = p.na + p.nb;
  long long d0 = (long long)blockIdx.x * MP_NV, d1 = min(d0 + MP_NV, total);
  long long a0 = p.corank[blockIdx.x], a1 = p.corank[blockIdx.x + 1];
  long long b0 = d0 - a0, b1 = d1 - a1;
  int na = (int)(a1 - a0), nb = (int)(b1 - b0), n = na + nb;
  for (int x = threadIdx.x; x < n; x += MP_THREADS)
    for (int k = 0; k < p.nkeys; k++)
      sh[k * MP_NV + x] = x < na ? __ldg(p.ak[k] + a0 + x) : __ldg(p.bk[k] + b0 + x - na);
  __syncthreads();
  int d = min((int)threadIdx.x * MP_ITEMS, n);
  int lo = max(0, d - nb), hi = min(d, na);
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (tile_takes_a(sh, p.nkeys, p.upper, na, mid, d - 1 - mid)) lo = mid + 1; else hi = mid;
  }
  int i = lo, j = d - lo;
  for (int s = 0; s < MP_ITEMS && d + s < n; s++) {
    bool a = j >= nb || (i < na && tile_takes_a(sh, p.nkeys, p.upper, na, i, j));
    if (!a) {
      j++;
      continue;
    }
    long long row = a0 + i, bound = b0 + j;
    if (!p.upper) {
      p.lo[row] = (int)bound;
    } else {
      long long c = bound - p.lo[row];
      p.counts[row] = p.first ? min(c, 1LL) : c;
    }
    i++;
  }
}

// block_scan_exclusive: the exclusive prefix sum of v over the block's
// MP_SCAN_THREADS threads, and the block's total in *total.
__device__ __forceinline__ long long block_scan_exclusive(long long v, long long* tmp, long long* total) {
  int t = threadIdx.x;
  tmp[t] = v;
  __syncthreads();
  for (int off = 1; off < MP_SCAN_THREADS; off <<= 1) {
    long long u = t >= off ? tmp[t - off] : 0;
    __syncthreads();
    tmp[t] += u;
    __syncthreads();
  }
  long long incl = tmp[t];
  *total = tmp[MP_SCAN_THREADS - 1];
  __syncthreads();
  return incl - v;
}

struct ScanParams {
  long long* a;
  long long n;
  long long* sums;  // one per tile
};

extern "C" __global__ void mpj_scan_tiles(ScanParams p) {
  __shared__ long long tmp[MP_SCAN_THREADS];
  long long base = (long long)blockIdx.x * MP_SCAN_TILE, s = 0;
  for (int k = 0; k < MP_SCAN_ITEMS; k++) {
    long long i = base + k * MP_SCAN_THREADS + threadIdx.x;
    if (i < p.n) s += p.a[i];
  }
  long long tot;
  block_scan_exclusive(s, tmp, &tot);
  if (threadIdx.x == 0) p.sums[blockIdx.x] = tot;
}

// mpj_scan_apply: sums holds each tile's base (scanned); the tile is loaded
// coalesced into shared memory, each thread scans MP_SCAN_ITEMS consecutive
// values, and the result is stored coalesced.
extern "C" __global__ void mpj_scan_apply(ScanParams p) {
  __shared__ long long v[MP_SCAN_TILE];
  __shared__ long long tmp[MP_SCAN_THREADS];
  long long base = (long long)blockIdx.x * MP_SCAN_TILE;
  for (int k = 0; k < MP_SCAN_ITEMS; k++) {
    int x = k * MP_SCAN_THREADS + threadIdx.x;
    v[x] = base + x < p.n ? p.a[base + x] : 0;
  }
  __syncthreads();
  long long s = 0;
  for (int k = 0; k < MP_SCAN_ITEMS; k++) s += v[threadIdx.x * MP_SCAN_ITEMS + k];
  long long tot;
  long long run = block_scan_exclusive(s, tmp, &tot) + p.sums[blockIdx.x];
  for (int k = 0; k < MP_SCAN_ITEMS; k++) {
    int x = threadIdx.x * MP_SCAN_ITEMS + k;
    long long u = v[x];
    v[x] = run;
    run += u;
  }
  __syncthreads();
  for (int k = 0; k < MP_SCAN_ITEMS; k++) {
    int x = k * MP_SCAN_THREADS + threadIdx.x;
    if (base + x < p.n) p.a[base + x] = v[x];
  }
}

struct ExpandParams {
  long long m;                // outputs
  long long na;               // left rows
  const long long* offsets;   // exclusive scan of the counts, na entries
  const int* lo;              // first partner (index into rperm) per left row
  const int* lperm;           // row id of each sorted position (null: the position)
  const int* rperm;
  long long* corank;          // tiles + 1 co-ranks (outputs before each cut)
  int* outL;
  int* outR;
};

extern "C" __global__ void mpj_expand_partition(ExpandParams p) {
  long long total = p.m + p.na, cuts = (total + MP_NV - 1) / MP_NV + 1;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < cuts; c += (long long)gridDim.x * blockDim.x) {
    long long d = min(c * MP_NV, total);
    long long lo = max(0LL, d - p.na), hi = min(d, p.m);
    while (lo < hi) {  // output mid comes before row d-1-mid iff mid < offsets[row]
      long long mid = (lo + hi) >> 1;
      if (mid < __ldg(p.offsets + d - 1 - mid)) lo = mid + 1; else hi = mid;
    }
    p.corank[c] = lo;
  }
}

extern "C" __global__ void mpj_expand(ExpandParams p) {
  __shared__ long long off[MP_NV + 1];  // off[x] = offsets[b0 - 1 + x]
  __shared__ int rowOf[MP_NV];          // left row of output a0 + i
  long long total = p.m + p.na;
  long long d0 = (long long)blockIdx.x * MP_NV, d1 = min(d0 + MP_NV, total);
  long long a0 = p.corank[blockIdx.x], a1 = p.corank[blockIdx.x + 1];
  long long b0 = d0 - a0, b1 = d1 - a1;
  int na = (int)(a1 - a0), nb = (int)(b1 - b0), n = na + nb;
  for (int x = threadIdx.x; x <= nb; x += MP_THREADS)
    off[x] = b0 - 1 + x >= 0 ? __ldg(p.offsets + b0 - 1 + x) : 0;
  __syncthreads();
  int d = min((int)threadIdx.x * MP_ITEMS, n);
  int lo = max(0, d - nb), hi = min(d, na);
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (a0 + mid < off[d - mid]) lo = mid + 1; else hi = mid;  // off[d-mid] = row d-1-mid
  }
  int i = lo, j = d - lo;
  for (int s = 0; s < MP_ITEMS && d + s < n; s++) {
    if (j >= nb || (i < na && a0 + i < off[j + 1])) {
      rowOf[i] = j;  // b0 + j - 1: the last row whose offset is <= a0 + i
      i++;
    } else {
      j++;
    }
  }
  __syncthreads();
  for (int x = threadIdx.x; x < na; x += MP_THREADS) {
    int jr = rowOf[x];
    long long row = b0 - 1 + jr, k = a0 + x;
    long long pos = __ldg(p.lo + row) + (k - off[jr]);
    p.outL[k] = p.lperm ? __ldg(p.lperm + row) : (int)row;  // null: a side in row order
    p.outR[k] = p.rperm ? __ldg(p.rperm + pos) : (int)pos;
  }
}

// mpj_param_sizes: the byte sizes of this file's parameter structs, for exec/gpu's layout test.
extern "C" __global__ void mpj_param_sizes(long long* out) {
  out[0] = sizeof(MergePathParams);
  out[1] = sizeof(ScanParams);
  out[2] = sizeof(ExpandParams);
}
