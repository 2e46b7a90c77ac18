package cpu

import (
	"math"
	"math/bits"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// convertBigUnsigned converts a BIGINT UNSIGNED value of 2^63 or more
// (whose int64 bit pattern is negative), or a DOUBLE into BIGINT UNSIGNED.
// Between BIGINT and BIGINT UNSIGNED a cast keeps the 64 bits, as MySQL's
// CAST(... AS SIGNED / UNSIGNED) does: CAST(18446744073709551615 AS SIGNED)
// is -1. A value no DECIMAL(18) or INT holds gives NULL.
func convertBigUnsigned(i int64, f float64, from, to columnar.Type) (numVal, bool) {
	if from.ID == columnar.Float64 { // into BIGINT UNSIGNED
		switch {
		case math.IsNaN(f) || f >= 18446744073709551616.0:
			return numVal{}, false
		case f >= 9223372036854775808.0:
			return numVal{i: int64(uint64(f))}, true
		}
		return numVal{i: doubleToInt(f)}, true
	}
	u := uint64(i)
	switch to.ID {
	case columnar.Float64:
		return numVal{f: float64(u)}, true
	case columnar.Bool:
		return numVal{i: 1}, true
	case columnar.Int64:
		return numVal{i: i}, true
	}
	return numVal{}, false
}

// castDoubleUnsigned is CAST(d AS UNSIGNED) of a DOUBLE: MySQL reads d as
// Field_double::val_int does (Item_typecast_unsigned::val_int), so past
// BIGINT's range it is LLONG_MAX or LLONG_MIN's bits, noting 1292, where a
// store into a BIGINT UNSIGNED column takes up to 2^64.
func castDoubleUnsigned(f float64) (numVal, bool) {
	switch {
	case math.IsNaN(f):
		return numVal{}, false
	case f >= 9223372036854775807.0:
		return numVal{i: math.MaxInt64, truncated: true}, true
	case f <= -9223372036854775808.0:
		return numVal{i: math.MinInt64, truncated: true}, true
	}
	return numVal{i: doubleToInt(f)}, true
}

// orderedInt64 maps a value of type t to an int64 whose signed order is
// the value's order: BIGINT UNSIGNED bit patterns get their top bit
// flipped (0 → MinInt64, 2^64-1 → MaxInt64); every other type is
// unchanged. The map is its own inverse, so MIN/MAX accumulate mapped
// values and map the result back.
func orderedInt64(t columnar.Type, v int64) int64 {
	if t.IsBigUnsigned() {
		return v ^ math.MinInt64
	}
	return v
}

// unsignedArithEval computes + - * DIV % where an operand or the result is
// unsigned (sql/unsigned_ops.go): each operand is read by its own type as
// a sign and a 64-bit magnitude, so no value of either range wraps, and a
// result outside the result type's range is MySQL's error 1690, "BIGINT
// UNSIGNED value is out of range in '(a - b)'". DIV or % by zero is NULL.
type unsignedArithEval struct {
	op     sql.BinOp
	l, r   evaluator
	lt, rt columnar.Type
	t      columnar.Type
	out    *vec
	expr   sql.Expr
	warn   *sql.Warnings // 1365 for a division by zero (a NULL result of values)
}

func newUnsignedArith(e *sql.Binary, l, r evaluator, warn *sql.Warnings) evaluator {
	lt, rt := e.L.Type(), e.R.Type()
	// INT and BOOLEAN operands are read as BIGINT (the binder casts them;
	// folded constants may still be narrower).
	if !lt.Unsigned {
		l, lt = castTo(l, lt, columnar.TInt64), columnar.TInt64
	}
	if !rt.Unsigned {
		r, rt = castTo(r, rt, columnar.TInt64), columnar.TInt64
	}
	return &unsignedArithEval{op: e.Op, l: l, r: r, lt: lt, rt: rt, t: e.T, out: newVec(e.T), expr: e, warn: warn}
}

// magnitude is a value of up to 65 bits: -mag when neg.
type magnitude struct {
	mag uint64
	neg bool
}

func magnitudeOf(v int64, t columnar.Type) magnitude {
	if t.Unsigned || v >= 0 {
		return magnitude{mag: uint64(v)}
	}
	return magnitude{mag: -uint64(v), neg: true}
}

func (e *unsignedArithEval) eval(b *batch, sel []int32) *vec {
	lv, rv := e.l.eval(b, sel), e.r.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, lv, rv)
	for _, p := range sel {
		if out.isNull(p) {
			continue
		}
		x, y := magnitudeOf(lv.i64[p], e.lt), magnitudeOf(rv.i64[p], e.rt)
		z, ok, null := combineMagnitudes(e.op, x, y)
		if null {
			e.warn.Add(sql.WarnDivisionByZero, "Division by 0")
			out.setNull(b.n, p)
			continue
		}
		v, fits := e.store(z)
		if !ok || !fits {
			kind := "BIGINT"
			if e.t.Unsigned {
				kind = "BIGINT UNSIGNED"
			}
			raise(outOfRange(kind, e.expr))
		}
		out.i64[p] = v
	}
	return out
}

// store is z in the result type's int64 slot; fits is false outside its
// range.
func (e *unsignedArithEval) store(z magnitude) (int64, bool) {
	switch {
	case e.t.Unsigned:
		return int64(z.mag), !z.neg || z.mag == 0
	case z.neg:
		return int64(-z.mag), z.mag <= 1<<63
	}
	return int64(z.mag), z.mag <= math.MaxInt64
}

// combineMagnitudes is x op y; ok is false when the magnitude passes
// 2^64-1, null for a division by zero.
func combineMagnitudes(op sql.BinOp, x, y magnitude) (z magnitude, ok, null bool) {
	switch op {
	case sql.OpSub:
		y.neg = !y.neg
		fallthrough
	case sql.OpAdd:
		if x.neg == y.neg {
			s, carry := bits.Add64(x.mag, y.mag, 0)
			return magnitude{mag: s, neg: x.neg}, carry == 0, false
		}
		if x.mag >= y.mag {
			return magnitude{mag: x.mag - y.mag, neg: x.neg}, true, false
		}
		return magnitude{mag: y.mag - x.mag, neg: y.neg}, true, false
	case sql.OpMul:
		hi, lo := bits.Mul64(x.mag, y.mag)
		return magnitude{mag: lo, neg: x.neg != y.neg}, hi == 0, false
	case sql.OpIntDiv:
		if y.mag == 0 {
			return magnitude{}, true, true
		}
		return magnitude{mag: x.mag / y.mag, neg: x.neg != y.neg}, true, false
	case sql.OpMod:
		if y.mag == 0 {
			return magnitude{}, true, true
		}
		return magnitude{mag: x.mag % y.mag, neg: x.neg}, true, false
	}
	return magnitude{}, false, false
}

func init() { stringBodies[sql.UnsignedCompare] = unsignedCompareBody }

// unsignedCompareBody is ucompare(a, b): -1, 0 or 1 by value, each
// argument read by its type (a negative BIGINT is below every unsigned
// value).
func unsignedCompareBody(f *rowFunc, a []val) val {
	x, y := magnitudeOf(a[0].i, f.types[0]), magnitudeOf(a[1].i, f.types[1])
	switch {
	case x.neg != y.neg:
		if x.neg {
			return iv(-1)
		}
		return iv(1)
	case x.mag == y.mag:
		return iv(0)
	case (x.mag < y.mag) != x.neg:
		return iv(-1)
	}
	return iv(1)
}
