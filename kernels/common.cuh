// Shared device-side types of the gpusql kernels. Every struct here has a
// byte-for-byte twin in exec/gpu/params.go (the Go side fills it and passes
// it by value through cuLaunchKernel's parameter buffer, up to 4 KB), so a
// change here must be mirrored there; exec/gpu's TestParamLayout checks the
// sizes against the sizes these kernels report through param_sizes().
#pragma once
#include <stdint.h>

#define MAX_PREDS 8
// The rows of a statistics chunk (columnar.ChunkRows): zone maps skip whole ones.
#define ZONE_CHUNK_ROWS 65536
#define MAX_DIMS 4
#define MAX_GCOLS 4
#define MAX_AGGS 8
#define THREADS 256  // threads per block of the simple kernels
#define EMPTY_KEY ((long long)0x8000000000000000LL)

// Col is a device view of one column vector: 4- or 8-byte values (integers
// narrowed to 32 bits when they fit, codes, dates, doubles) and an optional
// validity bitmap (bit set = not NULL).
//
// A packed column (frame set; storage/columnar/packed.go) holds 32-bit
// values as bits-bit offsets from a frame of reference per 2^shift rows,
// lane-interleaved: in each group of 1,024 rows, row 32s + l is slot s of
// lane l, lane l's slots are one bit stream (slot s at bit s*bits, low
// bits first, possibly straddling two words) and its word j is the
// group's word 32j + l, so a warp reading word j of its 32 lanes reads one
// 128-byte line. width is 4 (the decoded values'). The plan packs only the
// fused star kernel's resident fact columns; ldi and the tile loads
// decode them in registers.
//
// A narrow column (frame set, width 1 or 2; exec/gpu/column_narrow.go)
// holds each value as its unsigned offset from the frame of its 2^shift
// rows in width bytes, row after row: the byte-aligned form of packing,
// which a tile load reads with one vector load and decodes with a byte
// extract and an add.
struct Col {
  const void* data;
  const unsigned long long* valid;
  int width;
  int isFloat;
  const int* frame;
  int bits;
  int shift;
};

__device__ __forceinline__ unsigned packed_mask(int bits) { return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u; }

// ld_packed decodes row i of a packed column: one or two word loads, a
// funnel shift, the frame added in 32 bits (a chunk's offsets may span the
// whole int32 range, so the sum wraps).
__device__ __forceinline__ int ld_packed(const Col& c, long long i) {
  const unsigned b = (unsigned)c.bits;
  const int fr = __ldg(c.frame + (i >> c.shift));
  if (b == 0) return fr;
  const unsigned bit = ((unsigned)(i >> 5) & 31u) * b;
  const unsigned* p = (const unsigned*)c.data + (i >> 10) * 32 * (long long)b + (bit >> 5) * 32 + (i & 31);
  const unsigned o = bit & 31u;
  const unsigned off = __funnelshift_r(__ldg(p), o + b > 32 ? __ldg(p + 32) : 0u, o) & packed_mask(b);
  return (int)((unsigned)fr + off);
}

// ld_narrow reads row i of a narrow column.
__device__ __forceinline__ int ld_narrow(const Col& c, long long i) {
  const unsigned fr = (unsigned)__ldg(c.frame + (i >> c.shift));
  const unsigned o = c.width == 1 ? (unsigned)__ldg((const unsigned char*)c.data + i) : (unsigned)__ldg((const unsigned short*)c.data + i);
  return (int)(fr + o);
}

// ld_framed reads row i of a column with frames: packed or narrow.
__device__ __forceinline__ int ld_framed(const Col& c, long long i) { return c.width == 4 ? ld_packed(c, i) : ld_narrow(c, i); }

// Widths 1 and 2 without frames are a streamed fact column's chunk, sent
// narrowed (exec/gpu/streaming.go): signed values, as the planner's wire
// width holds them.
__device__ __forceinline__ long long ldi(const Col& c, long long i) {
  if (c.frame) return (long long)ld_framed(c, i);
  if (c.width == 4) return (long long)__ldg((const int*)c.data + i);
  if (c.width == 2) return (long long)__ldg((const short*)c.data + i);
  if (c.width == 1) return (long long)__ldg((const signed char*)c.data + i);
  return __ldg((const long long*)c.data + i);
}

__device__ __forceinline__ double ldf(const Col& c, long long i) {
  if (c.isFloat) return __ldg((const double*)c.data + i);
  return (double)ldi(c, i);
}

__device__ __forceinline__ bool isvalid(const Col& c, long long i) {
  return c.valid == 0 || ((__ldg(c.valid + (i >> 6)) >> (i & 63)) & 1ULL);
}

// Integer overflow. MySQL never wraps a BIGINT: a result outside int64 is
// an error. A kernel cannot return one, so it sets the flag
// gpusql_overflow points to (a plain store of 1, racing stores all write
// 1) and carries on with the wrapped value, which exec/gpu then never
// returns. The flag is one word of pinned, device-mapped host memory that
// every module points to (exec/gpu/overflow.go): the host clears and
// reads it directly, so a query pays no copy or memset for it. The *_ck
// helpers compute in unsigned arithmetic (signed overflow is undefined in
// C++) and test the sign bits, as exec/cpu/overflow.go does.
__device__ unsigned int* gpusql_overflow;

__device__ __forceinline__ void note_overflow(bool bad) {
  if (bad) *gpusql_overflow = 1u;
}

__device__ __forceinline__ long long add_ck(long long a, long long b) {
  long long s = (long long)((unsigned long long)a + (unsigned long long)b);
  note_overflow(((a ^ s) & (b ^ s)) < 0);
  return s;
}

__device__ __forceinline__ long long sub_ck(long long a, long long b) {
  long long s = (long long)((unsigned long long)a - (unsigned long long)b);
  note_overflow(((a ^ b) & (a ^ s)) < 0);
  return s;
}

// mul_ck: the 128-bit product fits int64 when its high word is the sign
// extension of its low word.
__device__ __forceinline__ long long mul_ck(long long a, long long b) {
  long long lo = (long long)((unsigned long long)a * (unsigned long long)b);
  note_overflow(__mul64hi(a, b) != (lo >> 63));
  return lo;
}

// Pred is one conjunct of a scan filter: an inclusive integer range (codes,
// dates, scaled decimals), a code set (bitmap over dictionary codes: string
// IN/LIKE/ranges compiled once on the dictionary), a float range, or a byte
// per row computed by an earlier expression kernel. A NULL value never
// passes unless nullPass (SQL: the conjunct is NULL, the row is dropped;
// IS NULL tests are compiled with nullPass set).
enum { PRED_RANGE = 0, PRED_SET = 1, PRED_FRANGE = 2, PRED_FLAGS = 3 };
struct Pred {
  Col col;
  int kind;
  int negate;
  long long lo, hi;
  double flo, fhi;
  int floIncl, fhiIncl;
  int nullPass;  // result for a NULL value (x IS NULL compiles to a set with nullPass)
  int pad;
  const unsigned int* set;  // bit (v - lo) set = pass
  long long setLen;
};

__device__ __forceinline__ bool pred_test(const Pred& p, long long i) {
  if (p.kind == PRED_FLAGS) return __ldg((const unsigned char*)p.col.data + i) != 0;
  if (!isvalid(p.col, i)) return p.nullPass != 0;
  bool r;
  if (p.kind == PRED_RANGE) {
    long long v = ldi(p.col, i);
    r = v >= p.lo && v <= p.hi;
  } else if (p.kind == PRED_SET) {
    long long v = ldi(p.col, i) - p.lo;
    r = v >= 0 && v < p.setLen && ((__ldg(p.set + (v >> 5)) >> (v & 31)) & 1u);
  } else {
    double v = ldf(p.col, i);
    r = (p.floIncl ? v >= p.flo : v > p.flo) && (p.fhiIncl ? v <= p.fhi : v < p.fhi);
  }
  return r != (p.negate != 0);
}

// GCol is one digit of a mixed-radix group index: (value - min), or
// nullSlot for NULL, times stride.
struct GCol {
  Col col;
  long long min;
  long long stride;
  long long nullSlot;
};

__device__ __forceinline__ long long gcol_digit(const GCol& g, long long i) {
  if (!isvalid(g.col, i)) return g.nullSlot * g.stride;
  return (ldi(g.col, i) - g.min) * g.stride;
}

// 64-bit finalizer of MurmurHash3: keys of open-addressing tables.
__device__ __forceinline__ unsigned long long hash64(long long k) {
  unsigned long long h = (unsigned long long)k;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// Dim is one dimension probe of a star pipeline: a direct-mapped array
// (perfect hash: map[key - keyMin] is the dimension row's group payload, -1
// when the row was filtered out or absent) or, when hkeys is set, an
// open-addressing table (linear probing, EMPTY_KEY marks free slots) whose
// map[slot] is the payload.
struct Dim {
  Col key;  // the fact key column; with a remap, the fact rows' slots (4 B, no NULLs)
  const int* map;
  long long keyMin;
  long long mapLen;
  long long stride;
  const long long* hkeys;
  long long hmask;
  // A payload read from shared memory in the fact key's remapped layout
  // (planner/gpu_payload.go): slot s holds the payload of the key whose
  // code (key - remapMin) slotValue[s] is; 0 without a remap.
  const int* slotValue;
  long long remapMin;
  int nslots;
  int nullCode;  // the code of NULL (-1: none); its slots hold -1
  int shOffset;  // the table's first int in the dimensions' shared memory
  // bitsOnly: the payload is always 0 (no group column), so a row needs
  // only its bit (kernels/dim_bits.cu).
  int bitsOnly;
  // A direct table's bitmap, tested before the payload is read (0: none).
  const unsigned int* bits;
};

// dim_bit reports whether direct-table entry o (in range) has a row.
__device__ __forceinline__ bool dim_bit(const Dim& d, unsigned long long o) {
  return d.bits == 0 || ((__ldg(d.bits + (o >> 5)) >> (o & 31)) & 1u) != 0;
}

__device__ __forceinline__ int dim_probe(const Dim& d, long long key) {
  if (d.hkeys == 0) {
    long long k = key - d.keyMin;
    if (k < 0 || k >= d.mapLen) return -1;
    return __ldg(d.map + k);
  }
  unsigned long long h = hash64(key) & d.hmask;
  for (;;) {
    long long k = __ldg(d.hkeys + h);
    if (k == key) return __ldg(d.map + h);
    if (k == EMPTY_KEY) return -1;
    h = (h + 1) & d.hmask;
  }
}

// Agg is one aggregate over fact columns: fn(a op b).
enum { AGG_COUNT_STAR = 0, AGG_COUNT = 1, AGG_SUM = 2, AGG_MIN = 3, AGG_MAX = 4 };
enum { EXPR_A = 0, EXPR_MUL = 1, EXPR_SUB = 2, EXPR_ADD = 3 };
struct Agg {
  Col a;
  Col b;
  int fn;
  int op;
  int isFloat;
  int pad;
};

// Aggregate slots hold int64 or double bits; these are the identities.
__device__ __forceinline__ unsigned long long agg_identity(const Agg& a) {
  if (a.fn == AGG_MIN) return a.isFloat ? 0x7ff0000000000000ULL : 0x7fffffffffffffffULL;
  if (a.fn == AGG_MAX) return a.isFloat ? 0xfff0000000000000ULL : 0x8000000000000000ULL;
  return 0;
}

__device__ __forceinline__ void atomic_min_f64(unsigned long long* p, double v) {
  unsigned long long old = *p;
  while (__longlong_as_double(old) > v) {
    unsigned long long prev = atomicCAS(p, old, (unsigned long long)__double_as_longlong(v));
    if (prev == old) break;
    old = prev;
  }
}

__device__ __forceinline__ void atomic_max_f64(unsigned long long* p, double v) {
  unsigned long long old = *p;
  while (__longlong_as_double(old) < v) {
    unsigned long long prev = atomicCAS(p, old, (unsigned long long)__double_as_longlong(v));
    if (prev == old) break;
    old = prev;
  }
}

// agg_combine folds one value (int64 or double bits) into a slot atomically.
__device__ __forceinline__ void agg_combine(const Agg& a, unsigned long long* slot, unsigned long long v) {
  switch (a.fn) {
    case AGG_COUNT_STAR:
    case AGG_COUNT:
      atomicAdd(slot, v);
      break;
    case AGG_SUM:
      if (a.isFloat) atomicAdd((double*)slot, __longlong_as_double(v));
      else add_ck((long long)atomicAdd(slot, v), (long long)v);  // a partial sum that wraps flags the query
      break;
    case AGG_MIN:
      if (a.isFloat) atomic_min_f64(slot, __longlong_as_double(v));
      else atomicMin((long long*)slot, (long long)v);
      break;
    case AGG_MAX:
      if (a.isFloat) atomic_max_f64(slot, __longlong_as_double(v));
      else atomicMax((long long*)slot, (long long)v);
      break;
  }
}

// agg_fold folds v into a register accumulator (no atomics).
__device__ __forceinline__ unsigned long long agg_fold(const Agg& a, unsigned long long acc, unsigned long long v) {
  switch (a.fn) {
    case AGG_SUM:
      if (a.isFloat) return (unsigned long long)__double_as_longlong(__longlong_as_double(acc) + __longlong_as_double(v));
      return (unsigned long long)add_ck((long long)acc, (long long)v);
    case AGG_MIN:
      if (a.isFloat) return __longlong_as_double(v) < __longlong_as_double(acc) ? v : acc;
      return (long long)v < (long long)acc ? v : acc;
    case AGG_MAX:
      if (a.isFloat) return __longlong_as_double(v) > __longlong_as_double(acc) ? v : acc;
      return (long long)v > (long long)acc ? v : acc;
  }
  return acc + v;
}

// agg_value evaluates the aggregate's argument at row i; false when NULL.
__device__ __forceinline__ bool agg_value(const Agg& a, long long i, unsigned long long* out) {
  if (a.fn == AGG_COUNT_STAR) {
    *out = 1;
    return true;
  }
  if (!isvalid(a.a, i)) return false;
  if (a.op != EXPR_A && !isvalid(a.b, i)) return false;
  if (a.fn == AGG_COUNT) {
    *out = 1;
    return true;
  }
  if (a.isFloat) {
    double x = ldf(a.a, i);
    if (a.op == EXPR_MUL) x *= ldf(a.b, i);
    else if (a.op == EXPR_SUB) x -= ldf(a.b, i);
    else if (a.op == EXPR_ADD) x += ldf(a.b, i);
    *out = (unsigned long long)__double_as_longlong(x);
  } else {
    long long x = ldi(a.a, i);
    if (a.op == EXPR_MUL) x = mul_ck(x, ldi(a.b, i));
    else if (a.op == EXPR_SUB) x = sub_ck(x, ldi(a.b, i));
    else if (a.op == EXPR_ADD) x = add_ck(x, ldi(a.b, i));
    *out = (unsigned long long)x;
  }
  return true;
}

// Tile loads. A thread holds IT consecutive rows i0..i0+IT-1 of a tile
// (blocked arrangement), so a 4-byte column's rows arrive as IT/4 16-byte
// vector loads and an 8-byte column's as IT/2: a warp reads 32 x 16 B
// contiguous bytes per instruction and keeps IT x 4 B (or 8 B) in flight per
// thread, the memory-level parallelism a scan needs to approach device
// bandwidth on H100 (Little's law: ~3.3 TB/s x ~0.7 us ≈ 2.3 MB in flight).
// A thread whose rows are all dead skips the column: with IT = 8 and 4-byte
// values that is a whole 32-byte sector not fetched, which keeps Crystal's
// selective loading (later columns of a selective query cost little).
// Tail tiles (full == false) load row by row.
template <int IT>
__device__ __forceinline__ bool any_alive(const bool* alive) {
  bool any = false;
#pragma unroll
  for (int k = 0; k < IT; k++) any = any || alive[k];
  return any;
}

// spread4 stores a 16-byte load's four 32-bit values at v[0..3].
template <typename T>
__device__ __forceinline__ void spread4(T* v, int4 x) {
  v[0] = x.x;
  v[1] = x.y;
  v[2] = x.z;
  v[3] = x.w;
}

// load_words reads N consecutive 32-bit words (N a power of two up to
// 8; p aligned to the whole read) in the widest vector loads.
template <int N>
__device__ __forceinline__ void load_words(const unsigned* p, unsigned* w) {
  if constexpr (N == 1) {
    w[0] = __ldg(p);
  } else if constexpr (N == 2) {
    uint2 x = __ldg((const uint2*)p);
    w[0] = x.x;
    w[1] = x.y;
  } else {
#pragma unroll
    for (int q = 0; q < N / 4; q++) {
      uint4 x = __ldg((const uint4*)p + q);
      w[4 * q] = x.x;
      w[4 * q + 1] = x.y;
      w[4 * q + 2] = x.z;
      w[4 * q + 3] = x.w;
    }
  }
}

// load_packed decodes a thread's IT rows of a packed column in the fast
// star kernels' lane-interleaved row map: rows i0 + 32k, k < IT, slots
// s0..s0+IT-1 of one lane of one group (s0 + IT <= 32, so they share a
// frame). Their bits are consecutive in the lane's stream: row k starts at
// bit p_k = o + k*bits, in stream word p_k/32, and when it straddles into
// the next word (bits <= 32) that word is row k+1's. So IT+1 word loads,
// each one 128-byte line for the warp (its 32 lanes' word j), every
// address known before any returns, all in flight at once, and a funnel
// shift per row; repeated words are L1 hits. A narrow column (IT*bits <=
// 64: SSB's 4-bit lo_discount, 6-bit lo_quantity) has the thread's rows in
// three words: three loads, not IT+1. Rows past the column's end but in
// its last group read the group's zero padding; a thread whose group is
// past the end has no live rows and is not called. With alive (nullptr:
// every row), a word that no live row's bits touch is not loaded and its
// rows decode to garbage: eight lanes' word j are one 32-byte sector, so
// the sectors a column read in place over PCIe costs are those of 8 lanes
// x 32/bits live rows, not of each thread's IT rows together.
template <int IT, typename T>
__device__ __forceinline__ void load_packed(const Col& c, long long i0, T* v, const bool* alive = nullptr) {
  const unsigned b = (unsigned)c.bits;
  const unsigned fr = (unsigned)__ldg(c.frame + (i0 >> c.shift));
  if (b == 0) {
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = (T)(int)fr;
    return;
  }
  const unsigned m = packed_mask(c.bits);
  const unsigned o = ((unsigned)(i0 >> 5) & 31u) * b;
  // The lane's stream: word j at w[32 * j].
  const unsigned* w = (const unsigned*)c.data + (i0 >> 10) * 32 * (long long)b + (i0 & 31);
  if (IT * b <= 64) {
    // Rows start at bit r + k*bits of the stream's word o/32 and end by
    // bit r + IT*bits <= 95; a word past the rows' last bit is not read
    // (it may be past the lane's stream).
    const unsigned r = o & 31u, end = r + IT * b;
    unsigned need = 7u;
    if (alive) {
      need = 0u;
#pragma unroll
      for (int k = 0; k < IT; k++)
        if (alive[k]) need |= (1u << ((r + k * b) >> 5)) | (1u << ((r + (k + 1) * b - 1) >> 5));
    }
    const unsigned* w0p = w + 32 * (o >> 5);
    const unsigned w0 = (need & 1u) ? __ldg(w0p) : 0u, w1 = end > 32 && (need & 2u) ? __ldg(w0p + 32) : 0u,
                   w2 = end > 64 && (need & 4u) ? __ldg(w0p + 64) : 0u;
#pragma unroll
    for (int k = 0; k < IT; k++) {
      const unsigned p = r + k * b;
      const unsigned x = p < 32 ? __funnelshift_r(w0, w1, p) : p < 64 ? __funnelshift_r(w1, w2, p - 32) : w2 >> (p - 64);
      v[k] = (T)(int)(fr + (x & m));
    }
    return;
  }
  unsigned word[IT + 1];
#pragma unroll
  for (int k = 0; k < IT; k++) {
    // Row k's first word, which is also row k-1's second where that row
    // straddles into it.
    const unsigned p = o + k * b;
    const bool need = !alive || alive[k] || (k > 0 && alive[k - 1] && ((p - b) >> 5) != ((p - 1) >> 5));
    word[k] = need ? __ldg(w + 32 * (p >> 5)) : 0u;
  }
  // The last row's next word, only where it straddles into it.
  const unsigned last = (o + (IT - 1) * b) >> 5;
  word[IT] = ((o + IT * b - 1) >> 5) != last && (!alive || alive[IT - 1]) ? __ldg(w + 32 * (last + 1)) : 0u;
#pragma unroll
  for (int k = 0; k < IT; k++) v[k] = (T)(int)(fr + (__funnelshift_r(word[k], word[k + 1], (o + k * b) & 31u) & m));
}

// load_narrow reads a thread's IT rows of a narrow column, rows i0 +
// STEP*k (one frame: a frame's rows are a multiple of IT*STEP). With
// consecutive rows (STEP 1) and all of them in the column, the IT*width
// bytes come in one vector load (i0 is a multiple of IT, so it is
// aligned) and each value is a byte extract; otherwise row by row, the
// dead rows' loads skipped.
template <int IT, int STEP, typename T>
__device__ __forceinline__ void load_narrow(const Col& c, long long i0, bool full, const bool* alive, T* v) {
  const unsigned fr = (unsigned)__ldg(c.frame + (i0 >> c.shift));
  if (STEP == 1 && full) {
    if (c.width == 1) {
      unsigned w[(IT + 3) / 4];
      load_words<(IT + 3) / 4>((const unsigned*)((const unsigned char*)c.data + i0), w);
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = (T)(int)(fr + ((w[k >> 2] >> (8 * (k & 3))) & 0xffu));
    } else {
      unsigned w[(IT + 1) / 2];
      load_words<(IT + 1) / 2>((const unsigned*)((const unsigned short*)c.data + i0), w);
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = (T)(int)(fr + ((w[k >> 1] >> (16 * (k & 1))) & 0xffffu));
    }
    return;
  }
  if (c.width == 1) {
    const unsigned char* d = (const unsigned char*)c.data + i0;
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = alive[k] ? (T)(int)(fr + (unsigned)__ldg(d + STEP * k)) : (T)0;
  } else {
    const unsigned short* d = (const unsigned short*)c.data + i0;
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = alive[k] ? (T)(int)(fr + (unsigned)__ldg(d + STEP * k)) : (T)0;
  }
}

template <int IT>
__device__ __forceinline__ void load_i(const Col& c, long long i0, bool full, const bool* alive, long long* v) {
#pragma unroll
  for (int k = 0; k < IT; k++) v[k] = 0;
  if (!any_alive<IT>(alive)) return;
  if (c.frame) {
    // The generic kernels are short of registers: row by row (the loads
    // of all rows are still independent, so in flight together).
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = full || alive[k] ? (long long)ld_framed(c, i0 + k) : 0;
    return;
  }
  if (c.width < 4) {  // a narrowed streamed chunk: the link, not loads, bounds it
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = alive[k] ? ldi(c, i0 + k) : 0;
    return;
  }
  if (c.width == 4) {
    const int* d = (const int*)c.data + i0;
    if (full) {
#pragma unroll
      for (int q = 0; q < IT / 4; q++) {
        spread4(v + 4 * q, __ldg((const int4*)d + q));
      }
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = alive[k] ? (long long)__ldg(d + k) : 0;
    }
  } else {
    const long long* d = (const long long*)c.data + i0;
    if (full) {
#pragma unroll
      for (int q = 0; q < IT / 2; q++) {
        longlong2 x = __ldg((const longlong2*)d + q);
        v[2 * q] = x.x;
        v[2 * q + 1] = x.y;
      }
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = alive[k] ? __ldg(d + k) : 0;
    }
  }
}

template <int IT>
__device__ __forceinline__ void load_f(const Col& c, long long i0, bool full, const bool* alive, double* v) {
  if (c.isFloat) {
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = 0.0;
    if (!any_alive<IT>(alive)) return;
    const double* d = (const double*)c.data + i0;
    if (full) {
#pragma unroll
      for (int q = 0; q < IT / 2; q++) {
        double2 x = __ldg((const double2*)d + q);
        v[2 * q] = x.x;
        v[2 * q + 1] = x.y;
      }
    } else {
#pragma unroll
      for (int k = 0; k < IT; k++) v[k] = alive[k] ? __ldg(d + k) : 0.0;
    }
  } else {
    long long t[IT];
    load_i<IT>(c, i0, full, alive, t);
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = (double)t[k];
  }
}

// load_valid sets nn[k] = row i0+k is not NULL (all true without a bitmap).
// IT divides 64 and i0 is a multiple of IT, so one bitmap word covers the
// thread's rows.
template <int IT>
__device__ __forceinline__ void load_valid(const Col& c, long long i0, const bool* alive, bool* nn) {
  if (c.valid == 0) {
#pragma unroll
    for (int k = 0; k < IT; k++) nn[k] = true;
    return;
  }
  unsigned long long w = any_alive<IT>(alive) ? __ldg(c.valid + (i0 >> 6)) : 0ULL;
#pragma unroll
  for (int k = 0; k < IT; k++) nn[k] = ((w >> ((i0 + k) & 63)) & 1ULL) != 0;
}

// pred_items applies predicate p to the live rows of a thread's rows.
template <int IT>
__device__ __forceinline__ void pred_items(const Pred& p, long long i0, bool full, bool* alive) {
  if (p.kind == PRED_FLAGS) {
    const unsigned char* d = (const unsigned char*)p.col.data + i0;
#pragma unroll
    for (int k = 0; k < IT; k++) alive[k] = alive[k] && __ldg(d + k) != 0;
    return;
  }
  bool nn[IT];
  load_valid<IT>(p.col, i0, alive, nn);
  const bool neg = p.negate != 0, np = p.nullPass != 0;
  if (p.kind == PRED_FRANGE) {
    double v[IT];
    load_f<IT>(p.col, i0, full, alive, v);
#pragma unroll
    for (int k = 0; k < IT; k++) {
      bool r = (p.floIncl ? v[k] >= p.flo : v[k] > p.flo) && (p.fhiIncl ? v[k] <= p.fhi : v[k] < p.fhi);
      alive[k] = alive[k] && (nn[k] ? r != neg : np);
    }
    return;
  }
  long long v[IT];
  load_i<IT>(p.col, i0, full, alive, v);
  if (p.kind == PRED_RANGE) {
#pragma unroll
    for (int k = 0; k < IT; k++) alive[k] = alive[k] && (nn[k] ? (v[k] >= p.lo && v[k] <= p.hi) != neg : np);
    return;
  }
#pragma unroll
  for (int k = 0; k < IT; k++) {
    long long o = v[k] - p.lo;
    bool in = alive[k] && nn[k] && o >= 0 && o < p.setLen;
    unsigned int w = in ? __ldg(p.set + (o >> 5)) : 0u;
    alive[k] = alive[k] && (nn[k] ? (((w >> (o & 31)) & 1u) != 0) != neg : np);
  }
}
