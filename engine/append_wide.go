package engine

import (
	"gpusql/exec"
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// widesInto writes src's n values, converted to the wide DECIMAL or from
// the wide DECIMAL of out's or src's type, at out[m:]. Extra fraction
// digits round half away from zero; a value with more integer digits than
// the column holds is MySQL's strict-mode "Out of range value" (1264).
func widesInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	t := out.Type
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		v, ok := wideValue(src, i, t.DecimalScale())
		if !ok {
			return &rowError{row: i, value: exec.FormatValue(src, i), typ: t}
		}
		if t.IsWide() {
			if !decimal.Fits(v, t.Precision) {
				return &rowError{row: i, value: exec.FormatValue(src, i), typ: t}
			}
			out.W[m+i] = v
			continue
		}
		x, ok := wideInteger(v, t)
		if !ok || !fits(x, t) || t.Physical() != columnar.PhysInt64 && t.Physical() != columnar.PhysInt32 {
			return &rowError{row: i, value: exec.FormatValue(src, i), typ: t}
		}
		if t.Physical() == columnar.PhysInt32 {
			out.I32[m+i] = int32(x)
		} else {
			out.I64[m+i] = x
		}
	}
	return nil
}

// wideInteger is v (scale 0) as the int64 bits of integer type t: a
// BIGINT UNSIGNED holds 0 to 2^64-1 in an int64's bits, a narrower
// unsigned type 0 to its UnsignedMax.
func wideInteger(v decimal.Num, t columnar.Type) (int64, bool) {
	if !t.Unsigned {
		return decimal.Int64(v)
	}
	u, ok := decimal.Uint64(v)
	if !ok || u > t.UnsignedMax() {
		return 0, false
	}
	return int64(u), true
}

// wideValue is row i of c as an unscaled wide value at scale s.
func wideValue(c *columnar.Column, i, s int) (decimal.Num, bool) {
	t := c.Type
	switch {
	case t.ID == columnar.Float64:
		return decimal.FromFloat64(c.F64[i], s)
	case t.ID == columnar.String:
		v, _, err := decimal.Parse(c.StringAt(i), s)
		return v, err == nil
	case t.IsBigUnsigned():
		return decimal.Rescale(decimal.FromUint64(uint64(c.I64[i])), 0, s)
	case t.ID == columnar.Decimal || t.IsInteger() || t.ID == columnar.Bool:
		return decimal.Rescale(c.WideAt(i), t.DecimalScale(), s)
	}
	return decimal.Num{}, false
}
