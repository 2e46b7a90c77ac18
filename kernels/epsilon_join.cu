// epsilon_join: the ε-similarity join of Gowanlock & Karsin ("GPU
// Accelerated Similarity Self-Join for Multi-Dimensional Data", 2019) over
// the grid exec/cpu/epsilon_grid.go builds: points in cell order with
// dimensions permuted (REORDER), the sorted ids of the non-empty cells and
// each cell's point range. One thread per query point: it computes the ids
// of the 3^k cells around its own, finds each by binary search, narrows a
// cell to the SORTIDU window (binary search on the first unindexed
// dimension, then a scan while within reach) and tests the candidates with
// a short-circuited (SHORTC) float32 distance, the same predicate as
// exec/cpu/epsilon_distance.go bit for bit (no fused multiply-adds).
//
// Per candidate: reads the candidate point (dims × 4 B, cached: a cell's
// points are read by the neighbouring queries of a warp) and the query's
// (L1-resident). Bound: L1/L2 bandwidth and the distance arithmetic, not
// HBM; the output (8 B per pair) is written coalesced through a per-block
// shared-memory buffer flushed with one global atomic per flush. The cell
// lookups are dependent loads (latency, not bandwidth, bounds a 2-D join):
// only a query's first cell is found by a full binary search, the next
// ones by galloping forward from the last (in 2-D, three cells of a row
// are adjacent ids).
//
// Launch: 256 threads per block, grid-stride over the batch's queries
// (query qOffset + t·qStride, t < qCount). When a batch has too few
// queries to fill the GPU, tpq consecutive threads share a query, each
// taking every tpq-th neighbour cell, so that the threads stay busy and a
// query with crowded neighbour cells does not hold back a whole warp.
#include "common.cuh"

#define EPS_MAX_K 6
#define EPS_THREADS 256
#define EPS_STEPS 8                          // candidate steps per round and thread
#define EPS_BUF (2 * EPS_THREADS * EPS_STEPS)  // shared pairs per block (32 KB)

// EpsParams has a byte-for-byte twin, epsParams, in exec/gpu/epsilon_join.go.
struct EpsParams {
  const float* grid;                      // inner points, cell order, dims each
  const unsigned long long* cellIds;      // ids of non-empty cells, ascending
  const int* cellStart;                   // numCells + 1 range starts
  const float* queries;                   // query points, dims each
  const int* coords;                      // k cell coordinates per query
  const int* inv;                         // original dim d at stored position inv[d]
  const int* qRows;                       // original row of each query
  const int* gRows;                       // original row of each grid point
  int* counts;                            // count mode: per outer row, zeroed (may be 0)
  int* pairs;                             // pair mode: (outer row, inner row) per pair
  unsigned long long* pairCount;          // pairs found (counted past capacity too)
  long long numCells, qOffset, qStride, qCount, capacity;
  double reach;                           // per-dimension reach (ε plus slack)
  unsigned long long stride[EPS_MAX_K];   // id = Σ coord·stride
  int cells[EPS_MAX_K];                   // cells per indexed dimension
  int dims, k, sortDim, metric, strict, shortc, exact;
  int tpq;                                // threads per query (a power of two ≤ 32)
  float limit, lo, hi;
  int pad;
};

extern "C" __global__ void epsilon_param_size(long long* out) { *out = sizeof(EpsParams); }

__device__ __forceinline__ float eps_term(const EpsParams& p, float a, float b) {
  float d = __fsub_rn(a, b);
  return p.metric == 1 ? fabsf(d) : __fmul_rn(d, d);
}

// eps_within: exactly EpsilonTest.Within (exec/cpu/epsilon_distance.go).
__device__ bool eps_within(const EpsParams& p, const float* a, const float* b) {
  float s = 0.0f;
  for (int d = 0; d < p.dims; d++) {
    s = __fadd_rn(s, eps_term(p, a[d], __ldg(b + d)));
    if (p.shortc && s > p.hi) return false;
  }
  if (!p.exact) {
    if (s < p.lo) return true;
    if (s > p.hi) return false;
    s = 0.0f;
    for (int d = 0; d < p.dims; d++) {
      int j = __ldg(p.inv + d);
      s = __fadd_rn(s, eps_term(p, a[j], __ldg(b + j)));
    }
  }
  return p.strict ? s < p.limit : s <= p.limit;
}

// EpsCursor walks one query's candidates: neighbour cell nb of 3^k, and
// the range j..end of the current cell.
struct EpsCursor {
  long long q;  // query index, -1 when the thread has no more
  long long t;  // position in the batch
  int nb, numNb, lane;  // next neighbour cell; lane of the query's tpq threads
  int j, end;
  float u;      // the query's SORTIDU coordinate
  // The previous cell looked up: its id and the lower bound of it among
  // the cell ids. A query's neighbour cells come in ascending id order
  // (row-major ids, the last indexed dimension varying fastest, as the
  // neighbour index does), so the next lookup gallops forward from there.
  unsigned long long lastId;
  long long lastLo;  // -1: none yet
};

__device__ void eps_start(const EpsParams& p, EpsCursor& c, long long t) {
  c.t = t;
  c.q = t < p.qCount ? p.qOffset + t * p.qStride : -1;
  c.nb = c.lane;
  c.j = c.end = 0;
  c.lastLo = -1;
  if (c.q >= 0 && p.sortDim >= 0) c.u = p.queries[c.q * p.dims + p.sortDim];
}

// eps_next_cell moves to the next neighbour cell that exists; false when
// the query's cells are exhausted.
__device__ bool eps_next_cell(const EpsParams& p, EpsCursor& c) {
  const int* qc = p.coords + c.q * p.k;
  while (c.nb < c.numNb) {
    int v = c.nb;
    c.nb += p.tpq;
    unsigned long long id = 0;
    bool inside = true;
    for (int d = p.k - 1; d >= 0; d--) {
      int x = __ldg(qc + d) + (v % 3) - 1;
      v /= 3;
      if (x < 0 || x >= p.cells[d]) { inside = false; break; }
      id += (unsigned long long)x * p.stride[d];
    }
    if (!inside) continue;
    long long lo = 0, hi = p.numCells;
    if (c.lastLo >= 0 && id > c.lastId) {
      // Gallop from the previous lower bound: the cell beside the
      // previous one (most lookups) costs one or two loads instead of
      // log2(cells) dependent ones.
      lo = c.lastLo;
      long long step = 1;
      hi = lo;
      while (hi < p.numCells && __ldg(p.cellIds + hi) < id) {
        lo = hi + 1;
        hi = c.lastLo + step;
        step *= 2;
      }
      hi = hi < p.numCells ? hi : p.numCells;
    }
    while (lo < hi) {
      long long m = (lo + hi) >> 1;
      if (__ldg(p.cellIds + m) < id) lo = m + 1; else hi = m;
    }
    c.lastId = id;
    c.lastLo = lo;
    if (lo == p.numCells || __ldg(p.cellIds + lo) != id) continue;
    int a = __ldg(p.cellStart + lo), b = __ldg(p.cellStart + lo + 1);
    if (p.sortDim >= 0) {
      double from = (double)c.u - p.reach;
      int x = a, y = b;
      while (x < y) {
        int m = (x + y) >> 1;
        if ((double)__ldg(p.grid + (long long)m * p.dims + p.sortDim) < from) x = m + 1; else y = m;
      }
      a = x;
    }
    if (a < b) { c.j = a; c.end = b; return true; }
  }
  return false;
}

// eps_step advances the cursor by one candidate; returns the matching grid
// point or -1. Sets c.q = -1 once the thread's queries are done.
__device__ int eps_step(const EpsParams& p, EpsCursor& c, long long threads) {
  if (c.j >= c.end && !eps_next_cell(p, c)) {
    eps_start(p, c, c.t + threads);
    return -1;
  }
  int j = c.j++;
  const float* g = p.grid + (long long)j * p.dims;
  if (p.sortDim >= 0 && (double)__ldg(g + p.sortDim) > (double)c.u + p.reach) {
    c.j = c.end;  // past the window: the rest of the cell is further still
    return -1;
  }
  return eps_within(p, p.queries + c.q * p.dims, g) ? j : -1;
}

__device__ int eps_num_neighbours(int k) {
  int n = 1;
  for (int d = 0; d < k; d++) n *= 3;
  return n;
}

// epsilon_count: per outer row, the number of grid points within ε (added
// to counts when given) and the batch total in *pairCount. No pair is
// stored.
extern "C" __global__ void epsilon_count(EpsParams p) {
  long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long threads = (long long)gridDim.x * blockDim.x / p.tpq;
  EpsCursor c;
  c.numNb = eps_num_neighbours(p.k);
  c.lane = (int)(tid % p.tpq);
  eps_start(p, c, tid / p.tpq);
  unsigned long long total = 0;
  while (c.q >= 0) {
    long long q = c.q;
    int n = 0;
    while (c.q == q) n += eps_step(p, c, threads) >= 0;
    if (p.counts && n) atomicAdd(p.counts + __ldg(p.qRows + q), n);
    total += n;
  }
  if (total) atomicAdd(p.pairCount, total);
}

// epsilon_pairs: every pair (outer row, inner row) within ε.
// Threads run in rounds of EPS_STEPS candidates; matches go to the block's
// shared buffer, which cannot overflow within a round (it is flushed once
// less than a round's worth of room is left). A flush reserves space with
// one atomicAdd and writes the buffer coalesced; pairs past capacity are
// counted, not written, and the host reruns that batch split in two.
extern "C" __global__ void __launch_bounds__(EPS_THREADS) epsilon_pairs(EpsParams p) {
  __shared__ int2 buf[EPS_BUF];
  __shared__ int nbuf;
  __shared__ unsigned long long base;
  long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long threads = (long long)gridDim.x * blockDim.x / p.tpq;
  EpsCursor c;
  c.numNb = eps_num_neighbours(p.k);
  c.lane = (int)(tid % p.tpq);
  eps_start(p, c, tid / p.tpq);
  if (threadIdx.x == 0) nbuf = 0;
  __syncthreads();
  while (__syncthreads_or(c.q >= 0)) {
    for (int s = 0; s < EPS_STEPS && c.q >= 0; s++) {
      long long q = c.q;
      int j = eps_step(p, c, threads);
      if (j >= 0) buf[atomicAdd(&nbuf, 1)] = make_int2(__ldg(p.qRows + q), __ldg(p.gRows + j));
    }
    __syncthreads();
    int n = nbuf;
    if (n <= EPS_BUF - EPS_THREADS * EPS_STEPS) continue;
    if (threadIdx.x == 0) base = atomicAdd(p.pairCount, (unsigned long long)n);
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      if (base + i < (unsigned long long)p.capacity) ((int2*)p.pairs)[base + i] = buf[i];
    __syncthreads();
    if (threadIdx.x == 0) nbuf = 0;
  }
  int n = nbuf;
  if (n == 0) return;
  if (threadIdx.x == 0) base = atomicAdd(p.pairCount, (unsigned long long)n);
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (base + i < (unsigned long long)p.capacity) ((int2*)p.pairs)[base + i] = buf[i];
}
