package sql

import "gpusql/storage/columnar"

// A DOUBLE may carry a fixed number of decimals, which MySQL prints it
// with: PI() has 6 (SELECT PI() is 3.141593, PI() + 0.000000000000000000
// 3.141592653589793000; "Mathematical Functions", PI), and + - * of such
// a DOUBLE with integers or DECIMALs keeps the most decimals of the two
// (PI() * 2 is 6.283185), / adds div_precision_increment's 4, as MySQL's
// Item_num_op / Item_func_div do. columnar.Type.Scale holds them for a
// Float64; 0 is MySQL's NOT_FIXED_DEC: the shortest digits that read back.
// A DOUBLE column, a DOUBLE literal (1e0) or a function's DOUBLE (SQRT,
// SIN ...) has none, and an operation with one has none either.

// piDecimals are PI()'s.
const piDecimals = 6

// maxFixedDecimals is the most a fixed DOUBLE keeps (MySQL's
// DECIMAL_NOT_SPECIFIED is 31).
const maxFixedDecimals = 30

// fixedDouble is a DOUBLE printed with scale decimals.
func fixedDouble(scale int) columnar.Type {
	t := columnar.TFloat64
	t.Scale = scale
	return t
}

// doubleArithType is the DOUBLE type of l op r where either side is a
// DOUBLE.
func doubleArithType(op BinOp, l, r columnar.Type) columnar.Type {
	dl, okl := fixedDecimals(l)
	dr, okr := fixedDecimals(r)
	if !okl || !okr || (l.ID != columnar.Float64 || l.Scale == 0) && (r.ID != columnar.Float64 || r.Scale == 0) {
		return columnar.TFloat64
	}
	d := max(dl, dr)
	if op == OpDiv {
		d += 4
	}
	if d > maxFixedDecimals {
		return columnar.TFloat64
	}
	return fixedDouble(d)
}

// fixedDecimals are t's decimals; ok is false for a DOUBLE without fixed
// ones.
func fixedDecimals(t columnar.Type) (int, bool) {
	switch t.ID {
	case columnar.Float64:
		return t.Scale, t.Scale > 0
	case columnar.Decimal:
		return t.Scale, true
	}
	return 0, true
}
