// set_op_sort: the sort-based skeletons of DISTINCT and the set operations
// (Diamos et al., "Relational Algorithms for Multi-Bulk-Synchronous
// Processors": partition, compute, gather), the device half of
// exec/gpu/set_op_sort.go. The rows are first sorted by every column
// (kernels/sort.cu's radix sort, stable, so equal rows keep their input
// order); then
//
//   setop_canon   copies a DOUBLE column with -0 folded into 0 and every
//                 NaN into one NaN, so that the sort puts rows the CPU
//                 executor calls equal (exec/cpu/keys.go's floatKey) next
//                 to each other. Reads 8 B, writes 8 B per row.
//   setop_heads   flags sorted position p when its row differs from the
//                 row at p-1 (adjacent difference; NULLs equal each other,
//                 doubles compared as numbers with NaN = NaN, strings by
//                 code on one dictionary): the heads of the runs of equal
//                 rows. Reads 4 B of permutation and 2 rows of K gathered
//                 values per position (random reads unless the input was
//                 sorted already), writes 1 B.
//   setop_keep    (INTERSECT / EXCEPT, [ALL]) for each sorted position of
//                 the concatenation left ++ right, finds its run among the
//                 run starts by binary search, counts the run's left rows
//                 (its permutation is increasing inside a run, because the
//                 sort is stable and left rows come first, so one binary
//                 search for nLeft), and flags the position when the
//                 operation keeps it: the run's j-th row is a left row kept
//                 when j < min(a, b) (INTERSECT ALL), b <= j < a (EXCEPT
//                 ALL), or j = 0 and a > 0 with b > 0 (INTERSECT) / b = 0
//                 (EXCEPT), a and b the run's left and right counts. So the
//                 rows kept are the first of their run in input order, as
//                 the CPU executor keeps them. Reads 4 B and
//                 O(log runs + log run length) cached words, writes 1 B.
//
// The flags are compacted by kernels/select.cu (block counts, a device
// scan, scatter) and mapped through the permutation by map_index
// (group_by.cu); only the number of kept rows crosses to the host.
//
// Launch: grid-stride, 256 threads per block. Bound: device-memory
// bandwidth for the canon and keep passes; setop_heads on an unsorted
// input by its gathered reads (32 B sectors per value).
#include "common.cuh"

#define SETOP_MAX_COLS 8

extern "C" __global__ void setop_canon(Col in, long long n, double* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double d = __ldg((const double*)in.data + i);
    if (d == 0.0) d = 0.0;
    if (d != d) d = __longlong_as_double(0x7ff8000000000001LL);
    out[i] = d;
  }
}

struct HeadsParams {
  Col cols[SETOP_MAX_COLS];
  int ncols;
  int pad;
  const int* perm;  // null: the rows are in sorted order already
  long long n;
  unsigned char* flags;
};

__device__ __forceinline__ bool same_value(const Col& c, long long a, long long b) {
  bool va = isvalid(c, a), vb = isvalid(c, b);
  if (va != vb) return false;
  if (!va) return true;
  if (c.isFloat) {
    double x = __ldg((const double*)c.data + a), y = __ldg((const double*)c.data + b);
    return x == y || (x != x && y != y);
  }
  return ldi(c, a) == ldi(c, b);
}

extern "C" __global__ void setop_heads(HeadsParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    unsigned char head = 1;
    if (i > 0) {
      long long a = p.perm ? __ldg(p.perm + i) : i;
      long long b = p.perm ? __ldg(p.perm + i - 1) : i - 1;
      head = 0;
      for (int k = 0; k < p.ncols && !head; k++) head = !same_value(p.cols[k], a, b);
    }
    p.flags[i] = head;
  }
}

struct KeepParams {
  const int* perm;
  long long n;
  long long nLeft;
  const int* starts;  // the sorted positions of the run heads
  long long runs;
  unsigned char* flags;
  int except;  // 0: INTERSECT, 1: EXCEPT
  int all;
};

// first_at_least is the first index in [lo, hi) of the increasing a whose
// value is at least v (hi when none is).
__device__ __forceinline__ long long first_at_least(const int* a, long long lo, long long hi, long long v) {
  while (lo < hi) {
    long long mid = lo + (hi - lo) / 2;
    if (__ldg(a + mid) < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

extern "C" __global__ void setop_keep(KeepParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    long long run = first_at_least(p.starts, 0, p.runs, i + 1) - 1;
    long long s = __ldg(p.starts + run);
    long long e = run + 1 < p.runs ? __ldg(p.starts + run + 1) : p.n;
    long long a = first_at_least(p.perm, s, e, p.nLeft) - s;
    long long b = (e - s) - a;
    long long j = i - s;
    bool keep;
    if (p.all)
      keep = p.except ? (j >= b && j < a) : (j < a && j < b);
    else
      keep = j == 0 && a > 0 && (p.except ? b == 0 : b > 0);
    p.flags[i] = keep;
  }
}

// set_op_sort_param_sizes: the byte sizes of this file's parameter structs,
// for exec/gpu's layout test.
extern "C" __global__ void set_op_sort_param_sizes(long long* out) {
  out[0] = sizeof(HeadsParams);
  out[1] = sizeof(KeepParams);
}

// setop_digit_masks: for each of ncols columns, the AND and OR of its
// values' sort encoding (as sort.cu's sort_encode writes them, over every
// row) and of its validity flags, so that the host learns in one copy
// which radix passes of all the keys can be skipped (sort.go's sortPerm
// reads one mask back per key instead). masks[4c..4c+3]: value AND, value
// OR, flag AND, flag OR; the host sets the ANDs to ~0 and the ORs to 0.
// Reads each column once (8 B a row), grid-stride.
__device__ __forceinline__ unsigned long long sort_encoding(const Col& c, long long r) {
  if (c.isFloat) {
    double d = __ldg((const double*)c.data + r);
    if (d == 0.0) d = 0.0;
    unsigned long long b = (unsigned long long)__double_as_longlong(d);
    return (b >> 63) ? ~b : (b | 0x8000000000000000ULL);
  }
  return (unsigned long long)ldi(c, r) ^ 0x8000000000000000ULL;
}

struct MaskParams {
  Col cols[SETOP_MAX_COLS];
  int ncols;
  int pad;
  long long n;
  unsigned long long* masks;
};

extern "C" __global__ void setop_digit_masks(MaskParams p) {
  for (int c = 0; c < p.ncols; c++) {
    unsigned long long va = ~0ULL, vo = 0, fa = ~0ULL, fo = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
      bool ok = isvalid(p.cols[c], i);
      unsigned long long k = ok ? sort_encoding(p.cols[c], i) : 0;
      va &= k;
      vo |= k;
      fa &= ok;
      fo |= ok;
    }
    for (int s = 16; s > 0; s >>= 1) {
      va &= __shfl_xor_sync(0xffffffffu, va, s);
      vo |= __shfl_xor_sync(0xffffffffu, vo, s);
      fa &= __shfl_xor_sync(0xffffffffu, fa, s);
      fo |= __shfl_xor_sync(0xffffffffu, fo, s);
    }
    if ((threadIdx.x & 31) == 0) {
      atomicAnd(p.masks + 4 * c, va);
      atomicOr(p.masks + 4 * c + 1, vo);
      atomicAnd(p.masks + 4 * c + 2, fa);
      atomicOr(p.masks + 4 * c + 3, fo);
    }
  }
}

// set_op_sort_mask_size: sizeof(MaskParams), for exec/gpu's layout test.
extern "C" __global__ void set_op_sort_mask_size(long long* out) { *out = sizeof(MaskParams); }

// setop_mark: flags[rows[j]] = 1 for j < m (flags zeroed by the host), so
// that compacting the flags lists the kept rows in input order, the order
// the CPU executor returns them in. Reads 4 B, writes 1 B (scattered) per
// kept row.
extern "C" __global__ void setop_mark(const int* rows, long long m, unsigned char* flags) {
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += (long long)gridDim.x * blockDim.x)
    flags[__ldg(rows + j)] = 1;
}
