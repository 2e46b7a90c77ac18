// group_by: hash group-by for keys that are not small dense ranges (any
// number of key columns of any type, NULL a group of its own), DISTINCT,
// COUNT(DISTINCT) and set operations, on the materializing executor.
//
//   group_insert  finds each row's group in a global open-addressing table
//                 of representative row numbers (linear probing; an empty
//                 slot is claimed with one CAS, and a claimed slot never
//                 changes, so comparing against its row is race-free). Keys
//                 are 8-byte normalized vectors with validity; two rows are
//                 one group when every key is NULL in both or equal in both.
//   group_first   flags the representative row of each group.
//   scatter_index / map_index turn slots into dense group ids.
//   group_agg     folds one aggregate per row into its group's 8-byte
//                 accumulator with atomics (common.cuh's agg_combine),
//                 optionally only at flagged rows (DISTINCT arguments);
//                 group_agg_one the same for a single group, by register
//                 and warp partials (one atomic a warp).
//
// Launch: grid-stride, 256 threads per block. Per row: K key loads, a probe
// of ~1.5 slots at load factor 1/2 plus one row compare per visited slot,
// one atomic per aggregate. Bound: atomics on hot groups (few groups) or
// random access into the table (many groups).
#include "common.cuh"

#define MAX_GKEYS 8

struct GroupParams {
  long long n;
  int nkeys;
  int pad;
  Col keys[MAX_GKEYS];
  int* slots;
  long long mask;
  int* groupOf;
};

extern "C" __global__ void group_params_size(long long* out) { *out = sizeof(GroupParams); }

// gkey is row i's key word. Doubles are their bits with -0 folded into 0
// and every NaN into one, as the CPU executor's keys (exec/cpu/keys.go).
__device__ __forceinline__ long long gkey(const Col& c, long long i) {
  if (c.width == 4) return (long long)__ldg((const int*)c.data + i);
  long long v = __ldg((const long long*)c.data + i);
  if (c.isFloat) {
    double d = __longlong_as_double(v);
    if (d == 0.0) return 0;
    if (d != d) return 0x7ff8000000000001LL;
  }
  return v;
}

__device__ __forceinline__ bool rows_equal(const GroupParams& p, long long a, long long b) {
  for (int k = 0; k < p.nkeys; k++) {
    bool va = isvalid(p.keys[k], a), vb = isvalid(p.keys[k], b);
    if (va != vb) return false;
    if (va && gkey(p.keys[k], a) != gkey(p.keys[k], b)) return false;
  }
  return true;
}

extern "C" __global__ void group_insert(const GroupParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    unsigned long long h = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < p.nkeys; k++) {
      long long v = isvalid(p.keys[k], i) ? gkey(p.keys[k], i) : (long long)0x7ff8dead00000000LL;
      h = hash64((long long)(h ^ (unsigned long long)v) + k);
    }
    long long s = h & p.mask;
    for (;;) {
      int cur = ((volatile int*)p.slots)[s];
      if (cur < 0) {
        cur = atomicCAS(p.slots + s, -1, (int)i);
        if (cur < 0) {
          p.groupOf[i] = (int)s;
          break;
        }
      }
      if (rows_equal(p, cur, i)) {
        p.groupOf[i] = (int)s;
        break;
      }
      s = (s + 1) & p.mask;
    }
  }
}

extern "C" __global__ void group_first(long long n, const int* groupOf, const int* slots, unsigned char* flags) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    flags[i] = slots[groupOf[i]] == (int)i;
}

// scatter_index: out[list[j]] = j.
extern "C" __global__ void scatter_index(const int* list, long long m, int* out) {
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += (long long)gridDim.x * blockDim.x)
    out[list[j]] = (int)j;
}

// map_index: out[i] = table[in[i]].
extern "C" __global__ void map_index(const int* in, long long n, const int* table, int* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = table[in[i]];
}

struct GroupAggParams {
  long long n;
  const int* gid;
  const unsigned char* only;  // nullptr: every row
  Agg a;
  unsigned long long* acc;
};

extern "C" __global__ void group_agg_params_size(long long* out) { *out = sizeof(GroupAggParams); }

extern "C" __global__ void group_agg(const GroupAggParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    if (p.only && !p.only[i]) continue;
    unsigned long long v;
    if (!agg_value(p.a, i, &v)) continue;
    agg_combine(p.a, p.acc + p.gid[i], v);
  }
}

// group_agg_one: group_agg for one group (an aggregate without GROUP BY,
// over a join or a filter): every row would hit the same accumulator, and
// same-address atomics serialize at one L2 slice (~20 ms for 32 M rows), so
// each thread folds its rows in a register (agg_fold), the warp combines
// the 32 partials by shuffles, and one agg_combine a warp reaches the
// accumulator. A SUM's partials are checked as the atomics' are: a partial
// total that wraps flags the query. Per row: the argument's columns, no
// atomic. Bound: device memory bandwidth.
extern "C" __global__ void __launch_bounds__(256) group_agg_one(const GroupAggParams p) {
  unsigned long long acc = agg_identity(p.a);
  int any = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    if (p.only && !p.only[i]) continue;
    unsigned long long v;
    if (!agg_value(p.a, i, &v)) continue;
    acc = any ? agg_fold(p.a, acc, v) : v;
    any = 1;
  }
  for (int off = 16; off > 0; off >>= 1) {
    const unsigned long long o = __shfl_down_sync(0xffffffffu, acc, off);
    const int oany = __shfl_down_sync(0xffffffffu, any, off);
    if (oany) acc = any ? agg_fold(p.a, acc, o) : o;
    any |= oany;
  }
  if ((threadIdx.x & 31) == 0 && any) agg_combine(p.a, p.acc, acc);
}

// concat_cols: out = a's na rows then b's nb rows, as 8-byte values (4-byte
// inputs sign-extended) with validity, for UNION and the other set
// operations.
extern "C" __global__ void concat_cols(long long na, long long nb, Col a, Col b, long long* out, unsigned int* outValid) {
  const long long m = na + nb, m32 = (m + 31) & ~31LL;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m32; i += (long long)gridDim.x * blockDim.x) {
    bool v = false;
    if (i < m) {
      const Col& c = i < na ? a : b;
      long long r = i < na ? i : i - na;
      v = isvalid(c, r);
      out[i] = v ? (c.width == 4 ? (long long)__ldg((const int*)c.data + r) : __ldg((const long long*)c.data + r)) : 0;
    }
    unsigned int bits = __ballot_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) outValid[i >> 5] = bits;
  }
}
