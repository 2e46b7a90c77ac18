package cpu

import (
	"fmt"
	"math"

	"gpusql/storage/columnar"
)

// round_var and truncate_var: ROUND / TRUNCATE by a per-row number of
// digits (sql/round_var.go). X keeps its type: a DECIMAL its scale, so
// the digits past D become zeros.
func init() {
	mathBodies["round_var"] = func(f *rowFunc, a []val) val { return roundVar(f, a, false) }
	mathBodies["truncate_var"] = func(f *rowFunc, a []val) val { return roundVar(f, a, true) }
	// unsigned_count: a BIGINT UNSIGNED count past BIGINT's top is the
	// largest count, not a negative one (sql/functions_more.go's count).
	mathBodies["unsigned_count"] = func(f *rowFunc, a []val) val {
		if a[0].i < 0 {
			return iv(math.MaxInt64)
		}
		return a[0]
	}
}

func roundVar(f *rowFunc, a []val, trunc bool) val {
	d := a[1].i
	if f.types[0].ID == columnar.Float64 {
		return fv(doubleRound(a[0].f, d, trunc))
	}
	scale := int64(f.types[0].DecimalScale())
	drop := scale - d // digits of the scaled integer to clear
	v := a[0].i
	switch {
	case drop <= 0:
		return iv(v)
	case drop > 18:
		return iv(0)
	}
	q := pow10(int(drop))
	r := v / q * q
	if !trunc && (v-r)*2/q != 0 { // half or more away from zero
		if v < 0 {
			r -= q
		} else {
			r += q
		}
		if (r < 0) != (v < 0) && r != 0 {
			raise(fmt.Errorf("%s value is out of range in '%s'", f.t.String(), mysqlCall(f.name[:len(f.name)-4], f.expr)))
		}
	}
	return iv(r)
}

// doubleRound is MySQL's my_double_round: x scaled by 10^|d|, rounded
// to even (or truncated) and scaled back. A scale past DOUBLE's range
// gives 0 for d < 0 and x itself for d > 0, as does an x whose scaled
// value would be infinite (ROUND(1e300, 10) is 1e300, not +Inf).
func doubleRound(x float64, d int64, trunc bool) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	tmp := math.Inf(1)
	if d >= -308 && d <= 308 {
		tmp = math.Pow10(int(max(d, -d)))
	}
	op := math.RoundToEven
	if trunc {
		op = math.Trunc
	}
	switch {
	case d < 0 && math.IsInf(tmp, 0):
		return 0
	case d < 0:
		return op(x/tmp) * tmp
	case math.IsInf(tmp, 0) || math.IsInf(x*tmp, 0):
		return x
	}
	return op(x*tmp) / tmp
}
