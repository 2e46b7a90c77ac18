// merge_join: the earlier join stage of SortMergeJoin, one thread per left
// row, kept as `bench join`'s "merge-search" baseline for the merge-path
// stage that replaced it (merge_path_join.cu, exec/gpu/merge_path.go). It
// runs after both inputs are sorted (kernels/sort.cu) on their keys, NULL
// keys last and cut off. Keys arrive as up to 4 order-preserving uint64 arrays
// per side, already in sorted order, so the merge compares words.
//
//   merge_count  per sorted left row, the run [lo, hi) of equal right rows,
//                found by two binary searches over the sorted right keys
//                (each left row locates its own diagonal of the merge
//                path, Diamos et al.'s partition step at the finest grain);
//                counts[i] = hi - lo (1 at most for semi/anti joins without
//                a residual, where one partner decides). The host scans the
//                counts (scan_exclusive_i64) into output offsets.
//   merge_write  writes the (left row, right row) pairs of each run at the
//                left row's offset, as original row ids (lperm/rperm).
//
// Launch: grid-stride, 256 threads per block. Per left row: 2 log2(nr)
// dependent 8 B loads per key (the upper levels stay in L2), then 8 B per
// pair written. Bound: load latency of the searches for small runs, write
// bandwidth for large ones; a single huge run (heavy skew) is written by one
// thread.
#include "common.cuh"

struct MergeParams {
  const unsigned long long* lk[4];
  const unsigned long long* rk[4];
  long long nl, nr;
  int nkeys;
  int first;
  const int* lperm;
  const int* rperm;
  int* lo;
  int* hi;
  long long* counts;
  int* outL;
  int* outR;
};

extern "C" __global__ void merge_params_size(long long* out) { *out = sizeof(MergeParams); }

// cmp_lr compares left row i with right row j.
__device__ __forceinline__ int cmp_lr(const MergeParams& p, long long i, long long j) {
  for (int k = 0; k < p.nkeys; k++) {
    unsigned long long a = __ldg(p.lk[k] + i), b = __ldg(p.rk[k] + j);
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

extern "C" __global__ void merge_count(MergeParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.nl; i += (long long)gridDim.x * blockDim.x) {
    long long a = 0, b = p.nr;  // first right row not below left row i
    while (a < b) {
      long long m = (a + b) >> 1;
      if (cmp_lr(p, i, m) > 0) a = m + 1; else b = m;
    }
    long long lo = a;
    b = p.nr;  // first right row above left row i
    while (a < b) {
      long long m = (a + b) >> 1;
      if (cmp_lr(p, i, m) >= 0) a = m + 1; else b = m;
    }
    long long hi = a;
    if (p.first && hi > lo) hi = lo + 1;
    p.lo[i] = (int)lo;
    p.hi[i] = (int)hi;
    p.counts[i] = hi - lo;
  }
}

extern "C" __global__ void merge_write(MergeParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.nl; i += (long long)gridDim.x * blockDim.x) {
    long long o = p.counts[i];
    int l = p.lperm ? __ldg(p.lperm + i) : (int)i;  // null perms: sides in row order
    for (int j = p.lo[i]; j < p.hi[i]; j++, o++) {
      p.outL[o] = l;
      p.outR[o] = p.rperm ? __ldg(p.rperm + j) : (int)j;
    }
  }
}
