package cpu

import (
	"fmt"
	"math"
	"math/bits"

	"gpusql/sql"
)

// Arithmetic follows MySQL: a BIGINT result that leaves the int64
// range is ERROR 1690 (22003), never a wrapped value. The loops stay
// branch-free: each accumulates a word whose sign bit (or high half) turns
// on when some position may have overflowed, and only then a second pass
// over the batch finds a position that really did — NULL positions hold
// whatever their slots held, so they are skipped there, not in the hot loop.

// outOfRange is the error for a value of kind (BIGINT, DECIMAL) that e's
// result type cannot hold, worded as MySQL words it: operators in
// parentheses, '(a + b)', functions as they are, 'sum(a)'.
//
// An operation bound from SQL as written carries MySQL's own printing of
// it (Text: '(`gpusql`.`t`.`a` + 1)', '-(9223372036854775807)'), which
// wins; one the binder made up is printed from the bound tree.
func outOfRange(kind string, e fmt.Stringer) error {
	s := e.String()
	switch x := e.(type) {
	case *sql.Binary:
		s = "(" + s + ")"
		if x.Text != "" {
			s = x.Text
		}
	case *sql.Neg:
		if x.Text != "" {
			s = x.Text
		}
	case *sql.Func:
		if x.Text != "" {
			s = x.Text
		}
	}
	return fmt.Errorf("%s value is out of range in '%s'", kind, s)
}

// addOverflows reports whether a+b wraps: the sum's sign differs from the
// sign both operands share.
func addOverflows(a, b int64) bool { s := a + b; return (a^s)&(b^s) < 0 }

// subOverflows reports whether a-b wraps: the operands' signs differ and
// the result's sign is not a's.
func subOverflows(a, b int64) bool { s := a - b; return (a^b)&(a^s) < 0 }

// mulOverflows reports whether a*b leaves int64, from the 128-bit product
// of the magnitudes (whose bound is 2^63 when the product is negative).
func mulOverflows(a, b int64) bool {
	hi, lo := bits.Mul64(uabs(a), uabs(b))
	limit := uint64(math.MaxInt64)
	if (a < 0) != (b < 0) {
		limit++
	}
	return hi != 0 || lo > limit
}

// fits32 is non-zero in its high half when v is outside int32: products
// of two int32-range values cannot overflow int64, so a batch whose
// operands all fit skips the exact check.
func fits32(v int64) uint64 { return uint64(v+1<<31) >> 32 }

// firstOverflow returns a non-NULL position of sel where op overflows on
// a[p], b[p], or -1.
func firstOverflow(op sql.BinOp, out *vec, sel []int32, a, b []int64) int32 {
	for _, p := range sel {
		if out.isNull(p) {
			continue
		}
		var bad bool
		switch op {
		case sql.OpAdd:
			bad = addOverflows(a[p], b[p])
		case sql.OpSub:
			bad = subOverflows(a[p], b[p])
		case sql.OpMul:
			bad = mulOverflows(a[p], b[p])
		case sql.OpIntDiv:
			bad = a[p] == math.MinInt64 && b[p] == -1
		}
		if bad {
			return p
		}
	}
	return -1
}

// checkedInt64Arith is evalIntArith for BIGINT results: the same loops,
// then the overflow test; it returns whether some non-NULL position of sel
// overflowed.
func checkedInt64Arith(op sql.BinOp, out *vec, n int, sel []int32, a, b, o []int64) bool {
	var flag uint64
	switch op {
	case sql.OpAdd:
		for _, p := range sel {
			x, y := a[p], b[p]
			s := x + y
			o[p] = s
			flag |= uint64((x ^ s) & (y ^ s))
		}
		flag >>= 63
	case sql.OpSub:
		for _, p := range sel {
			x, y := a[p], b[p]
			s := x - y
			o[p] = s
			flag |= uint64((x ^ y) & (x ^ s))
		}
		flag >>= 63
	case sql.OpMul:
		for _, p := range sel {
			x, y := a[p], b[p]
			o[p] = x * y
			flag |= fits32(x) | fits32(y)
		}
	case sql.OpIntDiv:
		evalIntArith(op, out, n, sel, a, b, o)
		flag = 1 // the loop already branches per row; check exactly
	default:
		evalIntArith(op, out, n, sel, a, b, o)
		return false
	}
	return flag != 0 && firstOverflow(op, out, sel, a, b) >= 0
}

// nonFinite reports whether some non-NULL position of sel holds ±Inf or
// NaN: MySQL's DOUBLE has neither, and an operator that would produce one
// raises "DOUBLE value is out of range". 0*v is 0 for every finite v and
// NaN otherwise, so one branch-free sum tells whether the exact pass over
// the batch (which skips NULL slots holding leftovers) is needed.
func nonFinite(out *vec, sel []int32, o []float64) bool {
	var acc float64
	for _, p := range sel {
		acc += 0 * o[p]
	}
	if acc == 0 {
		return false
	}
	for _, p := range sel {
		if v := o[p]; (math.IsInf(v, 0) || math.IsNaN(v)) && !out.isNull(p) {
			return true
		}
	}
	return false
}

// checkedNeg negates a BIGINT vector; -(-2^63) is the one value that
// overflows, the only v with v & -v negative.
func checkedNeg(out *vec, sel []int32, a, o []int64) bool {
	var flag int64
	for _, p := range sel {
		x := a[p]
		o[p] = -x
		flag |= x & -x
	}
	if flag >= 0 {
		return false
	}
	for _, p := range sel {
		if a[p] == math.MinInt64 && !out.isNull(p) {
			return true
		}
	}
	return false
}

// doubleToInt is sql.DoubleToInt: a DOUBLE's tie rounds to even.
func doubleToInt(f float64) int64 { return sql.DoubleToInt(f) }
