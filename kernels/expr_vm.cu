// expr_vm: the expression VM. One kernel evaluates any compiled scalar
// expression (exec/gpu/expr_compile.go turns a sql.Expr tree into a
// straight-line register program) at every row of a column set: a
// projection's computed column, a filter's predicate (a byte per row that a
// scan then tests as a PRED_FLAGS predicate), an aggregate's argument.
//
// Registers hold 64 bits (int64, scaled decimal, date days, bool 0/1,
// dictionary code, or a double's bits) and a not-NULL flag; every op
// propagates NULL the way exec/cpu does (MySQL semantics: NULL in, NULL
// out; division by zero is NULL; AND/OR/NOT three-valued). CASE and
// COALESCE evaluate all arms and select, which is safe because no op can
// fail: an overflowing BIGINT (or an infinite DOUBLE) only sets common.cuh's gpusql_overflow, and
// exec/gpu fails the query then. String functions never run here: exec/gpu evaluates them once per
// dictionary entry on the host and the program looks the result up by code
// (VM_LOOKUP), so rows stay on the device.
//
// Per row: reads the program's columns (4-8 B each, at rowids[i] when a
// selection is given), writes one 4/8-byte value (or flag byte) and one
// validity bit. Launch: grid-stride, 256 threads per block; each thread
// keeps its registers in local memory (VM_REGS x 9 B), so throughput is
// bound by the interpreter's instruction issue for long programs and by
// memory bandwidth for short ones.
#include "common.cuh"

#define VM_REGS 48
#define VM_COLS 16

enum {
  VM_LDCOL = 0, VM_CONST, VM_MOV,
  VM_IADD, VM_ISUB, VM_IMUL, VM_IDIV, VM_IMOD, VM_WRAP32,
  VM_FADD, VM_FSUB, VM_FMUL, VM_FDIV, VM_FIDIV, VM_FMOD,
  VM_MULK, VM_DIVROUNDK, VM_MULDIVROUND,
  VM_ICMP, VM_FCMP,
  VM_AND, VM_OR, VM_NOT, VM_ISNULL,
  VM_LOOKUP, VM_SELECT, VM_SELNN,
  VM_I2F, VM_F2I, VM_F2DEC, VM_DEC2F, VM_INE0, VM_FNE0,
  VM_INEG, VM_FNEG, VM_IABS, VM_FABS,
  VM_YEAR, VM_MONTH, VM_DAY,
  VM_INTDIVDEC,
  VM_FROUND, VM_FFLOOR, VM_FCEIL, VM_DFLOOR, VM_DCEIL,
};

// VMIns: dst = op(a, b, c) with immediates imm/imm2 (a constant, a power of
// ten, a comparison code, a device pointer and length).
struct VMIns {
  int op, dst, a, b, c, pad;
  long long imm, imm2;
};

enum { VM_OUT_I64 = 0, VM_OUT_I32 = 1, VM_OUT_F64 = 2, VM_OUT_FLAG = 3 };

struct ExprVMParams {
  long long n;
  const int* rowids;  // row of output i (nullptr: row i)
  const VMIns* prog;
  int nins;
  int ncols;
  Col cols[VM_COLS];
  void* out;
  unsigned int* outValid;  // 32 rows per word (nullptr: not written)
  int outKind;
  int outReg;
};

extern "C" __global__ void expr_vm_params_size(long long* out) { *out = sizeof(ExprVMParams); }

__device__ __forceinline__ double asf(long long v) { return __longlong_as_double(v); }
__device__ __forceinline__ long long fbits(double v) { return __double_as_longlong(v); }

// divRound is a/b rounded half away from zero (exec/cpu's divRound).
__device__ __forceinline__ long long div_round(long long a, long long b) {
  long long q = a / b, r = a % b;
  if (r < 0) r = -r;
  long long bb = b < 0 ? -b : b;
  if (2 * (unsigned long long)r >= (unsigned long long)bb) {
    if ((a < 0) != (b < 0)) q--;
    else q++;
  }
  return q;
}

__device__ __forceinline__ unsigned long long uabs(long long v) {
  return v < 0 ? (unsigned long long)(-v) : (unsigned long long)v;
}

// mul_div_round is a*m/d rounded half away from zero with a 128-bit
// intermediate (exec/cpu's mulDivRound); false on overflow or d = 0.
__device__ bool mul_div_round(long long a, long long m, long long d, long long* out) {
  if (d == 0) return false;
  bool neg = ((a < 0) != (m < 0)) != (d < 0);
  unsigned long long ua = uabs(a), um = uabs(m), ud = uabs(d);
  unsigned long long lo = ua * um, hi = __umul64hi(ua, um);
  if (hi >= ud) return false;
  unsigned long long q = 0, r = hi;
  // 128-by-64 long division, one quotient bit per step (hi < ud).
  for (int i = 63; i >= 0; i--) {
    bool carry = (r >> 63) != 0;
    r = (r << 1) | ((lo >> i) & 1ULL);
    q <<= 1;
    if (carry || r >= ud) {
      r -= ud;
      q |= 1ULL;
    }
  }
  if (r >= ud - r) q++;
  if (q > 0x7fffffffffffffffULL) return false;
  *out = neg ? -(long long)q : (long long)q;
  return true;
}

__device__ __forceinline__ void civil(long long z, long long* y, long long* m, long long* d) {
  z += 719468;
  long long era = z / 146097;
  if (z < 0 && z % 146097 != 0) era--;
  long long doe = z - era * 146097;
  long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  *y = yoe + era * 400;
  long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long long mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  if (*m <= 2) (*y)++;
}

template <typename T>
__device__ __forceinline__ long long cmp_op(long long op, T a, T b) {
  switch (op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
  }
  return a >= b;
}

// vm_op evaluates instruction in, whose opcode is op (in's own, or the
// same as a constant where a caller has dispatched on it already, so that
// the switch folds away), at one row: ra/na, rb/nb, rc/nc are the values
// and not-NULL flags of its register operands a, b, c (those it uses; the
// others are ignored), cols the program's columns (VM_LDCOL reads column
// in.a at row). It returns the result and sets *okp to whether it is not
// NULL. Both kernels below run every instruction through it, so they agree
// by construction.
__device__ __forceinline__ long long vm_op(const int op, const VMIns& in, const Col* cols, long long row, long long ra,
                                           bool na, long long rb, bool nb, long long rc, bool nc, bool* okp) {
  long long v = 0;
  bool ok = true;
  switch (op) {
    case VM_LDCOL: {
      const Col& col = cols[in.a];
      ok = isvalid(col, row);
      if (ok) v = col.isFloat ? fbits(__ldg((const double*)col.data + row)) : ldi(col, row);
      break;
    }
    case VM_CONST: v = in.imm; ok = in.b == 0; break;
    case VM_MOV: v = ra; ok = na; break;
    // imm2 != 0 marks SQL arithmetic, whose overflow is an error
    // (common.cuh's gpusql_overflow); the compiler's own offsets wrap.
    case VM_IADD:
      ok = na && nb;
      v = ok && in.imm2 ? add_ck(ra, rb) : (long long)((unsigned long long)ra + (unsigned long long)rb);
      break;
    case VM_ISUB:
      ok = na && nb;
      v = ok && in.imm2 ? sub_ck(ra, rb) : (long long)((unsigned long long)ra - (unsigned long long)rb);
      break;
    case VM_IMUL:
      ok = na && nb;
      v = ok && in.imm2 ? mul_ck(ra, rb) : (long long)((unsigned long long)ra * (unsigned long long)rb);
      break;
    case VM_IDIV:
      ok = na && nb && rb != 0;
      if (ok && in.imm2) note_overflow(rb == -1 && ra == (long long)0x8000000000000000ULL);
      if (ok) v = rb == -1 ? (long long)(0ULL - (unsigned long long)ra) : ra / rb;
      break;
    case VM_IMOD:
      ok = na && nb && rb != 0;
      if (ok) v = rb == -1 ? 0 : ra % rb;
      break;
    case VM_WRAP32: v = (long long)(int)ra; ok = na; break;
    // A DOUBLE result past the largest double is MySQL's error 1690
    // ("DOUBLE value is out of range"), like a BIGINT overflow: SQL
    // values are finite, so an infinite result is one.
    case VM_FADD: v = fbits(asf(ra) + asf(rb)); ok = na && nb; if (ok) note_overflow(!isfinite(asf(v))); break;
    case VM_FSUB: v = fbits(asf(ra) - asf(rb)); ok = na && nb; if (ok) note_overflow(!isfinite(asf(v))); break;
    case VM_FMUL: v = fbits(asf(ra) * asf(rb)); ok = na && nb; if (ok) note_overflow(!isfinite(asf(v))); break;
    case VM_FDIV:
    case VM_FIDIV:
      ok = na && nb && asf(rb) != 0.0;
      if (ok) {
        double q = asf(ra) / asf(rb);
        note_overflow(!isfinite(q));
        v = fbits(op == VM_FIDIV ? trunc(q) : q);
      }
      break;
    case VM_FMOD:
      ok = na && nb && asf(rb) != 0.0;
      if (ok) v = fbits(fmod(asf(ra), asf(rb)));
      break;
    case VM_MULK:
      ok = na;
      v = ok && in.imm2 ? mul_ck(ra, in.imm) : (long long)((unsigned long long)ra * (unsigned long long)in.imm);
      break;
    case VM_DIVROUNDK: ok = na; if (ok) v = div_round(ra, in.imm); break;
    case VM_MULDIVROUND:
      // Fails on a zero divisor (NULL) or a quotient beyond int64
      // (an overflow when checked).
      ok = na && nb && nc && mul_div_round(ra, rb, rc, &v);
      if (!ok && in.imm2) note_overflow(na && nb && nc && rc != 0);
      break;
    case VM_INTDIVDEC:  // (a / b) * imm, NULL when b = 0 (decimal DIV)
      ok = na && nb && rb != 0;
      if (ok) v = (ra / rb) * in.imm;
      break;
    case VM_ICMP: ok = na && nb; if (ok) v = cmp_op<long long>(in.imm, ra, rb); break;
    case VM_FCMP: ok = na && nb; if (ok) v = cmp_op<double>(in.imm, asf(ra), asf(rb)); break;
    case VM_AND: {
      bool fa = na && ra == 0, fb = nb && rb == 0;
      if (fa || fb) v = 0;
      else if (!na || !nb) ok = false;
      else v = 1;
      break;
    }
    case VM_OR: {
      bool ta = na && ra != 0, tb = nb && rb != 0;
      if (ta || tb) v = 1;
      else if (!na || !nb) ok = false;
      else v = 0;
      break;
    }
    case VM_NOT: ok = na; v = ra == 0; break;
    case VM_ISNULL: v = (!na) != (in.imm != 0); break;
    case VM_LOOKUP: {
      // table: imm2+1 int64 values then imm2+1 validity bytes; entry
      // imm2 is the value for a NULL input.
      const long long* vals = (const long long*)in.imm;
      const unsigned char* vv = (const unsigned char*)(vals + in.imm2 + 1);
      long long k = na ? ra : in.imm2;
      if (k < 0 || k > in.imm2) ok = false;
      else {
        v = __ldg(vals + k);
        ok = __ldg(vv + k) != 0;
      }
      break;
    }
    case VM_SELECT: {
      const bool first = na && ra != 0;
      v = first ? rb : rc;
      ok = first ? nb : nc;
      break;
    }
    case VM_SELNN: {
      v = na ? ra : rb;
      ok = na || nb;
      break;
    }
    case VM_I2F: v = fbits((double)ra); ok = na; break;
    case VM_F2I: v = (long long)rint(asf(ra)); ok = na; break;  // a tie to the even integer, as MySQL (sql.DoubleToInt)
    case VM_F2DEC: v = (long long)round(asf(ra) * asf(in.imm)); ok = na; break;
    case VM_DEC2F: v = fbits((double)ra / asf(in.imm)); ok = na; break;
    case VM_INE0: v = ra != 0; ok = na; break;
    case VM_FNE0: v = asf(ra) != 0.0; ok = na; break;
    case VM_INEG:
      ok = na;
      if (ok && in.imm2) note_overflow(ra == (long long)0x8000000000000000ULL);
      v = (long long)(0ULL - (unsigned long long)ra);
      break;
    case VM_FNEG: v = fbits(-asf(ra)); ok = na; break;
    case VM_IABS:
      // |-2^63| leaves BIGINT: flagged like VM_INEG (MySQL's error 1690).
      ok = na;
      if (ok && in.imm2) note_overflow(ra == (long long)0x8000000000000000ULL);
      v = ra < 0 ? (long long)(0ULL - (unsigned long long)ra) : ra;
      break;
    case VM_FABS: v = fbits(fabs(asf(ra))); ok = na; break;
    case VM_FROUND: v = fbits(rint(asf(ra) * asf(in.imm)) / asf(in.imm)); ok = na; break;
    case VM_FFLOOR: v = fbits(floor(asf(ra))); ok = na; break;
    case VM_FCEIL: v = fbits(ceil(asf(ra))); ok = na; break;
    case VM_DFLOOR:
    case VM_DCEIL: {
      // exec/cpu's floor/ceil of a scaled integer (imm = 10^scale).
      ok = na;
      long long x = ra;
      v = x / in.imm;
      if (x % in.imm != 0) {
        if (op == VM_DFLOOR && x < 0) v--;
        else if (op == VM_DCEIL && x > 0) v++;
      }
      break;
    }
    case VM_YEAR:
    case VM_MONTH:
    case VM_DAY: {
      ok = na;
      long long y, m, d;
      civil(ra, &y, &m, &d);
      v = op == VM_YEAR ? y : op == VM_MONTH ? m : d;
      break;
    }
  }
  *okp = ok;
  return v;
}

extern "C" __global__ void __launch_bounds__(256) expr_vm(const ExprVMParams p) {
  const long long n32 = (p.n + 31) & ~31LL;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n32; i += (long long)gridDim.x * blockDim.x) {
    long long r[VM_REGS];
    bool nn[VM_REGS];
    const bool live = i < p.n;
    if (live) {
      const long long row = p.rowids ? (long long)__ldg(p.rowids + i) : i;
      for (int k = 0; k < p.nins; k++) {
        const VMIns in = p.prog[k];
        bool ok;
        const long long v = vm_op(in.op, in, p.cols, row, r[in.a], nn[in.a], r[in.b], nn[in.b], r[in.c], nn[in.c], &ok);
        r[in.dst] = ok ? v : 0;
        nn[in.dst] = ok;
      }
    }
    const int o = p.outReg;
    const bool valid = live && nn[o];
    if (live) {
      switch (p.outKind) {
        case VM_OUT_I64: ((long long*)p.out)[i] = valid ? r[o] : 0; break;
        case VM_OUT_I32: ((int*)p.out)[i] = valid ? (int)r[o] : 0; break;
        case VM_OUT_F64: ((long long*)p.out)[i] = valid ? r[o] : 0; break;
        case VM_OUT_FLAG: ((unsigned char*)p.out)[i] = valid && r[o] != 0; break;
      }
    }
    if (p.outValid) {
      unsigned int bits = __ballot_sync(0xffffffffu, valid);
      if ((threadIdx.x & 31) == 0) p.outValid[i >> 5] = bits;
    }
  }
}

// expr_vm_tile8 / expr_vm_tile4: the VM for programs whose registers fit
// shared memory (the host compacts them first: exec/gpu/expr_vm_regs.go
// shares repeated instructions and reuses a register once its value is
// dead). Each block runs one instruction over a tile of IT x 256 rows
// before the next (the star kernel's items per thread), so an instruction
// is fetched and dispatched once per IT rows instead of once per row, and
// the registers live in shared memory ([reg][item][thread], conflict-free)
// rather than in a thread's local memory. A column load is not dispatched
// per row: its IT loads (and validity words) are issued together, so
// enough bytes are in flight to stream at the memory's rate. One launch
// computes up to VM_MAX_OUT output columns of one row set (a projection's
// expressions), so columns several expressions read are read once. The
// host takes 8 rows a thread for programs of at most 4 registers (more
// loads in flight), else 4.
//
// Per row: reads the program's columns (4-8 B each, coalesced: item k of
// thread t is row tile + k*256 + t; at rowids[i] when a selection is
// given), writes each output at its declared width (8, 4 or 1 B) and a
// validity bit. Launch: grid-stride over tiles, 256 threads, dynamic
// shared memory nreg x IT x 256 x 9 B plus the program. Bound: device
// memory bandwidth for short arithmetic programs (shared memory traffic is
// about 27 B per row and instruction, well under its bandwidth),
// instruction issue for long ones.
#define VM_MAX_OUT 8

// VMOut is one output column of a tile program: register reg as kind
// VM_OUT_* into data, and its validity bits (32 rows a word) into valid
// when set.
struct VMOut {
  void* data;
  unsigned int* valid;
  int kind;
  int reg;
};

// ExprTileParams: instructions carry in pad the mask of the register
// operands they read (1: a, 2: b, 4: c), set by the host.
struct ExprTileParams {
  long long n;
  const int* rowids;  // row of output i (nullptr: row i)
  const VMIns* prog;
  int nins;
  int ncols;
  int nreg;
  int nout;
  Col cols[VM_COLS];
  VMOut outs[VM_MAX_OUT];
};

extern "C" __global__ void expr_tile_params_size(long long* out) { *out = sizeof(ExprTileParams); }

// tile_ldcol is VM_LDCOL (vm_op's case) at IT rows at once: value and
// validity loads all issued before any is used; NULL and dead rows give 0.
template <int IT>
__device__ __forceinline__ void tile_ldcol(const Col& col, const long long* row, const bool* live, long long* v, bool* ok) {
  if (!col.frame && !col.isFloat && col.width == 4) {
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = live[k] ? (long long)__ldg((const int*)col.data + row[k]) : 0;
  } else if (!col.frame && col.width == 8) {  // a DOUBLE's bits are its 8 bytes
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = live[k] ? __ldg((const long long*)col.data + row[k]) : 0;
  } else {
#pragma unroll
    for (int k = 0; k < IT; k++) v[k] = !live[k] ? 0 : col.isFloat ? fbits(__ldg((const double*)col.data + row[k])) : ldi(col, row[k]);
  }
#pragma unroll
  for (int k = 0; k < IT; k++) {
    ok[k] = live[k] && isvalid(col, row[k]);
    if (!ok[k]) v[k] = 0;
  }
}

// tile_op runs instruction in at the IT rows of a thread. OP is its opcode
// as a constant (-1: in.op at run time, the operand mask the host put in
// pad limiting what is read) and USED its operand mask; a constant opcode
// folds vm_op's switch away. A row past the end evaluates nothing (every
// value NULL), so it can neither read past a column nor report an
// overflow.
template <int IT, int OP, int USED>
__device__ __forceinline__ void tile_op(const VMIns& in, const Col* cols, long long* regs, unsigned char* nn,
                                        const long long* row, const bool* live, int t) {
  constexpr int TILE = IT * 256;
  const int used = OP < 0 ? in.pad : USED;
  const int op = OP < 0 ? in.op : OP;
#pragma unroll
  for (int k = 0; k < IT; k++) {
    long long ra = 0, rb = 0, rc = 0;
    bool na = false, nb = false, nc = false;
    if (used & 1) ra = regs[in.a * TILE + k * 256 + t], na = nn[in.a * TILE + k * 256 + t];
    if (used & 2) rb = regs[in.b * TILE + k * 256 + t], nb = nn[in.b * TILE + k * 256 + t];
    if (used & 4) rc = regs[in.c * TILE + k * 256 + t], nc = nn[in.c * TILE + k * 256 + t];
    bool ok = false;
    long long v = 0;
    if (live[k]) v = vm_op(op, in, cols, row[k], ra, na, rb, nb, rc, nc, &ok);
    regs[in.dst * TILE + k * 256 + t] = ok ? v : 0;
    nn[in.dst * TILE + k * 256 + t] = ok;
  }
}

template <int IT>
__device__ __forceinline__ void expr_tile(const ExprTileParams& p) {
  constexpr int TILE = IT * 256;
  extern __shared__ long long vt_shared[];
  long long* regs = vt_shared;                                // [nreg][IT][256]
  VMIns* prog = (VMIns*)(regs + (long long)p.nreg * TILE);    // [nins]
  unsigned char* nn = (unsigned char*)(prog + p.nins);        // [nreg][IT][256]
  const int t = threadIdx.x;
  {
    const long long* src = (const long long*)p.prog;
    long long* dst = (long long*)prog;
    const int words = p.nins * (int)(sizeof(VMIns) / 8);
    for (int j = t; j < words; j += blockDim.x) dst[j] = __ldg(src + j);
  }
  __syncthreads();
  for (long long tile = (long long)blockIdx.x * TILE; tile < p.n; tile += (long long)gridDim.x * TILE) {
    long long row[IT];
    bool live[IT];
#pragma unroll
    for (int k = 0; k < IT; k++) {
      const long long i = tile + k * 256 + t;
      live[k] = i < p.n;
      row[k] = !live[k] ? 0 : p.rowids ? (long long)__ldg(p.rowids + i) : i;
    }
    for (int q = 0; q < p.nins; q++) {
      const VMIns in = prog[q];
      if (in.op == VM_LDCOL) {
        long long v[IT];
        bool ok[IT];
        tile_ldcol<IT>(p.cols[in.a], row, live, v, ok);
#pragma unroll
        for (int k = 0; k < IT; k++) regs[in.dst * TILE + k * 256 + t] = v[k], nn[in.dst * TILE + k * 256 + t] = ok[k];
        continue;
      }
      // The common ops run specialized (the opcode and operand mask as
      // constants: no dispatch per row); the rest through the generic case.
      switch (in.op) {
        case VM_CONST: tile_op<IT, VM_CONST, 0>(in, p.cols, regs, nn, row, live, t); break;
        case VM_IADD: tile_op<IT, VM_IADD, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_ISUB: tile_op<IT, VM_ISUB, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_IMUL: tile_op<IT, VM_IMUL, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_MULK: tile_op<IT, VM_MULK, 1>(in, p.cols, regs, nn, row, live, t); break;
        case VM_WRAP32: tile_op<IT, VM_WRAP32, 1>(in, p.cols, regs, nn, row, live, t); break;
        case VM_ICMP: tile_op<IT, VM_ICMP, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_AND: tile_op<IT, VM_AND, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_OR: tile_op<IT, VM_OR, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_SELECT: tile_op<IT, VM_SELECT, 7>(in, p.cols, regs, nn, row, live, t); break;
        case VM_FADD: tile_op<IT, VM_FADD, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_FMUL: tile_op<IT, VM_FMUL, 3>(in, p.cols, regs, nn, row, live, t); break;
        case VM_I2F: tile_op<IT, VM_I2F, 1>(in, p.cols, regs, nn, row, live, t); break;
        default: tile_op<IT, -1, 7>(in, p.cols, regs, nn, row, live, t); break;
      }
    }
    for (int o = 0; o < p.nout; o++) {
      const VMOut out = p.outs[o];
#pragma unroll
      for (int k = 0; k < IT; k++) {
        const long long i = tile + k * 256 + t;
        const long long v = regs[(out.reg * IT + k) * 256 + t];
        const bool valid = live[k] && nn[(out.reg * IT + k) * 256 + t];
        if (live[k]) {
          switch (out.kind) {
            case VM_OUT_I64: ((long long*)out.data)[i] = valid ? v : 0; break;
            case VM_OUT_I32: ((int*)out.data)[i] = valid ? (int)v : 0; break;
            case VM_OUT_F64: ((long long*)out.data)[i] = valid ? v : 0; break;
            case VM_OUT_FLAG: ((unsigned char*)out.data)[i] = valid && v != 0; break;
          }
        }
        if (out.valid) {
          // Every lane takes part in the ballot; a warp wholly past the
          // end writes no word (the bitmap holds ceil(n/32) of them).
          const unsigned int bits = __ballot_sync(0xffffffffu, valid);
          const long long w0 = tile + k * 256 + (t & ~31);
          if ((t & 31) == 0 && w0 < p.n) out.valid[w0 >> 5] = bits;
        }
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(256, 3) expr_vm_tile8(const ExprTileParams p) { expr_tile<8>(p); }
extern "C" __global__ void __launch_bounds__(256) expr_vm_tile4(const ExprTileParams p) { expr_tile<4>(p); }
