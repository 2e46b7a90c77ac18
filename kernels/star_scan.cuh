// star_scan: the fused kernel of a star with one group (no GROUP BY) whose
// dimensions only filter — SSB Q1.x, and any SUM / COUNT over a fact
// table's ranges and joins (planner/gpu_star_scan.go chooses it). Included
// by star_pipeline.cu (StarParams, star_finish).
//
// Why a kernel of its own: the star_fast kernels keep a thread's 8 rows'
// liveness as 8 bool registers and a group index each. Nsight Compute on
// Q1.1 (SF 10, dbgen's order) showed star_fast_scalar_8 at 66 % of DRAM
// peak with 48 registers a thread (53 % occupancy) and 16 of 32 lanes
// active: each tile is a chain of dependent loads (a column, its test,
// the next column for the rows still alive), and what covers a chain's
// latency is other warps. Here a thread's SCAN_IT = 16 consecutive rows'
// liveness is one 16-bit mask and nothing else per row survives a step,
// so a step loads the thread's 64 bytes of a 4-byte column (16 or 32 of a
// narrow one) in 16-byte units, tests them, and keeps only the mask; a
// unit none of whose rows is alive is not loaded. Counts are a popcount.
// Measured on the H100 (SF 10, bench, kernel ms; README): Q1.1 0.244 →
// 0.203 over 4-byte columns, 0.181 over narrow ones; 32 rows a thread
// (72-80 registers, 3 blocks an SM) ran 0.221 / 0.204, 8 rows 0.209 /
// 0.213, and capping the registers for more blocks spilled and ran slower.
// Loading the first narrow filters' columns before testing any (a shorter
// chain for more registers) ran slower too.
//
// Copying the first filter's column a tile ahead into shared memory
// (cp.async: per thread through L2 or L1, or per block in 512-byte warp
// copies with a barrier a tile) was no faster over the three SSB Q1.x
// queries, over 4-byte and narrow columns alike (README): Q1.1
// 0.208-0.233 ms against 0.202-0.204; the L1 one gained a few µs on Q1.2
// and lost them on Q1.1. Reading the first filter's column in its
// run-length form (storage/columnar/runs.go: a start bit a row and a value
// a run, 41 MB instead of 240 for SSB SF 10's lo_orderdate; each run tested
// once) was no better either (README): Q1.1 0.193-0.200 ms against
// 0.207-0.208, Q1.2 and Q1.3 slower; over narrow columns 0.177 against
// 0.177-0.184. The chain of dependent loads, not the bytes, bounds these.
//
// Eligible (exec/gpu/star_scan.go checks the parameters): one group, no
// group column, no dimension probe (the plan tests every dimension of
// such a star as a fact filter over its keys' bitmap), aggregates COUNT
// or SUMs that cannot overflow (no per-row check), no packed columns
// (their lane-interleaved row map is the star_fast kernels'), no NULLs.
// F: 0 or FAST_NEED_NARROW.
#define SCAN_IT 16

// scan_unit_alive: whether any of the U rows from row r of mask m is alive.
template <int U>
__device__ __forceinline__ bool scan_unit_alive(unsigned m, int r) {
  return U == 32 ? m != 0u : ((m >> r) & ((1u << U) - 1u)) != 0u;
}

// scan_narrow_raw loads the words of a narrow column c that hold N (a
// multiple of 16) consecutive rows from i0, a thread's whole rows: N/4
// words at 1 byte a row, N/2 at 2, in 16-byte units of which a row of mask
// m is alive (others read 0).
template <int N>
__device__ __forceinline__ void scan_narrow_raw(const Col& c, long long i0, unsigned m, unsigned* w) {
  if (c.width == 1) {
    const uint4* d = (const uint4*)((const unsigned char*)c.data + i0);
#pragma unroll
    for (int q = 0; q < N / 16; q++) {
      const uint4 x = scan_unit_alive<16>(m, 16 * q) ? __ldg(d + q) : make_uint4(0, 0, 0, 0);
      w[4 * q] = x.x, w[4 * q + 1] = x.y, w[4 * q + 2] = x.z, w[4 * q + 3] = x.w;
    }
  } else {
    const uint4* d = (const uint4*)((const unsigned short*)c.data + i0);
#pragma unroll
    for (int q = 0; q < N / 8; q++) {
      const uint4 x = scan_unit_alive<8>(m, 8 * q) ? __ldg(d + q) : make_uint4(0, 0, 0, 0);
      w[4 * q] = x.x, w[4 * q + 1] = x.y, w[4 * q + 2] = x.z, w[4 * q + 3] = x.w;
    }
  }
}

// scan_narrow_decode turns scan_narrow_raw's words into the rows' values.
template <int N>
__device__ __forceinline__ void scan_narrow_decode(const Col& c, long long i0, const unsigned* w, int* v) {
  const unsigned fr = (unsigned)__ldg(c.frame + (i0 >> c.shift));
  if (c.width == 1) {
#pragma unroll
    for (int k = 0; k < N; k++) v[k] = (int)(fr + ((w[k >> 2] >> (8 * (k & 3))) & 0xffu));
  } else {
#pragma unroll
    for (int k = 0; k < N; k++) v[k] = (int)(fr + ((w[k >> 1] >> (16 * (k & 1))) & 0xffffu));
  }
}

// scan_load reads N (a multiple of 16) consecutive rows from i0 of column c into
// v, the rows of mask m at least (others read 0 or their value). Whole
// threads' rows read 16-byte units where one of their rows is alive; the
// table's last, partial thread row by row.
template <int F, int N>
__device__ __forceinline__ void scan_load(const Col& c, long long i0, bool full, unsigned m, int* v) {
  if ((F & FAST_NEED_NARROW) && c.width < 4) {
    if (full) {
      unsigned w[N / 2];
      scan_narrow_raw<N>(c, i0, m, w);
      scan_narrow_decode<N>(c, i0, w, v);
      return;
    }
    const unsigned fr = (unsigned)__ldg(c.frame + (i0 >> c.shift));
#pragma unroll
    for (int k = 0; k < N; k++) {
      unsigned x = 0;
      if ((m >> k) & 1u)
        x = c.width == 1 ? (unsigned)__ldg((const unsigned char*)c.data + i0 + k) : (unsigned)__ldg((const unsigned short*)c.data + i0 + k);
      v[k] = (int)(fr + x);
    }
    return;
  }
  const int* d = (const int*)c.data + i0;
  if (full) {
#pragma unroll
    for (int q = 0; q < N / 4; q++) {
      spread4(v + 4 * q, scan_unit_alive<4>(m, 4 * q) ? __ldg((const int4*)d + q) : make_int4(0, 0, 0, 0));
    }
  } else {
#pragma unroll
    for (int k = 0; k < N; k++) v[k] = (m >> k) & 1u ? __ldg(d + k) : 0;
  }
}

// scan_test is the mask of m's rows whose values v pass fact predicate pr
// (a range: one unsigned compare of v - lo against hi - lo; a set: its
// bitmap).
template <int IT>
__device__ __forceinline__ unsigned scan_test(const Pred& pr, const int* v, unsigned m) {
  const unsigned lo = (unsigned)(int)pr.lo;
  unsigned pass = 0;
  if (pr.kind == PRED_RANGE) {
    const unsigned span = (unsigned)(int)pr.hi - lo;  // fastEligible: an empty range is lo 1, hi 0
    const bool empty = (int)pr.lo > (int)pr.hi;
#pragma unroll
    for (int k = 0; k < IT; k++) pass |= ((unsigned)v[k] - lo <= span ? 1u : 0u) << k;
    if (empty) pass = 0;
  } else {
    const unsigned len = pr.setLen > 0xffffffffLL ? 0xffffffffu : (unsigned)pr.setLen;
#pragma unroll
    for (int k = 0; k < IT; k++) {
      const unsigned o = (unsigned)v[k] - lo;
      const unsigned w = ((m >> k) & 1u) && o < len ? __ldg(pr.set + (o >> 5)) : 0u;
      pass |= ((w >> (o & 31)) & 1u) << k;
    }
  }
  return m & (pr.negate ? ~pass : pass);
}

template <int F, int IT>
__device__ __forceinline__ unsigned scan_pred(const Pred& pr, long long i0, bool full, unsigned m) {
  int v[IT];
  scan_load<F, IT>(pr.col, i0, full, m, v);
  return scan_test<IT>(pr, v, m);
}

// scan_filters is the mask of m's rows that pass every filter, in the
// plan's order (most selective first).
template <int F, int IT>
__device__ __forceinline__ unsigned scan_filters(const StarParams& p, long long i0, bool full, unsigned m) {
#pragma unroll 1
  for (int s = 0; s < p.npreds && m != 0u; s++) m = scan_pred<F, IT>(p.preds[s], i0, full, m);
  return m;
}

// scan_sum is the sum of aggregate a's argument over m's rows.
template <int F, int IT>
__device__ __forceinline__ unsigned long long scan_sum(const Agg& a, long long i0, bool full, unsigned m) {
  int x[IT], y[IT];
  scan_load<F, IT>(a.a, i0, full, m, x);
  if (a.op != EXPR_A) scan_load<F, IT>(a.b, i0, full, m, y);
  unsigned long long s = 0;
#pragma unroll
  for (int k = 0; k < IT; k++) {
    if (!((m >> k) & 1u)) continue;
    const long long l = x[k];
    const long long r = a.op == EXPR_A ? 0 : y[k];
    s += (unsigned long long)(a.op == EXPR_A ? l : a.op == EXPR_MUL ? l * r : a.op == EXPR_SUB ? l - r : l + r);
  }
  return s;
}

template <int F, int IT>
__device__ __forceinline__ void star_scan_body(const StarParams& p) {
  extern __shared__ unsigned long long sh[];
  unsigned long long* acc = sh + threadIdx.x * (1 + MAX_AGGS);
  for (int w = 0; w <= p.naggs; w++) acc[w] = 0ULL;
  const long long tile = (long long)blockDim.x * IT;
  for (long long base = (long long)blockIdx.x * tile; base < p.n; base += (long long)gridDim.x * tile) {
    if (star_tile_dead(p, base)) continue;
    const long long i0 = base + (long long)threadIdx.x * IT;
    const long long left = p.n - i0;
    if (left <= 0) continue;
    const bool full = left >= IT;
    unsigned m = (1u << (full ? IT : left)) - 1u;  // IT < 32
    m = scan_filters<F, IT>(p, i0, full, m);
    if (m == 0u) continue;
    acc[0] += (unsigned)__popc(m);
#pragma unroll 1
    for (int j = 0; j < p.naggs; j++) {
      const Agg& a = p.aggs[j];
      acc[1 + j] += a.fn == AGG_SUM ? scan_sum<F, IT>(a, i0, full, m) : (unsigned long long)__popc(m);
    }
  }
  star_finish<true>(p, sh, acc, 0, threadIdx.x & 31);
}

#define STAR_SCAN(NAME, F) \
  extern "C" __global__ void __launch_bounds__(256) NAME(const StarParams p) { star_scan_body<F, SCAN_IT>(p); }
STAR_SCAN(star_scan_f0, 0)
STAR_SCAN(star_scan_f32, FAST_NEED_NARROW)
