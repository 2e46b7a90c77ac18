// sort: the encoding half of Sort, TopN and SortMergeJoin's LSD radix sort
// of (normalized key, row id) pairs (exec/gpu/sort.go, radix_sort.go; the
// passes are kernels/radix_sort.cu). A multi-column ORDER BY sorts by its
// least significant key first; each key is one value sort and, when the
// column has NULLs, one NULL-flag sort after it (the flag is the more
// significant), every one stable, so the permutation ends ordered by all
// keys.
//
//   sort_iota          perm[i] = i. Writes 4 B per row.
//   sort_encode        keys[i] = an order-preserving uint64 of the key at row
//                      perm[i] (integers: sign bit flipped; doubles: sign bit
//                      flipped for positives, every bit for negatives, -0
//                      taken as 0; DESC: complemented; NULL-flag pass: 0/1
//                      so NULLs come first ascending, last descending), and
//                      the minimum and maximum of all keys, so that the
//                      radix passes visit only the digits of key - minimum
//                      that the range spans (dictionary codes and small
//                      integers need one to three passes, not eight).
//                      Reads 4 B + one gathered value, writes 8 B.
//   scan_exclusive_i64 one block of 1024 threads scans a short array in
//                      place (the tile sums of the device-wide scans).
//   sort_count_valid   how many rows have every (join) key non-NULL.
//
// Launch: 256 threads per block, grid-stride. Bound: memory bandwidth
// (sort_encode's gather is random when perm is not the identity).
#include "common.cuh"


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
  unsigned long long* minMax;  // [0] minimum (host sets ~0), [1] maximum (host sets 0)
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
  unsigned long long a = ~0ULL, o = 0;  // minimum, maximum
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
    a = min(a, k);
    o = max(o, k);
  }
  for (int s = 16; s > 0; s >>= 1) {
    a = min(a, __shfl_xor_sync(0xffffffffu, a, s));
    o = max(o, __shfl_xor_sync(0xffffffffu, o, s));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(p.minMax, a);
    atomicMax(p.minMax + 1, o);
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
  out[1] = sizeof(CountValidParams);
}
