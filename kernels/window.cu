// Window functions on the materializing executor (exec/gpu/window.go):
// ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD,
// and COUNT / SUM / FIRST_VALUE / LAST_VALUE / NTH_VALUE over ROWS frames
// with any bounds and RANGE frames bounded by the partition, the current
// row's peers or an offset from its key (a binary search per row); MIN /
// MAX and a DOUBLE's SUM over such frames, from a segment tree where the
// frame starts after the partition's first row. The
// rows are first sorted by partition and order keys (radix sort, sort.go);
// every value then comes from segmented scans over that order, Blelloch's
// scan with the (segment-start flag, value) operator, so the work is O(n)
// whatever the partitions' sizes, where a thread per partition would leave
// most of the device idle behind one large partition.
//
//   win_bounds        flags each sorted position: bit 0 starts a partition,
//                     bit 1 a peer group (rows equal on the order keys).
//                     Reads the key columns of two adjacent rows, writes 1 B.
//   win_scan_tiles    inclusive segmented scan of one tile of WIN_TILE
//                     values per block (each thread WIN_ITEMS in registers,
//                     then the threads' totals in shared memory); writes
//                     the tile's total and the first segment start in it.
//   win_scan_carry    one block scans the tiles' totals (a short array).
//   win_scan_apply    adds each tile's carry to its values before its first
//                     segment start.
//   win_ends          for each group (partition or peers) records its last
//                     position at its first: end = endAt[start[i]].
//   win_tree_leaves   a segment tree's leaves: a scan's sources in sorted
//   win_tree_level    order, then one launch per level above them.
//   win_finish        computes each row's value from the scans (or, for
//                     LAG / LEAD and the value functions, gathers it from the
//                     sorted position it names) and writes it at the row's
//                     input position (perm), NULL where an aggregate's frame
//                     holds no non-NULL value.
//
// Launch: 256 threads a block; win_scan_tiles one block per tile,
// win_scan_carry one block of 1024 threads, the others grid-stride.
// Bound: device memory bandwidth, some 60 bytes a row per function over
// the sort's; the key and argument columns are read through perm (random
// when the input is not already in that order).
#include "common.cuh"

#define WIN_THREADS 256
#define WIN_ITEMS 8
#define WIN_TILE (WIN_THREADS * WIN_ITEMS)
#define MAX_WIN_KEYS 8
#define WIN_CARRY_THREADS 1024

// Scan operators (WinScanParams.op).
#define WIN_SUM 0
#define WIN_MIN 1
#define WIN_MAX 2

// Scan sources (WinScanParams.source): what position i contributes.
#define WIN_SRC_COLUMN 0    // col[perm[i]], a NULL the operator's identity
#define WIN_SRC_VALID 1     // 1 when col[perm[i]] is not NULL, else 0
#define WIN_SRC_FLAG 2      // 1 when flags[i] has srcBit, else 0
#define WIN_SRC_POSITION 3  // i when flags[i] has srcBit, else 0 (with WIN_MAX: the group's start)

struct WinBoundsParams {
  Col keys[MAX_WIN_KEYS];  // partition keys, then order keys
  const int* perm;
  long long n;
  unsigned char* flags;
  int nPart, nKeys;
};

struct WinScanParams {
  Col col;
  const int* perm;
  const unsigned char* flags;
  long long n;
  long long* out;        // n values: int64, or double bits when isFloat
  long long* tileVal;    // per tile: its segmented total, then (carry) the carry into it
  long long* tileFirst;  // per tile: the first position that starts a segment, or n
  int segBit;            // flags bit that starts a segment (0: one segment)
  int op, isFloat, source, srcBit, pad;
};

struct WinEndsParams {
  const unsigned char* flags;
  const long long* start;  // each position's group start
  long long* endAt;        // written at each group's start: its last position
  long long n;
  int bit, pad;
};

struct WinFinishParams {
  const int* perm;
  const long long* partStart;
  const long long* peerStart;
  const long long* partEndAt;
  const long long* peerEndAt;
  const long long* vals;    // the value scan (aggregates) or DENSE_RANK's
  const long long* counts;  // the non-NULL count scan, or 0: every row counts
  long long* out;
  unsigned long long* outValid;
  long long n;
  int func;  // WIN_F_* below
  int rows;  // a ROWS frame; else RANGE, whose CURRENT ROW bound is the row's peers
  Col src;   // LAG / LEAD / FIRST_VALUE / LAST_VALUE / NTH_VALUE: the value, read at perm[j]
  Col dflt;  // LAG / LEAD's default, read at the current row's input position
  long long arg;             // NTILE's buckets, LAG / LEAD's offset, NTH_VALUE's position
  long long startN, endN;    // the frame bounds' offsets (ROWS)
  int startKind, endKind;    // WIN_B_* below
  long long avgMul, avgDiv;  // AVG: sum * avgMul / (count * avgDiv), at the result's scale
  int hasDefault, avgCut;    // avgCut: the quotient is cut, not rounded half away from zero
  // A RANGE frame's offsets (win_range_bound): the single order key, read
  // at perm[j] (times keyMul: a DATE key's days as microseconds under an
  // INTERVAL), and each bound's signed offset in its units (preceding
  // negative) as an integer or, where startFloat / endFloat, a double.
  Col rangeKey;
  long long keyMul, startOff, endOff;
  double startOffF, endOffF;
  int rangeDesc, startFloat, endFloat, pad;
  // A frame that starts after its partition's first row reads MIN / MAX,
  // or a DOUBLE's SUM, from a segment tree (win_tree_*) of treeSize leaves
  // when tree is set; argFloat: the argument is a DOUBLE (AVG divides in
  // doubles).
  const long long* tree;
  long long treeSize;
  int treeOp, argFloat;
};

// The segment tree over a scan's sources: leaves at [size, 2 size) (the
// sorted positions' values, a NULL or a position past n the operator's
// identity), node k the operator over nodes 2k and 2k + 1, built a level
// per launch. A frame [lo, hi] then combines at most two nodes a level,
// each over the frame's own rows only: MIN / MAX over sliding frames, and
// DOUBLE sums whose error is bounded by the frame's values, where a
// difference of running sums loses a frame's small values after a huge one.
struct WinTreeParams {
  WinScanParams src;
  long long* nodes;
  long long size;    // leaves, a power of two
  long long lo, hi;  // win_tree_level: the level's nodes
};

// Frame bounds (sql.BoundKind).
#define WIN_B_UNBOUNDED_PRECEDING 1
#define WIN_B_PRECEDING 2
#define WIN_B_CURRENT_ROW 3
#define WIN_B_FOLLOWING 4
#define WIN_B_UNBOUNDED_FOLLOWING 5

// Functions of win_finish.
#define WIN_F_ROW_NUMBER 1
#define WIN_F_RANK 2
#define WIN_F_DENSE_RANK 3
#define WIN_F_AGG_VALUE 4  // MIN / MAX: the running value at the frame's end
#define WIN_F_AGG_COUNT 5
#define WIN_F_PERCENT_RANK 6
#define WIN_F_CUME_DIST 7
#define WIN_F_NTILE 8
#define WIN_F_LAG 9
#define WIN_F_LEAD 10
#define WIN_F_FIRST_VALUE 11
#define WIN_F_LAST_VALUE 12
#define WIN_F_NTH_VALUE 13
#define WIN_F_AGG_SUM 14
#define WIN_F_AGG_AVG 15

__device__ __forceinline__ bool win_key_equal(const Col& c, long long a, long long b) {
  const bool va = isvalid(c, a), vb = isvalid(c, b);
  if (va != vb) return false;
  if (!va) return true;  // NULLs are peers, as MySQL partitions them
  if (c.isFloat) return ldf(c, a) == ldf(c, b);
  return ldi(c, a) == ldi(c, b);
}

extern "C" __global__ void win_bounds(const WinBoundsParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    unsigned char f = 3;
    if (i > 0) {
      const long long a = __ldg(p.perm + i - 1), b = __ldg(p.perm + i);
      f = 0;
      for (int k = 0; k < p.nKeys; k++) {
        if (!win_key_equal(p.keys[k], a, b)) {
          f = k < p.nPart ? 3 : 2;
          break;
        }
      }
    }
    p.flags[i] = f;
  }
}

__device__ __forceinline__ long long win_identity(int op, int isFloat) {
  if (op == WIN_SUM) return isFloat ? __double_as_longlong(0.0) : 0;
  if (isFloat) return __double_as_longlong(op == WIN_MIN ? __longlong_as_double(0x7ff0000000000000LL) : __longlong_as_double((long long)0xfff0000000000000ULL));
  return op == WIN_MIN ? 0x7fffffffffffffffLL : (long long)0x8000000000000000ULL;
}

__device__ __forceinline__ long long win_op(int op, int isFloat, long long a, long long b) {
  if (isFloat) {
    const double x = __longlong_as_double(a), y = __longlong_as_double(b);
    return __double_as_longlong(op == WIN_SUM ? x + y : op == WIN_MIN ? fmin(x, y) : fmax(x, y));
  }
  return op == WIN_SUM ? add_ck(a, b) : op == WIN_MIN ? min(a, b) : max(a, b);
}

__device__ __forceinline__ long long win_source(const WinScanParams& p, long long i) {
  switch (p.source) {
    case WIN_SRC_COLUMN: {
      const long long r = __ldg(p.perm + i);
      if (!isvalid(p.col, r)) return win_identity(p.op, p.isFloat);
      return p.isFloat ? __double_as_longlong(ldf(p.col, r)) : ldi(p.col, r);
    }
    case WIN_SRC_VALID:
      return isvalid(p.col, __ldg(p.perm + i)) ? 1 : 0;
    case WIN_SRC_FLAG:
      return (p.flags[i] & p.srcBit) ? 1 : 0;
  }
  return (p.flags[i] & p.srcBit) ? i : 0;
}

// win_block_scan turns the block's threads' (segment-start flag, running
// value) pairs in shared memory into their inclusive segmented scan
// (Hillis-Steele: log2(threads) steps, each a barrier). Every thread of
// the block calls it.
__device__ __forceinline__ void win_block_scan(const WinScanParams& p, long long* sv, int* sf, int threads) {
  const int t = threadIdx.x;
  for (int off = 1; off < threads; off <<= 1) {
    long long pv = 0;
    int pf = 1;
    if (t >= off) {
      pv = sv[t - off];
      pf = sf[t - off];
    }
    __syncthreads();
    if (t >= off && !sf[t]) {
      sv[t] = win_op(p.op, p.isFloat, pv, sv[t]);
      sf[t] = pf;
    }
    __syncthreads();
  }
}

extern "C" __global__ void __launch_bounds__(WIN_THREADS) win_scan_tiles(const WinScanParams p) {
  __shared__ long long sv[WIN_THREADS];
  __shared__ int sf[WIN_THREADS];
  __shared__ long long sfirst[WIN_THREADS];
  const int t = threadIdx.x;
  const long long base = (long long)blockIdx.x * WIN_TILE + (long long)t * WIN_ITEMS;
  const long long id = win_identity(p.op, p.isFloat);
  long long v[WIN_ITEMS];
  long long acc = id, first = p.n;
  int any = 0;
  for (int j = 0; j < WIN_ITEMS; j++) {
    const long long i = base + j;
    if (i >= p.n) {
      v[j] = id;
      continue;
    }
    const long long x = win_source(p, i);
    if (p.segBit && (p.flags[i] & p.segBit)) {
      acc = x;
      if (!any) first = i;
      any = 1;
    } else {
      acc = win_op(p.op, p.isFloat, acc, x);
    }
    v[j] = acc;
  }
  sv[t] = acc;
  sf[t] = any;
  sfirst[t] = first;
  __syncthreads();
  win_block_scan(p, sv, sf, WIN_THREADS);
  if (t > 0) {
    const long long pre = sv[t - 1];
    for (int j = 0; j < WIN_ITEMS; j++) {
      const long long i = base + j;
      if (i >= p.n || (p.segBit && (p.flags[i] & p.segBit))) break;
      v[j] = win_op(p.op, p.isFloat, pre, v[j]);
    }
  }
  for (int j = 0; j < WIN_ITEMS; j++)
    if (base + j < p.n) p.out[base + j] = v[j];
  if (t == WIN_THREADS - 1) {
    p.tileVal[blockIdx.x] = sv[t];
    long long m = p.n;
    for (int k = 0; k < WIN_THREADS; k++) m = min(m, sfirst[k]);
    p.tileFirst[blockIdx.x] = m;
  }
}

// win_scan_carry turns the tiles' totals into the carry into each tile:
// the running value of the segment still open at the tile's start.
extern "C" __global__ void __launch_bounds__(WIN_CARRY_THREADS) win_scan_carry(const WinScanParams p, long long tiles) {
  __shared__ long long sv[WIN_CARRY_THREADS];
  __shared__ int sf[WIN_CARRY_THREADS];
  const int t = threadIdx.x;
  const long long chunk = (tiles + WIN_CARRY_THREADS - 1) / WIN_CARRY_THREADS;
  const long long lo = min(tiles, t * chunk), hi = min(tiles, lo + chunk);
  const long long id = win_identity(p.op, p.isFloat);
  long long acc = id;
  int any = 0;
  for (long long k = lo; k < hi; k++) {
    if (p.tileFirst[k] < p.n) {
      acc = p.tileVal[k];
      any = 1;
    } else {
      acc = win_op(p.op, p.isFloat, acc, p.tileVal[k]);
    }
  }
  sv[t] = acc;
  sf[t] = any;
  __syncthreads();
  win_block_scan(p, sv, sf, WIN_CARRY_THREADS);
  long long run = t > 0 ? sv[t - 1] : id;
  for (long long k = lo; k < hi; k++) {
    const long long total = p.tileVal[k];
    const bool starts = p.tileFirst[k] < p.n;
    p.tileVal[k] = run;
    run = starts ? total : win_op(p.op, p.isFloat, run, total);
  }
}

extern "C" __global__ void win_scan_apply(const WinScanParams p) {
  for (long long i = WIN_TILE + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    const long long k = i / WIN_TILE;
    if (i < p.tileFirst[k]) p.out[i] = win_op(p.op, p.isFloat, p.tileVal[k], p.out[i]);
  }
}

extern "C" __global__ void win_ends(const WinEndsParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x)
    if (i == p.n - 1 || (p.flags[i + 1] & p.bit)) p.endAt[p.start[i]] = i;
}

extern "C" __global__ void win_tree_leaves(const WinTreeParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.size; i += (long long)gridDim.x * blockDim.x)
    p.nodes[p.size + i] = i < p.src.n ? win_source(p.src, i) : win_identity(p.src.op, p.src.isFloat);
}

extern "C" __global__ void win_tree_level(const WinTreeParams p) {
  for (long long k = p.lo + (long long)blockIdx.x * blockDim.x + threadIdx.x; k < p.hi; k += (long long)gridDim.x * blockDim.x)
    p.nodes[k] = win_op(p.src.op, p.src.isFloat, p.nodes[2 * k], p.nodes[2 * k + 1]);
}

// win_tree_query combines the tree's leaves lo..hi (inclusive), the left
// side's nodes before the right side's.
__device__ long long win_tree_query(const WinFinishParams& p, long long lo, long long hi) {
  long long left = win_identity(p.treeOp, p.argFloat), right = left;
  for (long long l = lo + p.treeSize, r = hi + 1 + p.treeSize; l < r; l >>= 1, r >>= 1) {
    if (l & 1) left = win_op(p.treeOp, p.argFloat, left, p.tree[l++]);
    if (r & 1) right = win_op(p.treeOp, p.argFloat, p.tree[--r], right);
  }
  return win_op(p.treeOp, p.argFloat, left, right);
}

// win_value reads a value column at row r as win_finish stores it: the
// integer, or a double's bits; false when NULL.
__device__ __forceinline__ bool win_value(const Col& c, long long r, long long* v) {
  if (!isvalid(c, r)) return false;
  *v = c.isFloat ? __double_as_longlong(ldf(c, r)) : ldi(c, r);
  return true;
}

// win_ntile is the bucket (from 1) of the k-th of m rows split into b
// buckets whose sizes differ by at most one, the larger first (MySQL).
__device__ __forceinline__ long long win_ntile(long long k, long long m, long long b) {
  const long long q = m / b, r = m % b;
  if (k < r * (q + 1)) return k / (q + 1) + 1;
  return (k - r * (q + 1)) / q + r + 1;
}

// win_avg is sum / count at the result's scale in 128 bits, cut or rounded
// half away from zero as exec/cpu's AVG; a quotient past int64 flags an
// overflow (the CPU then answers).
__device__ __forceinline__ long long win_avg(long long sum, long long cnt, const WinFinishParams& p) {
  const __int128 num = (__int128)sum * p.avgMul, den = (__int128)cnt * p.avgDiv;
  __int128 q = num / den;
  const __int128 r = num - q * den;
  if (!p.avgCut && 2 * (r < 0 ? -r : r) >= den) q += num < 0 ? -1 : 1;
  note_overflow(q > (__int128)0x7fffffffffffffffLL || q < -(__int128)0x7fffffffffffffffLL - 1);
  return (long long)q;
}

// win_range_cmp compares sorted position j's key with target, both in
// sort direction (negated when descending, so keys never decrease along a
// partition): exec/cpu's rangeKey.diff, integers in 128 bits (exact).
__device__ __forceinline__ int win_range_cmp(const WinFinishParams& p, long long j, bool isFloat, __int128 target, double targetF) {
  const long long r = __ldg(p.perm + j);
  if (isFloat) {
    double a = ldf(p.rangeKey, r);
    if (p.rangeDesc) a = -a;
    return a < targetF ? -1 : a > targetF ? 1 : 0;
  }
  __int128 a = (__int128)ldi(p.rangeKey, r) * p.keyMul;
  if (p.rangeDesc) a = -a;
  return a < target ? -1 : a > target ? 1 : 0;
}

// win_range_bound is a RANGE bound with an offset for sorted position i of
// the partition [ps, pe]: a row whose key is NULL has its NULL peers as the
// frame; otherwise the first non-NULL key at or past the current key moved
// by the offset (a start), or the last one not past it (an end), found by
// binary search.
__device__ long long win_range_bound(const WinFinishParams& p, bool start, long long i, long long ps, long long pe) {
  const long long r = __ldg(p.perm + i);
  if (!isvalid(p.rangeKey, r)) return start ? p.peerStart[i] : p.peerEndAt[p.peerStart[i]];
  // NULL keys sort first ascending, last descending: the non-NULL rows
  // are [nl, nh], their boundary the first position past the NULLs
  // (ascending) or at them (descending).
  long long lo = ps, hi = pe + 1;
  while (lo < hi) {
    const long long m = lo + (hi - lo) / 2;
    if (isvalid(p.rangeKey, __ldg(p.perm + m)) != (bool)p.rangeDesc) hi = m; else lo = m + 1;
  }
  const long long nl = p.rangeDesc ? ps : lo, nh = p.rangeDesc ? lo - 1 : pe;
  const bool isFloat = start ? p.startFloat : p.endFloat;
  __int128 target = 0;
  double targetF = 0;
  if (isFloat) {
    double v = ldf(p.rangeKey, r);
    if (p.rangeDesc) v = -v;
    targetF = __dadd_rn(v, start ? p.startOffF : p.endOffF);
  } else {
    target = (__int128)ldi(p.rangeKey, r) * p.keyMul;
    if (p.rangeDesc) target = -target;
    target += start ? p.startOff : p.endOff;
  }
  // The first position whose key is at or past (start) / past (end) target.
  lo = nl, hi = nh + 1;
  while (lo < hi) {
    const long long m = lo + (hi - lo) / 2;
    const int d = win_range_cmp(p, m, isFloat, target, targetF);
    if (start ? d >= 0 : d > 0) hi = m; else lo = m + 1;
  }
  return start ? lo : lo - 1;
}

// win_bound is where a frame bound lies for sorted position i of the
// partition [ps, pe], before clamping to it.
__device__ __forceinline__ long long win_bound(const WinFinishParams& p, int kind, long long n, bool start, long long i, long long ps, long long pe) {
  if (!p.rows && (kind == WIN_B_PRECEDING || kind == WIN_B_FOLLOWING)) return win_range_bound(p, start, i, ps, pe);
  switch (kind) {
    case WIN_B_UNBOUNDED_PRECEDING: return ps;
    case WIN_B_PRECEDING: return i - n;
    case WIN_B_FOLLOWING: return n > pe - i ? pe + 1 : i + n;  // past the partition (i + n may wrap)
    case WIN_B_UNBOUNDED_FOLLOWING: return pe;
  }
  if (p.rows) return i;
  // RANGE: the current row's peers; its end bound the last of them.
  return start ? p.peerStart[i] : p.peerEndAt[p.peerStart[i]];
}

extern "C" __global__ void win_finish(const WinFinishParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    const long long ps = p.partStart[i];
    const long long r = __ldg(p.perm + i);
    long long v = 0;
    bool ok = true;
    switch (p.func) {
      case WIN_F_ROW_NUMBER: v = i - ps + 1; break;
      case WIN_F_RANK: v = p.peerStart[i] - ps + 1; break;
      case WIN_F_DENSE_RANK: v = p.vals[i]; break;
      case WIN_F_PERCENT_RANK: {
        const double m = (double)(p.partEndAt[ps] - ps + 1);
        const double d = m > 1 ? (double)(p.peerStart[i] - ps) / (m - 1) : 0.0;
        v = __double_as_longlong(d);
        break;
      }
      case WIN_F_CUME_DIST: {
        const double m = (double)(p.partEndAt[ps] - ps + 1);
        v = __double_as_longlong((double)(p.peerEndAt[p.peerStart[i]] - ps + 1) / m);
        break;
      }
      case WIN_F_NTILE: v = win_ntile(i - ps, p.partEndAt[ps] - ps + 1, p.arg); break;
      case WIN_F_LAG:
      case WIN_F_LEAD: {
        // i + arg may wrap: an offset past the partition's end lands past it.
        const long long pe = p.partEndAt[ps];
        const long long j = p.func == WIN_F_LAG ? i - p.arg : p.arg > pe - i ? pe + 1 : i + p.arg;
        if (j >= ps && j <= pe) ok = win_value(p.src, __ldg(p.perm + j), &v);
        else if (p.hasDefault) ok = win_value(p.dflt, r, &v);
        else ok = false;
        break;
      }
      default: {
        // The frame [lo, hi] within the partition [ps, pe]; empty when lo > hi.
        const long long pe = p.partEndAt[ps];
        const long long lo = max(ps, win_bound(p, p.startKind, p.startN, true, i, ps, pe));
        const long long hi = min(pe, win_bound(p, p.endKind, p.endN, false, i, ps, pe));
        if (p.func == WIN_F_FIRST_VALUE || p.func == WIN_F_LAST_VALUE || p.func == WIN_F_NTH_VALUE) {
          const long long j = p.func == WIN_F_FIRST_VALUE ? lo : p.func == WIN_F_LAST_VALUE ? hi : p.arg - 1 > hi - lo ? hi + 1 : lo + p.arg - 1;
          ok = lo <= hi && j <= hi && win_value(p.src, __ldg(p.perm + j), &v);
          break;
        }
        // Running scans from the partition's first row: a frame's count and
        // integer SUM are differences of two (exact); a later-starting
        // frame's MIN, MAX or DOUBLE SUM comes from the tree.
        long long cnt = 0;
        if (lo <= hi) cnt = p.counts ? p.counts[hi] - (lo > ps ? p.counts[lo - 1] : 0) : hi - lo + 1;
        ok = cnt > 0;
        if (p.func == WIN_F_AGG_COUNT) {
          v = cnt;
          ok = true;
        } else if (ok) {
          const bool diff = (p.func == WIN_F_AGG_SUM || p.func == WIN_F_AGG_AVG) && lo > ps;
          if (p.tree && lo > ps) v = win_tree_query(p, lo, hi);
          else v = diff ? sub_ck(p.vals[hi], p.vals[lo - 1]) : p.vals[hi];
          if (p.func == WIN_F_AGG_AVG)
            v = p.argFloat ? __double_as_longlong(__ddiv_rn(__longlong_as_double(v), (double)cnt)) : win_avg(v, cnt, p);
        }
      }
    }
    p.out[r] = ok ? v : 0;
    if (ok) atomicOr(p.outValid + (r >> 6), 1ULL << (r & 63));
  }
}

// win_param_sizes: the byte sizes of this file's parameter structs, for exec/gpu's layout test.
extern "C" __global__ void win_param_sizes(long long* out) {
  out[0] = sizeof(WinBoundsParams);
  out[1] = sizeof(WinScanParams);
  out[2] = sizeof(WinEndsParams);
  out[3] = sizeof(WinFinishParams);
  out[4] = sizeof(WinTreeParams);
}
