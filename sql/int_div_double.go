package sql

import (
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// x DIV y where an operand is a DOUBLE (or a string read as one) divides
// DECIMALs, as MySQL's Item_func_int_div::val_int does for any operand
// that is not an integer: each side is read with val_decimal (a double's
// shortest digits: 0.3e0 is 0.3), divided, cut to an integer, and a
// quotient past BIGINT is 1690, not a DOUBLE. So 0.3e0 DIV 0.1e0 is 3,
// where the doubles' quotient 2.9999999999999996 cuts to 2, and
// 1e20 DIV 1 is "BIGINT value is out of range", not 1e20.

// doubleIntDiv binds l DIV r over operand types lt and rt, one of them
// DOUBLE; ok is false otherwise.
func doubleIntDiv(l, r Expr, lt, rt columnar.Type) (Expr, bool) {
	if lt.ID != columnar.Float64 && rt.ID != columnar.Float64 {
		return nil, false
	}
	read := func(e Expr, t columnar.Type) (Expr, columnar.Type) {
		if t.ID != columnar.Float64 {
			return e, t
		}
		w := columnar.TDecimal(decimal.MaxPrecision, decimal.MaxScale)
		return castTo(e, w), w
	}
	l, lt = read(l, lt)
	r, rt = read(r, rt)
	return wideArith(OpIntDiv, l, r, lt, rt, false)
}
