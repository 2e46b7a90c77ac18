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
        const int a = in.a, b = in.b, c = in.c, dst = in.dst;
        long long v = 0;
        bool ok = true;
        switch (in.op) {
          case VM_LDCOL: {
            const Col& col = p.cols[a];
            ok = isvalid(col, row);
            if (ok) v = col.isFloat ? fbits(__ldg((const double*)col.data + row)) : ldi(col, row);
            break;
          }
          case VM_CONST: v = in.imm; ok = b == 0; break;
          case VM_MOV: v = r[a]; ok = nn[a]; break;
          // imm2 != 0 marks SQL arithmetic, whose overflow is an error
          // (common.cuh's gpusql_overflow); the compiler's own offsets wrap.
          case VM_IADD:
            ok = nn[a] && nn[b];
            v = ok && in.imm2 ? add_ck(r[a], r[b]) : (long long)((unsigned long long)r[a] + (unsigned long long)r[b]);
            break;
          case VM_ISUB:
            ok = nn[a] && nn[b];
            v = ok && in.imm2 ? sub_ck(r[a], r[b]) : (long long)((unsigned long long)r[a] - (unsigned long long)r[b]);
            break;
          case VM_IMUL:
            ok = nn[a] && nn[b];
            v = ok && in.imm2 ? mul_ck(r[a], r[b]) : (long long)((unsigned long long)r[a] * (unsigned long long)r[b]);
            break;
          case VM_IDIV:
            ok = nn[a] && nn[b] && r[b] != 0;
            if (ok && in.imm2) note_overflow(r[b] == -1 && r[a] == (long long)0x8000000000000000ULL);
            if (ok) v = r[b] == -1 ? (long long)(0ULL - (unsigned long long)r[a]) : r[a] / r[b];
            break;
          case VM_IMOD:
            ok = nn[a] && nn[b] && r[b] != 0;
            if (ok) v = r[b] == -1 ? 0 : r[a] % r[b];
            break;
          case VM_WRAP32: v = (long long)(int)r[a]; ok = nn[a]; break;
          // A DOUBLE result past the largest double is MySQL's error 1690
          // ("DOUBLE value is out of range"), like a BIGINT overflow: SQL
          // values are finite, so an infinite result is one.
          case VM_FADD: v = fbits(asf(r[a]) + asf(r[b])); ok = nn[a] && nn[b]; if (ok) note_overflow(!isfinite(asf(v))); break;
          case VM_FSUB: v = fbits(asf(r[a]) - asf(r[b])); ok = nn[a] && nn[b]; if (ok) note_overflow(!isfinite(asf(v))); break;
          case VM_FMUL: v = fbits(asf(r[a]) * asf(r[b])); ok = nn[a] && nn[b]; if (ok) note_overflow(!isfinite(asf(v))); break;
          case VM_FDIV:
          case VM_FIDIV:
            ok = nn[a] && nn[b] && asf(r[b]) != 0.0;
            if (ok) {
              double q = asf(r[a]) / asf(r[b]);
              note_overflow(!isfinite(q));
              v = fbits(in.op == VM_FIDIV ? trunc(q) : q);
            }
            break;
          case VM_FMOD:
            ok = nn[a] && nn[b] && asf(r[b]) != 0.0;
            if (ok) v = fbits(fmod(asf(r[a]), asf(r[b])));
            break;
          case VM_MULK:
            ok = nn[a];
            v = ok && in.imm2 ? mul_ck(r[a], in.imm) : (long long)((unsigned long long)r[a] * (unsigned long long)in.imm);
            break;
          case VM_DIVROUNDK: ok = nn[a]; if (ok) v = div_round(r[a], in.imm); break;
          case VM_MULDIVROUND:
            // Fails on a zero divisor (NULL) or a quotient beyond int64
            // (an overflow when checked).
            ok = nn[a] && nn[b] && nn[c] && mul_div_round(r[a], r[b], r[c], &v);
            if (!ok && in.imm2) note_overflow(nn[a] && nn[b] && nn[c] && r[c] != 0);
            break;
          case VM_INTDIVDEC:  // (a / b) * imm, NULL when b = 0 (decimal DIV)
            ok = nn[a] && nn[b] && r[b] != 0;
            if (ok) v = (r[a] / r[b]) * in.imm;
            break;
          case VM_ICMP: ok = nn[a] && nn[b]; if (ok) v = cmp_op<long long>(in.imm, r[a], r[b]); break;
          case VM_FCMP: ok = nn[a] && nn[b]; if (ok) v = cmp_op<double>(in.imm, asf(r[a]), asf(r[b])); break;
          case VM_AND: {
            bool fa = nn[a] && r[a] == 0, fb = nn[b] && r[b] == 0;
            if (fa || fb) v = 0;
            else if (!nn[a] || !nn[b]) ok = false;
            else v = 1;
            break;
          }
          case VM_OR: {
            bool ta = nn[a] && r[a] != 0, tb = nn[b] && r[b] != 0;
            if (ta || tb) v = 1;
            else if (!nn[a] || !nn[b]) ok = false;
            else v = 0;
            break;
          }
          case VM_NOT: ok = nn[a]; v = r[a] == 0; break;
          case VM_ISNULL: v = (!nn[a]) != (in.imm != 0); break;
          case VM_LOOKUP: {
            // table: imm2+1 int64 values then imm2+1 validity bytes; entry
            // imm2 is the value for a NULL input.
            const long long* vals = (const long long*)in.imm;
            const unsigned char* vv = (const unsigned char*)(vals + in.imm2 + 1);
            long long k = nn[a] ? r[a] : in.imm2;
            if (k < 0 || k > in.imm2) ok = false;
            else {
              v = __ldg(vals + k);
              ok = __ldg(vv + k) != 0;
            }
            break;
          }
          case VM_SELECT: {
            int s = (nn[a] && r[a] != 0) ? b : c;
            v = r[s];
            ok = nn[s];
            break;
          }
          case VM_SELNN: {
            int s = nn[a] ? a : b;
            v = r[s];
            ok = nn[s];
            break;
          }
          case VM_I2F: v = fbits((double)r[a]); ok = nn[a]; break;
          case VM_F2I: v = (long long)round(asf(r[a])); ok = nn[a]; break;
          case VM_F2DEC: v = (long long)round(asf(r[a]) * asf(in.imm)); ok = nn[a]; break;
          case VM_DEC2F: v = fbits((double)r[a] / asf(in.imm)); ok = nn[a]; break;
          case VM_INE0: v = r[a] != 0; ok = nn[a]; break;
          case VM_FNE0: v = asf(r[a]) != 0.0; ok = nn[a]; break;
          case VM_INEG:
            ok = nn[a];
            if (ok && in.imm2) note_overflow(r[a] == (long long)0x8000000000000000ULL);
            v = (long long)(0ULL - (unsigned long long)r[a]);
            break;
          case VM_FNEG: v = fbits(-asf(r[a])); ok = nn[a]; break;
          case VM_IABS:
            // |-2^63| leaves BIGINT: flagged like VM_INEG (MySQL's error 1690).
            ok = nn[a];
            if (ok && in.imm2) note_overflow(r[a] == (long long)0x8000000000000000ULL);
            v = r[a] < 0 ? (long long)(0ULL - (unsigned long long)r[a]) : r[a];
            break;
          case VM_FABS: v = fbits(fabs(asf(r[a]))); ok = nn[a]; break;
          case VM_FROUND: v = fbits(rint(asf(r[a]) * asf(in.imm)) / asf(in.imm)); ok = nn[a]; break;
          case VM_FFLOOR: v = fbits(floor(asf(r[a]))); ok = nn[a]; break;
          case VM_FCEIL: v = fbits(ceil(asf(r[a]))); ok = nn[a]; break;
          case VM_DFLOOR:
          case VM_DCEIL: {
            // exec/cpu's floor/ceil of a scaled integer (imm = 10^scale).
            ok = nn[a];
            long long x = r[a];
            v = x / in.imm;
            if (x % in.imm != 0) {
              if (in.op == VM_DFLOOR && x < 0) v--;
              else if (in.op == VM_DCEIL && x > 0) v++;
            }
            break;
          }
          case VM_YEAR:
          case VM_MONTH:
          case VM_DAY: {
            ok = nn[a];
            long long y, m, d;
            civil(r[a], &y, &m, &d);
            v = in.op == VM_YEAR ? y : in.op == VM_MONTH ? m : d;
            break;
          }
        }
        r[dst] = ok ? v : 0;
        nn[dst] = ok;
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
