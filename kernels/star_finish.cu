// star_finish: the star pipeline's last stage on the device
// (exec/gpu/star_finish.go). From the group table (dense: every slot, word
// 0 its row count; or compacted: the non-empty slots in slot order, each
// row its slot index and then its words) it writes the aggregate's output
// columns as the host result holds them: each GROUP BY key's value from
// its digit of the slot, each aggregate from its word, the validity
// bitmaps, and, when the plan's sort is given, the rows in its order. The
// host then copies columns instead of decoding and sorting the groups,
// which on a GPU machine's host took tens of microseconds a query (a few
// hundred groups, but a walk of digits, rank lookups, typed stores and a
// radix sort), against a few microseconds here.
//
// Launch: one block of 64 to FIN_THREADS threads (a power of two, about
// the groups' bound: barriers of fewer warps cost less), up to
// FIN_MAX_ROWS groups;
// with more it writes only the count and FIN_OVERFLOW, and the host
// decodes the table itself. Stages: collect the non-empty rows into
// shared memory (a ballot scan per block of slots); when sorting, pack
// each row's sort keys into one 64-bit word whose unsigned order is the
// sort's (fields sized by the keys' block min/max, a NULL as code 0: first
// ascending, last descending, as MySQL), the row number in the low bits,
// and bitonic-sort the words in shared memory (FIN_UNSORTED when the
// fields do not fit: the host sorts); then each warp writes 32 rows of
// every column and one 32-bit word of each bitmap. Bound: its barriers
// (a few dozen) and one launch, not bytes (a few tens of KB).
#include "common.cuh"

#define FIN_THREADS 1024
#define FIN_MAX_ROWS 2048
#define FIN_MAX_COLS 12
#define FIN_MAX_TAB 192
#define FIN_MAX_SORT 4

#define FIN_KEY_TAB 0        // value = tab[digit] (NULL where tabNull says)
#define FIN_KEY_FACT 1       // value = digit + lo (NULL at nullDigit)
#define FIN_AGG_INT 2        // an integer word
#define FIN_AGG_FLOAT 3      // a double's bits
#define FIN_AGG_INT_AS_FLOAT 4  // an integer word into a DOUBLE column

#define FIN_OVERFLOW 1ULL
#define FIN_UNSORTED 2ULL

struct FinCol {
  long long out;        // byte offset of its values in the output
  long long valid;      // byte offset of its validity bitmap; -1: none
  long long stride;     // key: digit = slot / stride % size
  long long size;
  long long lo;         // fact key: value = digit + lo
  long long nullDigit;  // fact key: the digit of NULL; -1: none
  int kind;
  int width;  // bytes a value: 4 or 8
  int tab;    // FIN_KEY_TAB: its first table entry
  int word;   // aggregate: its word among the group's words
  int cnt;    // aggregate: the word whose 0 makes it NULL; -1: never NULL
  int pad;
};

struct FinSortKey {
  int col;
  int desc;
};

struct FinParams {
  const unsigned long long* table;  // dense: ngroups × width words; compact: rows of width + 1
  const long long* count;           // compact: its number of rows; dense: null
  unsigned long long* out;          // [0] rows, [1] flags, then the columns
  long long ngroups;
  long long width;
  int compact, ncols, nsort, reverse;
  FinCol cols[FIN_MAX_COLS];
  FinSortKey sort[FIN_MAX_SORT];
  long long tab[FIN_MAX_TAB];
  unsigned long long tabNull[FIN_MAX_TAB / 64];
};

extern "C" __global__ void star_finish_params_size(long long* out) { *out = sizeof(FinParams); }

// fin_value is column c's value for the group at slot with words w, and
// whether it is not NULL.
__device__ __forceinline__ long long fin_value(const FinParams& p, const FinCol& c, long long slot,
                                               const unsigned long long* w, bool* valid) {
  *valid = true;
  switch (c.kind) {
    case FIN_KEY_TAB: {
      long long d = slot / c.stride % c.size;
      int e = c.tab + (int)d;
      if ((p.tabNull[e >> 6] >> (e & 63)) & 1ULL) {
        *valid = false;
        return 0;
      }
      return p.tab[e];
    }
    case FIN_KEY_FACT: {
      long long d = slot / c.stride % c.size;
      if (d == c.nullDigit) {
        *valid = false;
        return 0;
      }
      return d + c.lo;
    }
    default:
      if (c.cnt >= 0 && w[c.cnt] == 0ULL) *valid = false;
      return (long long)w[c.word];
  }
}

// fin_collect gathers the non-empty groups' slots and word offsets into
// shared memory in slot order and returns their number (more than
// FIN_MAX_ROWS: too many, the rest not kept).
__device__ int fin_collect(const FinParams& p, long long* slots, int* bases, int* warpSums) {
  __shared__ int n;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5, nt = blockDim.x, nw = nt >> 5;
  const long long rows = p.compact ? *p.count : p.ngroups;
  if (t == 0) n = 0;
  __syncthreads();
  if (p.compact && rows > FIN_MAX_ROWS) return (int)min(rows, (long long)FIN_MAX_ROWS + 1);
  for (long long r0 = 0; r0 < rows; r0 += nt) {
    const long long r = r0 + t;
    bool live = false;
    long long slot = 0, base = 0;
    if (r < rows) {
      if (p.compact) {
        base = r * (p.width + 1);
        slot = (long long)p.table[base];
        base++;
        live = true;
      } else {
        base = r * p.width;
        slot = r;
        live = p.table[base] != 0ULL;
      }
    }
    const unsigned mask = __ballot_sync(0xffffffffu, live);
    if (lane == 0) warpSums[warp] = __popc(mask);
    __syncthreads();
    if (warp == 0) {
      int v = lane < nw ? warpSums[lane] : 0;
      for (int off = 1; off < 32; off <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += u;
      }
      warpSums[lane] = v;  // inclusive
    }
    __syncthreads();
    const int at = n + (warp > 0 ? warpSums[warp - 1] : 0) + __popc(mask & ((1u << lane) - 1u));
    if (live && at < FIN_MAX_ROWS) {
      slots[at] = slot;
      bases[at] = (int)base;
    }
    const int total = warpSums[nw - 1];
    __syncthreads();
    if (t == 0) n += total;
    __syncthreads();
    if (n > FIN_MAX_ROWS) break;
  }
  return n;
}

// fin_sort orders keys[0, n) (each row's packed sort keys over its row
// number) and returns false when the keys do not fit one word.
__device__ bool fin_sort(const FinParams& p, const long long* slots, const int* bases, int n,
                         unsigned long long* keys) {
  __shared__ long long lo[FIN_MAX_SORT], hi[FIN_MAX_SORT];
  __shared__ int anyNull[FIN_MAX_SORT], bits[FIN_MAX_SORT], fits;
  const int t = threadIdx.x, nt = blockDim.x;
  if (t < p.nsort) {
    lo[t] = 0x7fffffffffffffffLL;
    hi[t] = (long long)0x8000000000000000LL;
    anyNull[t] = 0;
  }
  __syncthreads();
  for (int i = t; i < n; i += nt) {
    for (int s = 0; s < p.nsort; s++) {
      bool ok;
      long long v = fin_value(p, p.cols[p.sort[s].col], slots[i], p.table + bases[i], &ok);
      if (ok) {
        atomicMin(&lo[s], v);
        atomicMax(&hi[s], v);
      } else {
        anyNull[s] = 1;
      }
    }
  }
  __syncthreads();
  if (t == 0) {
    int total = 32 - __clz(n);  // the row number's bits
    for (int s = 0; s < p.nsort; s++) {
      unsigned long long span = hi[s] < lo[s] ? 0ULL : (unsigned long long)hi[s] - (unsigned long long)lo[s];
      if (anyNull[s]) span++;  // wraps to 0 only for a full 64-bit range, which cannot fit anyway
      bits[s] = span == 0ULL ? (anyNull[s] && hi[s] >= lo[s] ? 64 : 0) : 64 - __clzll((long long)span);
      total += bits[s];
    }
    fits = total <= 64;
  }
  __syncthreads();
  if (!fits) return false;
  const int rowBits = 32 - __clz(n);
  int npad = 1;
  while (npad < n) npad <<= 1;
  for (int i = t; i < npad; i += nt) {
    if (i >= n) {
      keys[i] = ~0ULL;
      continue;
    }
    unsigned long long k = 0;
    for (int s = 0; s < p.nsort; s++) {
      if (bits[s] == 0) continue;
      bool ok;
      long long v = fin_value(p, p.cols[p.sort[s].col], slots[i], p.table + bases[i], &ok);
      unsigned long long code = ok ? (unsigned long long)v - (unsigned long long)lo[s] + (anyNull[s] ? 1ULL : 0ULL) : 0ULL;
      if (p.sort[s].desc) code ^= bits[s] == 64 ? ~0ULL : (1ULL << bits[s]) - 1ULL;
      k = (bits[s] == 64 ? 0ULL : k << bits[s]) | code;
    }
    keys[i] = (rowBits == 64 ? 0ULL : k << rowBits) | (unsigned long long)i;
  }
  __syncthreads();
  for (int k = 2; k <= npad; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = t; i < npad; i += nt) {
        const int ixj = i ^ j;
        if (ixj > i) {
          const unsigned long long a = keys[i], b = keys[ixj];
          if ((a > b) == ((i & k) == 0)) {
            keys[i] = b;
            keys[ixj] = a;
          }
        }
      }
      __syncthreads();
    }
  }
  return true;
}

extern "C" __global__ void __launch_bounds__(FIN_THREADS) star_finish(const FinParams p) {
  __shared__ long long slots[FIN_MAX_ROWS];
  __shared__ int bases[FIN_MAX_ROWS];
  __shared__ unsigned long long keys[FIN_MAX_ROWS];
  __shared__ int warpSums[32];
  const int t = threadIdx.x, lane = t & 31;
  const int n = fin_collect(p, slots, bases, warpSums);
  if (n > FIN_MAX_ROWS) {
    if (t == 0) {
      p.out[0] = p.compact ? (unsigned long long)*p.count : (unsigned long long)n;
      p.out[1] = FIN_OVERFLOW;
    }
    return;
  }
  bool sorted = false;
  if (p.nsort > 0 && n > 1) {
    sorted = fin_sort(p, slots, bases, n, keys);
  }
  if (t == 0) {
    p.out[0] = (unsigned long long)n;
    p.out[1] = p.nsort > 0 && n > 1 && !sorted ? FIN_UNSORTED : 0ULL;
  }
  const int rowBits = 32 - __clz(n);
  const unsigned long long rowMask = (1ULL << rowBits) - 1ULL;
  char* out = (char*)p.out;
  // Each warp writes 32 consecutive rows, so that one ballot is one bitmap word.
  for (int i0 = (t >> 5) * 32; i0 < n; i0 += blockDim.x) {
    const int i = i0 + lane;
    const bool in = i < n;
    int r = 0;
    if (in) {
      r = sorted ? (int)(keys[i] & rowMask) : (p.reverse ? n - 1 - i : i);
    }
    const long long slot = in ? slots[r] : 0;
    const unsigned long long* w = p.table + (in ? bases[r] : 0);
    for (int c = 0; c < p.ncols; c++) {
      const FinCol& col = p.cols[c];
      bool ok = false;
      long long v = 0;
      if (in) v = fin_value(p, col, slot, w, &ok);
      const unsigned word = __ballot_sync(0xffffffffu, ok);
      if (col.valid >= 0 && lane == 0) {
        unsigned* bitmap = (unsigned*)(out + col.valid);
        bitmap[i0 >> 5] = word;
        // The host's bitmap words are 64 bits: clear the last one's high half.
        if (((i0 >> 5) & 1) == 0 && i0 + 32 >= n) bitmap[(i0 >> 5) + 1] = 0u;
      }
      if (!in) continue;
      if (col.kind == FIN_AGG_INT_AS_FLOAT) {
        ((double*)(out + col.out))[i] = (double)v;
      } else if (col.width == 4) {
        ((int*)(out + col.out))[i] = (int)v;
      } else {
        ((long long*)(out + col.out))[i] = v;
      }
    }
  }
}
