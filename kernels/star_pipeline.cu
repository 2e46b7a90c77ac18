// star_pipeline: the whole fact-table pipeline of a star query in one kernel
// (scan → filters → dimension probes → group-by aggregate), so no
// intermediate result touches memory (Kaldewey et al., "GPU join processing
// revisited", DaMoN 2012; Shanbhag et al., "A study of the fundamental
// performance characteristics of GPUs and CPUs for database analytics"
// (Crystal), SIGMOD 2020).
//
// Per fact row it reads: each predicate column (4 B each when narrowed),
// then — only while the row is alive — each dimension key and a 4 B map
// entry (the maps are small and stay in L2), the group columns and the
// aggregate arguments; it writes nothing but atomics into the group table.
// A thread handles ITEMS consecutive rows of a blockDim*ITEMS tile, read
// with 16-byte vector loads (common.cuh, "Tile loads"); predicates are
// evaluated column by column over the tile (Crystal's BlockPred), so a
// column's loads for all ITEMS rows are in flight together. Launch: 256
// threads per block, ITEMS = 4, 8 (default) or 16 (fast path only), a
// persistent grid of SMs x resident blocks looping over tiles, so the
// per-block flush of a shared-memory group table is paid a few hundred
// times, not once per tile. Dimensions are probed most selective first
// (the host orders them).
//
// Aggregation: one group → per-thread accumulators (in shared memory,
// indexed by aggregate), warp-shuffle reduce, one atomic per warp and slot. Few groups → the group table is replicated
// sharedReplicas times in shared memory, lane l of every warp updating
// replica l % sharedReplicas, so lanes that hit the same group (35 groups of
// SSB Q4.1) do not serialize on one address (Sitaridi & Ross, "Ameliorating
// memory contention of OLAP operators on GPU processors", DaMoN 2012);
// replicas are merged and flushed with one global atomic per non-empty slot.
// Many groups → global atomics straight into the table (L2-resident for
// tables up to tens of MB). A group table the plan lays out by a fact
// group column's remap (planner/gpu_group_remap.go) is one shared copy
// whose outermost digit is the row's slot, read from the remap's slot
// column: rows of a warp on one hot value update different copies in
// distinct banks, and the flush adds each copy into its value's group.
//
// Remapped dimension payloads (planner/gpu_payload.go): for a dimension
// whose fact key has a replica-remapped twin (storage/columnar/remap.go),
// the kernel reads the fact rows' slots instead of their keys and the
// payloads from a per-block shared-memory table in the remap's layout
// (load_remapped_dims), so the 32 rows of a warp hit distinct banks
// instead of random words of the L2-resident map.
//
// Packed fact columns (common.cuh, load_packed; planner/gpu_packing.go)
// are read at their packed width, b bits a row plus a frame per 4,096
// rows, and decoded in registers by the fast kernels compiled for them
// (FAST_NEED_PACKED: a lane-interleaved row map, so a warp's packed loads
// are whole lines): the bound below then counts b/8 bytes a row, not 4
// (SSB: lo_discount 4 bits, lo_quantity 6).
//
// Narrow fact columns (common.cuh, load_narrow; planner/gpu_narrow.go),
// the form placement gives a column whose values span at most 16 bits
// within each 65,536-row chunk when the 4-byte forms do not fit, are read at 1 or 2 bytes a row in the ordinary
// row map, 8 rows in one 8- or 16-byte vector load, and cost a byte
// extract and an add a row (FAST_NEED_NARROW): SSB's lo_discount,
// lo_quantity and lo_tax take 1 byte, lo_orderdate and (up to SF 30)
// lo_suppkey 2.
//
// Bound: device memory bandwidth for the columns read (H100 SXM HBM3: 3.35
// TB/s peak, 2.7 TB/s measured by bandwidth_probe.cu; SSB Q1.x reads at most
// 4 columns x 4 B per row = 0.96 GB at SF10 → ~0.35 ms, less with sectors
// skipped). The first dimension probe reads a 4 B map entry per surviving
// row at random (L2-resident maps: L2 bandwidth); few-group tables bound on
// shared-memory atomic throughput; large tables on L2 atomic throughput.
// Measured at SF10 (fast path, 256 x 8), the kernels are bound by the
// instructions they issue a row more than by bytes: Q1.2 read 37 % of the
// HBM limit and took as long as when it read 88 %. So the fast path keeps
// each predicate and probe to a few instructions a row (parameters read
// once a tile, 32-bit compares, predicated loads, no select a row) and a
// thread stops a tile once none of its rows is alive. H100, SSB SF 10:
// Q2.x 0.19-0.42 ms, Q3.x 0.15-0.44, Q4.x 0.28-0.39 (Q1.x, one group, runs
// in star_scan.cuh: 0.11-0.20 ms).
#include "common.cuh"

struct StarParams {
  long long n;
  int npreds, ndims, ngcols, naggs;
  Pred preds[MAX_PREDS];
  Dim dims[MAX_DIMS];
  GCol gcols[MAX_GCOLS];
  Agg aggs[MAX_AGGS];
  unsigned long long* table;  // ngroups x (1 + naggs) slots: row count, then aggregates
  long long ngroups;
  long long replicaStride;    // slots between shared replicas (odd, to spread banks)
  int sharedReplicas;         // 0: aggregate with global atomics
  int dimSh;                  // first int of the remapped dimension payloads in shared memory
  long long shGroups;         // groups of the shared table (ngroups unless remapped)
  // A group table laid out by a fact group column's remap (the group
  // index's outermost digit is the row's slot): slot s holds value code
  // groupSlotValue[s] (-1: unused), groupRemapStride groups apart.
  const int* groupSlotValue;
  long long groupRemapStride;
  // Zone maps (planner/gpu_zone_maps.go): bit c is set when chunk c
  // (ZONE_CHUNK_ROWS rows) may hold rows the fact filters keep; 0: every
  // chunk.
  const unsigned* liveChunks;
};

// star_tile_dead reports whether the zone maps ruled out the chunk of the
// tile at row base: the grid strides over every tile as without them,
// and a dead tile costs a cached bit test, no column reads.
__device__ __forceinline__ bool star_tile_dead(const StarParams& p, long long base) {
  if (p.liveChunks == 0) return false;
  const long long c = base / ZONE_CHUNK_ROWS;
  return ((__ldg(p.liveChunks + (c >> 5)) >> (c & 31)) & 1u) == 0;
}

extern "C" __global__ void star_params_size(long long* out) { *out = sizeof(StarParams); }

// load_remapped_dims copies the payload of each remapped dimension into
// its shared-memory table, slot by slot (a key whose row the dimension's
// filters removed, or that has none, reads -1, like the global map), so
// that the probes index it by the fact row's slot. Each block loads a
// few KB once; the rows it scans then hit distinct banks (Sitaridi &
// Ross). p.dimSh is past the group table or the per-thread accumulators.
__device__ __forceinline__ void load_remapped_dims(const StarParams& p, int* dsh) {
  bool any = false;
  for (int d = 0; d < p.ndims; d++) {
    const Dim& dm = p.dims[d];
    if (dm.slotValue == 0) continue;
    any = true;
    for (int s = threadIdx.x; s < dm.nslots; s += blockDim.x) {
      int code = __ldg(dm.slotValue + s);
      long long o = (long long)code + dm.remapMin - dm.keyMin;
      dsh[dm.shOffset + s] = code >= 0 && code != dm.nullCode && o >= 0 && o < dm.mapLen ? __ldg(dm.map + o) : -1;
    }
  }
  if (any) __syncthreads();
}

__device__ __forceinline__ unsigned long long slot_identity(const StarParams& p, int w) {
  return w == 0 ? 0ULL : agg_identity(p.aggs[w - 1]);
}

// agg_items evaluates aggregate a's argument for the live rows of a tile;
// ok[k] is false for dead rows and NULL arguments.
template <int IT>
__device__ __forceinline__ void agg_items(const Agg& a, long long i0, bool full, const bool* alive, unsigned long long* val, bool* ok) {
  if (a.fn == AGG_COUNT_STAR) {
#pragma unroll
    for (int k = 0; k < IT; k++) {
      ok[k] = alive[k];
      val[k] = 1;
    }
    return;
  }
  bool nb[IT];
  load_valid<IT>(a.a, i0, alive, ok);
  if (a.op != EXPR_A) {
    load_valid<IT>(a.b, i0, alive, nb);
#pragma unroll
    for (int k = 0; k < IT; k++) ok[k] = ok[k] && nb[k];
  }
#pragma unroll
  for (int k = 0; k < IT; k++) ok[k] = ok[k] && alive[k];
  if (a.fn == AGG_COUNT) {
#pragma unroll
    for (int k = 0; k < IT; k++) val[k] = 1;
    return;
  }
  if (a.isFloat) {
    double x[IT], y[IT];
    load_f<IT>(a.a, i0, full, ok, x);
    if (a.op != EXPR_A) load_f<IT>(a.b, i0, full, ok, y);
#pragma unroll
    for (int k = 0; k < IT; k++) {
      double r = x[k];
      if (a.op == EXPR_MUL) r *= y[k];
      else if (a.op == EXPR_SUB) r -= y[k];
      else if (a.op == EXPR_ADD) r += y[k];
      val[k] = (unsigned long long)__double_as_longlong(r);
    }
    return;
  }
  long long x[IT], y[IT];
  load_i<IT>(a.a, i0, full, ok, x);
  if (a.op != EXPR_A) load_i<IT>(a.b, i0, full, ok, y);
#pragma unroll
  for (int k = 0; k < IT; k++) {
    long long r = x[k];
    if (!ok[k]) r = 0;  // dead and NULL rows hold whatever was loaded
    else if (a.op == EXPR_MUL) r = mul_ck(r, y[k]);
    else if (a.op == EXPR_SUB) r = sub_ck(r, y[k]);
    else if (a.op == EXPR_ADD) r = add_ck(r, y[k]);
    val[k] = (unsigned long long)r;
  }
}

// star_finish merges a block's partial aggregates into the global table:
// warp-reduced registers for one group, merged shared replicas otherwise.
template <bool SINGLE>
__device__ __forceinline__ void star_finish(const StarParams& p, unsigned long long* sh, unsigned long long* acc, int R, int lane) {
  const int W = 1 + p.naggs;
  const bool single = SINGLE;
  if (single) {
    // Warp reduce, then one atomic per warp and slot. COUNT(*)/COUNT fold
    // like sums (agg_fold's default).
    for (int w = 0; w <= p.naggs; w++) {
      unsigned long long v = acc[w];
      for (int off = 16; off > 0; off >>= 1) {
        unsigned long long o = __shfl_down_sync(0xffffffffu, v, off);
        v = w == 0 ? v + o : agg_fold(p.aggs[w - 1], v, o);
      }
      if (lane == 0) {
        if (w == 0) atomicAdd(p.table, v);
        else agg_combine(p.aggs[w - 1], p.table + w, v);
      }
    }
    return;
  }
  if (R > 0) {
    __syncthreads();
    const long long shSlots = p.shGroups * W;
    for (long long s = threadIdx.x; s < shSlots; s += blockDim.x) {
      long long gbase = s - s % W;
      unsigned long long rows = 0;
      for (int r = 0; r < R; r++) rows += sh[r * p.replicaStride + gbase];
      if (rows == 0) continue;
      int w = (int)(s % W);
      long long dst = s;
      if (p.groupSlotValue) {  // a copy of a remapped value: into the value's group
        long long grp = s / W;
        int code = __ldg(p.groupSlotValue + grp / p.groupRemapStride);
        if (code < 0) continue;
        dst = ((long long)code * p.groupRemapStride + grp % p.groupRemapStride) * W + w;
      }
      if (w == 0) {
        atomicAdd(p.table + dst, rows);
        continue;
      }
      const Agg& a = p.aggs[w - 1];
      unsigned long long v = sh[s];
      for (int r = 1; r < R; r++) v = agg_fold(a, v, sh[r * p.replicaStride + s]);
      agg_combine(a, p.table + dst, v);
    }
  }
}

template <bool SINGLE, int IT>
__device__ __forceinline__ void star_body(const StarParams& p) {
  extern __shared__ unsigned long long sh[];
  const int W = 1 + p.naggs;
  const long long slots = p.shGroups * W;  // of the shared table
  const int R = p.sharedReplicas;
  const int lane = threadIdx.x & 31;
  const bool single = SINGLE;

  if (R > 0) {
    for (long long s = threadIdx.x; s < (long long)R * p.replicaStride; s += blockDim.x) {
      long long within = s % p.replicaStride;
      sh[s] = within < slots ? slot_identity(p, (int)(within % W)) : 0ULL;
    }
    __syncthreads();
  }
  unsigned long long* tab = R > 0 ? sh + (long long)(lane % R) * p.replicaStride : p.table;
  int* dsh = (int*)sh + p.dimSh;
  load_remapped_dims(p, dsh);

  // One group: each thread folds into its own accumulators, kept in shared
  // memory (indexed by aggregate at run time, which registers cannot be).
  unsigned long long* acc = sh + threadIdx.x * (1 + MAX_AGGS);
  if (single)
    for (int w = 0; w <= p.naggs; w++) acc[w] = w == 0 ? 0ULL : agg_identity(p.aggs[w - 1]);

  const long long tile = (long long)blockDim.x * IT;
  for (long long base = (long long)blockIdx.x * tile; base < p.n; base += (long long)gridDim.x * tile) {
    if (star_tile_dead(p, base)) continue;
    const long long i0 = base + (long long)threadIdx.x * IT;
    const bool full = i0 + IT <= p.n;
    unsigned int g[IT];
    bool alive[IT];
#pragma unroll
    for (int k = 0; k < IT; k++) {
      alive[k] = i0 + k < p.n;
      g[k] = 0;
    }
#pragma unroll 1
    for (int q = 0; q < p.npreds; q++) pred_items<IT>(p.preds[q], i0, full, alive);
#pragma unroll 1
    for (int d = 0; d < p.ndims; d++) {
      const Dim& dm = p.dims[d];
      bool nn[IT];
      long long key[IT];
      load_valid<IT>(dm.key, i0, alive, nn);
      load_i<IT>(dm.key, i0, full, alive, key);
      int v[IT];
      if (dm.slotValue) {
#pragma unroll
        for (int k = 0; k < IT; k++) v[k] = alive[k] ? dsh[dm.shOffset + (int)key[k]] : -1;
      } else if (dm.hkeys == 0) {
#pragma unroll
        for (int k = 0; k < IT; k++) {
          long long o = key[k] - dm.keyMin;
          bool in = alive[k] && nn[k] && o >= 0 && o < dm.mapLen && dim_bit(dm, (unsigned long long)o);
          v[k] = !in ? -1 : dm.bitsOnly ? 0 : __ldg(dm.map + o);
        }
      } else {
#pragma unroll
        for (int k = 0; k < IT; k++) v[k] = alive[k] && nn[k] ? dim_probe(dm, key[k]) : -1;
      }
#pragma unroll
      for (int k = 0; k < IT; k++) {
        alive[k] = alive[k] && v[k] >= 0;
        g[k] += (unsigned int)v[k] * (unsigned int)dm.stride;
      }
    }
#pragma unroll 1
    for (int c = 0; c < p.ngcols; c++) {
      const GCol& gc = p.gcols[c];
      bool nn[IT];
      long long v[IT];
      load_valid<IT>(gc.col, i0, alive, nn);
      load_i<IT>(gc.col, i0, full, alive, v);
#pragma unroll
      for (int k = 0; k < IT; k++) g[k] += (unsigned int)((nn[k] ? v[k] - gc.min : gc.nullSlot) * gc.stride);
    }
    if (single) {
#pragma unroll
      for (int k = 0; k < IT; k++) acc[0] += alive[k] ? 1 : 0;
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++)
        if (alive[k]) atomicAdd(tab + (long long)g[k] * W, 1ULL);
    }
#pragma unroll 1
    for (int j = 0; j < p.naggs; j++) {
      const Agg& a = p.aggs[j];
      unsigned long long val[IT];
      bool ok[IT];
      agg_items<IT>(a, i0, full, alive, val, ok);
      if (single) {
        unsigned long long s = acc[1 + j];
#pragma unroll
        for (int k = 0; k < IT; k++)
          if (ok[k]) s = agg_fold(a, s, val[k]);
        acc[1 + j] = s;
      } else {
#pragma unroll
        for (int k = 0; k < IT; k++)
          if (ok[k]) agg_combine(a, tab + (long long)g[k] * W + 1 + j, val[k]);
      }
    }
  }

  star_finish<SINGLE>(p, sh, acc, R, lane);
}

// Two instantiations: registers for one group (no GROUP BY), and the
// group table (shared replicas or global) otherwise; splitting them keeps
// each kernel's register count, hence its occupancy, where it should be.
// ITEMS rows per thread (4 or 8) is a launch-time choice: more rows give
// more loads in flight per thread but cost registers, hence occupancy.
extern "C" __global__ void __launch_bounds__(256, 3) star_pipeline_4(const StarParams p) { star_body<false, 4>(p); }
extern "C" __global__ void __launch_bounds__(256, 2) star_pipeline_8(const StarParams p) { star_body<false, 8>(p); }
extern "C" __global__ void __launch_bounds__(256, 3) star_pipeline_scalar_4(const StarParams p) { star_body<true, 4>(p); }
extern "C" __global__ void __launch_bounds__(256, 2) star_pipeline_scalar_8(const StarParams p) { star_body<true, 8>(p); }

// group_init sets every slot of a global group table to its identity.
extern "C" __global__ void group_init(const StarParams p) {
  const int W = 1 + p.naggs;
  const long long slots = p.ngroups * W;
  for (long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x; s < slots; s += (long long)gridDim.x * blockDim.x)
    p.table[s] = slot_identity(p, (int)(s % W));
}

// ---------------------------------------------------------------------------
// Fast path: the same pipeline specialized, at compile time, for the common
// case the host checks before choosing it — every fact column it reads is
// 4 bytes wide (narrowed BIGINTs included; packed columns decode to 4
// bytes) and has no NULLs, predicates are
// ranges or code sets, aggregates are integer. Values then live in 32-bit
// registers and no validity or float code is generated; the kernel needs
// far fewer registers, so more threads (and more loads in flight) fit per
// SM, which is what a bandwidth-bound scan is short of on H100.
//
// The fast kernels are further compiled per feature set F (FAST_NEED_*),
// the host naming the smallest that covers the plan (star_launch.go):
// every feature the kernel may meet is a branch in its inner loops, and
// measured on the H200 at SSB SF 10 the kernels without packed columns,
// remapped payloads, hash tables, bitmaps or overflow-checked aggregates
// ran the 13 queries' fact kernels in 4.82 ms against 5.84 ms for the one
// kernel that handles them all — the branches cost more than their tests:
// they keep the loads of a column from being scheduled together.
#define FAST_NEED_BITS 1   // some dimension has a bitmap (kernels/dim_bits.cu)
#define FAST_NEED_AGGS 2   // some aggregate is MIN/MAX or a SUM that could overflow
#define FAST_NEED_EXT 4    // remapped dimension payloads
#define FAST_NEED_HASH 8   // some dimension is a hash table
#define FAST_NEED_PACKED 16  // packed columns: the lane-interleaved row map
#define FAST_NEED_NARROW 32  // narrow columns: 1 or 2 bytes a row (common.cuh, load_narrow)
#define FAST_ALL (15 | FAST_NEED_NARROW)

// The fast kernels' row map. Without packed columns a thread holds IT
// consecutive rows (16-byte vector loads); with them (FAST_NEED_PACKED) it
// holds rows i0 + 32k, consecutive slots of one lane of a packed group
// (storage/columnar/packed.go), so that every packed word a warp loads is
// one 128-byte line, and the plain 4-byte columns are read by the same map
// (each load of a warp: 32 consecutive rows, one line). A tile is blockDim
// x IT rows, whole 1,024-row groups (256 x 4 at least): warp w takes
// group w / (32/IT) of the tile, slots (w % (32/IT)) * IT on.
template <int IT, int F>
__device__ __forceinline__ long long fast_first_row(long long base) {
  if (!(F & FAST_NEED_PACKED)) return base + (long long)threadIdx.x * IT;
  const int warp = threadIdx.x >> 5, per = 32 / IT;
  return base + (long long)(warp / per) * 1024 + (warp % per) * IT * 32 + (threadIdx.x & 31);
}

// fast_row_step is the distance between a thread's rows.
template <int F>
__device__ __forceinline__ constexpr int fast_row_step() { return (F & FAST_NEED_PACKED) ? 32 : 1; }

// load32 reads a thread's IT rows of a 4-byte (or narrow, or packed) fact
// column. Every caller has a live row or (the tile's first column) rows past the
// table's end, which the row-by-row path does not load: a thread with no
// live row left has stopped (fast_preds, fast_dims), so a column's later
// sectors are read only where a row is alive. Only a packed column needs
// the test, for its group's frame.
template <int IT, int F>
__device__ __forceinline__ void load32(const Col& c, long long i0, bool full, const bool* alive, int* v) {
  if ((F & FAST_NEED_NARROW) && c.width < 4) {
    load_narrow<IT, fast_row_step<F>()>(c, i0, full, alive, v);
    return;
  }
  const int* d = (const int*)c.data + i0;
  if (F & FAST_NEED_PACKED) {
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = 0;
    if (!any_alive<IT>(alive)) return;
    if (c.frame) {
      load_packed<IT>(c, i0, v, alive);
      return;
    }
    // A dead row's lane skips its load: 8 such lanes side by side are a
    // sector not fetched.
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = alive[k] ? __ldg(d + 32 * k) : 0;
    return;
  }
  if (full) {
#pragma unroll
    for (int q = 0; q < IT / 4; q++) {
      spread4(v + 4 * q, __ldg((const int4*)d + q));
    }
  } else {
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = alive[k] ? __ldg(d + k) : 0;
  }
}

// fast_preds applies the fact table's predicates to a tile's rows. It
// runs for every row of every tile, so each test is kept to a few
// instructions a row: a range is one unsigned compare of v - lo against
// hi - lo, a set's parameters are read once a tile (32-bit length), and
// negation is a branch around the rows, not an XOR in each.
template <int IT, int F>
__device__ __forceinline__ void fast_preds(const StarParams& p, long long i0, bool full, bool* alive) {
#pragma unroll 1
  for (int q = 0; q < p.npreds; q++) {
    const Pred& pr = p.preds[q];
    int v[IT];
    load32<IT, F>(pr.col, i0, full, alive, v);
    const unsigned lo = (unsigned)(int)pr.lo;
    bool pass[IT];
    if (pr.kind == PRED_RANGE) {
      // fastEligible leaves an empty range as lo 1, hi 0.
      const bool empty = (int)pr.lo > (int)pr.hi;
      const unsigned span = (unsigned)(int)pr.hi - lo;
#pragma unroll
      for (int k = 0; k < IT; k++) pass[k] = !empty && (unsigned)v[k] - lo <= span;
    } else {
      const unsigned* set = pr.set;
      const unsigned len = pr.setLen > 0xffffffffLL ? 0xffffffffu : (unsigned)pr.setLen;
#pragma unroll
      for (int k = 0; k < IT; k++) {
        const unsigned o = (unsigned)v[k] - lo;
        const bool in = alive[k] && o < len;
        const unsigned w = in ? __ldg(set + (o >> 5)) : 0u;
        pass[k] = (w >> (o & 31)) & 1u;
      }
    }
    if (pr.negate) {
#pragma unroll
      for (int k = 0; k < IT; k++) alive[k] = alive[k] && !pass[k];
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++) alive[k] = alive[k] && pass[k];
    }
    // (After the last one the caller tests it.)
    if (q + 1 < p.npreds && !any_alive<IT>(alive)) return;
  }
}

// fast_dims probes the dimensions for a tile's live rows, adding each
// one's payload digit to the rows' group index.
template <int IT, int F>
__device__ __forceinline__ void fast_dims(const StarParams& p, const int* dsh, long long i0, bool full, bool* alive, unsigned int* g) {
#pragma unroll 1
  for (int d = 0; d < p.ndims; d++) {
    const Dim& dm = p.dims[d];
    int key[IT];
    load32<IT, F>(dm.key, i0, full, alive, key);
    int v[IT];
    if ((F & FAST_NEED_EXT) && dm.slotValue) {
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = alive[k] ? dsh[dm.shOffset + key[k]] : -1;
    } else if (!(F & FAST_NEED_HASH) || dm.hkeys == 0) {
      // The table's parameters in registers, read once a tile: the
      // loads below are then predicated, not a branch a row.
      const unsigned kmin = (unsigned)(int)dm.keyMin;
      const unsigned len = dm.mapLen > 0xffffffffLL ? 0xffffffffu : (unsigned)dm.mapLen;
      const int* map = dm.map;
      const unsigned* bits = (F & FAST_NEED_BITS) ? dm.bits : 0;
      const bool bitsOnly = (F & FAST_NEED_BITS) && dm.bitsOnly;
#pragma unroll
      for (int k = 0; k < IT; k++) {
        const unsigned o = (unsigned)key[k] - kmin;
        bool in = alive[k] && o < len;
        if (bits) in = in && ((__ldg(bits + (o >> 5)) >> (o & 31)) & 1u);
        v[k] = !in ? -1 : bitsOnly ? 0 : __ldg(map + o);
      }
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = alive[k] ? dim_probe(dm, key[k]) : -1;
    }
#pragma unroll
    for (int k = 0; k < IT; k++) {
      alive[k] = alive[k] && v[k] >= 0;
      g[k] += (unsigned int)v[k] * (unsigned int)dm.stride;
    }
    if (d + 1 < p.ndims && !any_alive<IT>(alive)) return;
  }
}

// fast_aggs folds a tile's live rows into the aggregates: per-thread
// accumulators (SINGLE) or the group table. Without FAST_NEED_AGGS every
// aggregate is a COUNT or a SUM the host proved cannot overflow, so a sum
// is a plain add and an atomic whose old value nobody reads.
template <bool SINGLE, int IT, int F>
__device__ __forceinline__ void fast_aggs(const StarParams& p, long long i0, bool full, const bool* alive, const unsigned int* g,
                                          unsigned long long* acc, unsigned long long* tab) {
  const int W = 1 + p.naggs;
#pragma unroll 1
  for (int j = 0; j < p.naggs; j++) {
    const Agg& a = p.aggs[j];
    long long val[IT];
    if (a.fn == AGG_COUNT_STAR || a.fn == AGG_COUNT) {
#pragma unroll
      for (int k = 0; k < IT; k++) val[k] = 1;
    } else {
      int x[IT];
      load32<IT, F>(a.a, i0, full, alive, x);
      if (a.op == EXPR_A) {
#pragma unroll
        for (int k = 0; k < IT; k++) val[k] = x[k];
      } else {
        int y[IT];
        load32<IT, F>(a.b, i0, full, alive, y);
#pragma unroll
        for (int k = 0; k < IT; k++) {
          long long l = x[k], r = y[k];
          val[k] = a.op == EXPR_MUL ? l * r : a.op == EXPR_SUB ? l - r : l + r;
        }
      }
    }
    if (SINGLE) {
      unsigned long long s = acc[1 + j];
#pragma unroll
      for (int k = 0; k < IT; k++)
        if (alive[k]) s = (F & FAST_NEED_AGGS) ? agg_fold(a, s, (unsigned long long)val[k]) : s + (unsigned long long)val[k];
      acc[1 + j] = s;
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++) {
        if (!alive[k]) continue;
        unsigned long long* slot = tab + (long long)g[k] * W + 1 + j;
        if (F & FAST_NEED_AGGS)
          agg_combine(a, slot, (unsigned long long)val[k]);
        else
          atomicAdd(slot, (unsigned long long)val[k]);
      }
    }
  }
}

template <bool SINGLE, int IT, int F>
__device__ __forceinline__ void star_fast_body(const StarParams& p) {
  extern __shared__ unsigned long long sh[];
  const int W = 1 + p.naggs;
  const long long slots = p.shGroups * W;  // of the shared table
  const int R = p.sharedReplicas;
  const int lane = threadIdx.x & 31;
  if (!SINGLE && R > 0) {
    for (long long s = threadIdx.x; s < (long long)R * p.replicaStride; s += blockDim.x) {
      long long within = s % p.replicaStride;
      sh[s] = within < slots ? slot_identity(p, (int)(within % W)) : 0ULL;
    }
    __syncthreads();
  }
  unsigned long long* tab = R > 0 ? sh + (long long)(lane % R) * p.replicaStride : p.table;
  unsigned long long* acc = sh + threadIdx.x * (1 + MAX_AGGS);
  int* dsh = (int*)sh + p.dimSh;
  if (F & FAST_NEED_EXT) load_remapped_dims(p, dsh);
  if (SINGLE)
    for (int w = 0; w <= p.naggs; w++) acc[w] = w == 0 ? 0ULL : agg_identity(p.aggs[w - 1]);

  const long long tile = (long long)blockDim.x * IT;
  for (long long base = (long long)blockIdx.x * tile; base < p.n; base += (long long)gridDim.x * tile) {
    if (star_tile_dead(p, base)) continue;
    const long long i0 = fast_first_row<IT, F>(base);
    const int step = fast_row_step<F>();
    // This thread's rows in the table: one 64-bit difference, then
    // 32-bit compares.
    const long long left = p.n - i0;
    const int inTable = left <= 0 ? 0 : left > (long long)(IT - 1) * step ? IT : (int)((left - 1) / step + 1);
    const bool full = inTable == IT;
    unsigned int g[IT];
    bool alive[IT];
#pragma unroll
    for (int k = 0; k < IT; k++) {
      alive[k] = k < inTable;
      g[k] = 0;
    }
    fast_preds<IT, F>(p, i0, full, alive);
    // A thread none of whose rows passed has nothing to add: a warp all
    // of whose threads are in that case skips the tile's remaining work.
    if (!any_alive<IT>(alive)) continue;
    fast_dims<IT, F>(p, dsh, i0, full, alive, g);
    if (!any_alive<IT>(alive)) continue;
#pragma unroll 1
    for (int c = 0; c < p.ngcols; c++) {
      const GCol& gc = p.gcols[c];
      int v[IT];
      load32<IT, F>(gc.col, i0, full, alive, v);
#pragma unroll
      for (int k = 0; k < IT; k++) g[k] += (unsigned int)(v[k] - (int)gc.min) * (unsigned int)gc.stride;
    }
    if (SINGLE) {
      unsigned int c = 0;
#pragma unroll
      for (int k = 0; k < IT; k++) c += alive[k] ? 1u : 0u;
      acc[0] += c;
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++)
        if (alive[k]) atomicAdd(tab + (long long)g[k] * W, 1ULL);
    }
    fast_aggs<SINGLE, IT, F>(p, i0, full, alive, g, acc, tab);
  }
  star_finish<SINGLE>(p, sh, acc, R, lane);
}

// Every shape (4, 8, 16 rows a thread) with every feature; at the default
// 8 rows also each feature set without hash tables:
// star_fast[_scalar]_8_f<F>.
#define STAR_FAST(NAME, SINGLE, IT, F, ...) \
  extern "C" __global__ void __launch_bounds__(256 __VA_ARGS__) NAME(const StarParams p) { star_fast_body<SINGLE, IT, F>(p); }
STAR_FAST(star_fast_4, false, 4, FAST_ALL)
STAR_FAST(star_fast_8, false, 8, FAST_ALL)
STAR_FAST(star_fast_16, false, 16, FAST_ALL)
STAR_FAST(star_fast_scalar_4, true, 4, FAST_ALL)
STAR_FAST(star_fast_scalar_8, true, 8, FAST_ALL)
STAR_FAST(star_fast_scalar_16, true, 16, FAST_ALL)
STAR_FAST(star_fast_8_f0, false, 8, 0, , 4)
STAR_FAST(star_fast_8_f1, false, 8, 1, , 4)
STAR_FAST(star_fast_8_f2, false, 8, 2)
STAR_FAST(star_fast_8_f3, false, 8, 3)
STAR_FAST(star_fast_8_f4, false, 8, 4)
STAR_FAST(star_fast_8_f5, false, 8, 5)
STAR_FAST(star_fast_8_f6, false, 8, 6)
STAR_FAST(star_fast_8_f7, false, 8, 7)
STAR_FAST(star_fast_scalar_8_f0, true, 8, 0, , 4)
STAR_FAST(star_fast_scalar_8_f1, true, 8, 1, , 4)
STAR_FAST(star_fast_scalar_8_f2, true, 8, 2, , 4)
STAR_FAST(star_fast_scalar_8_f3, true, 8, 3, , 4)
STAR_FAST(star_fast_scalar_8_f4, true, 8, 4, , 4)
STAR_FAST(star_fast_scalar_8_f5, true, 8, 5, , 4)
STAR_FAST(star_fast_scalar_8_f6, true, 8, 6, , 4)
STAR_FAST(star_fast_scalar_8_f7, true, 8, 7, , 4)
// With packed columns: the feature sets without hash tables at 8 rows,
// and every feature at 4, 8 and 16 (star_fast[_scalar]_<IT>_f63).
STAR_FAST(star_fast_8_f16, false, 8, 16)
STAR_FAST(star_fast_8_f17, false, 8, 17)
STAR_FAST(star_fast_8_f18, false, 8, 18)
STAR_FAST(star_fast_8_f19, false, 8, 19)
STAR_FAST(star_fast_8_f20, false, 8, 20)
STAR_FAST(star_fast_8_f21, false, 8, 21)
STAR_FAST(star_fast_8_f22, false, 8, 22)
STAR_FAST(star_fast_8_f23, false, 8, 23)
STAR_FAST(star_fast_scalar_8_f16, true, 8, 16, , 4)
STAR_FAST(star_fast_scalar_8_f17, true, 8, 17, , 4)
STAR_FAST(star_fast_scalar_8_f18, true, 8, 18, , 4)
STAR_FAST(star_fast_scalar_8_f19, true, 8, 19, , 4)
STAR_FAST(star_fast_scalar_8_f20, true, 8, 20, , 4)
STAR_FAST(star_fast_scalar_8_f21, true, 8, 21, , 4)
STAR_FAST(star_fast_scalar_8_f22, true, 8, 22, , 4)
STAR_FAST(star_fast_scalar_8_f23, true, 8, 23, , 4)
STAR_FAST(star_fast_4_f63, false, 4, 63)
STAR_FAST(star_fast_8_f63, false, 8, 63)
STAR_FAST(star_fast_16_f63, false, 16, 63)
STAR_FAST(star_fast_scalar_4_f63, true, 4, 63)
STAR_FAST(star_fast_scalar_8_f63, true, 8, 63)
STAR_FAST(star_fast_scalar_16_f63, true, 16, 63)
// With narrow columns: the feature sets without hash tables at 8 rows
// (the kernels above without _f take narrow columns too).
STAR_FAST(star_fast_8_f32, false, 8, 32, , 4)
STAR_FAST(star_fast_8_f33, false, 8, 33, , 4)
STAR_FAST(star_fast_8_f34, false, 8, 34)
STAR_FAST(star_fast_8_f35, false, 8, 35)
STAR_FAST(star_fast_8_f36, false, 8, 36)
STAR_FAST(star_fast_8_f37, false, 8, 37)
STAR_FAST(star_fast_8_f38, false, 8, 38)
STAR_FAST(star_fast_8_f39, false, 8, 39)
STAR_FAST(star_fast_scalar_8_f32, true, 8, 32, , 4)
STAR_FAST(star_fast_scalar_8_f33, true, 8, 33, , 4)
STAR_FAST(star_fast_scalar_8_f34, true, 8, 34, , 4)
STAR_FAST(star_fast_scalar_8_f35, true, 8, 35, , 4)
STAR_FAST(star_fast_scalar_8_f36, true, 8, 36, , 4)
STAR_FAST(star_fast_scalar_8_f37, true, 8, 37, , 4)
STAR_FAST(star_fast_scalar_8_f38, true, 8, 38, , 4)
STAR_FAST(star_fast_scalar_8_f39, true, 8, 39, , 4)
// One group, dimensions that only filter: the star_scan kernels.
#include "star_scan.cuh"
