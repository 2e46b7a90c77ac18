package engine

import (
	"math"
	"math/big"

	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// lenientWide converts a DECIMAL of more than 18 digits (c) to integer or
// narrow DECIMAL field f outside strict mode: a value past f's range
// becomes its nearest end with 1264, as MySQL stores
// CAST(18446744073709551608 AS DECIMAL(20,0)) into an INT as 2147483647.
// Without it the value would reach the strict store and fail there.
func lenientWide(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	t := f.Type
	lo, hi := decimal.FromInt64(0), decimal.FromUint64(math.MaxUint64)
	if !t.IsBigUnsigned() {
		l, h, ok := storeBounds(t)
		if !ok {
			return c
		}
		lo, hi = decimal.FromInt64(l), decimal.FromInt64(h)
	}
	out := columnar.NewColumn(t, c.Len, !f.Nullable || c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		v, ok := wideValue(c, i, t.DecimalScale())
		switch {
		case !ok && decimal.Sign(c.WideAt(i)) < 0, ok && decimal.Cmp(v, lo) < 0:
			v = lo
			warn(sql.WarnOutOfRange, i)
		case !ok, decimal.Cmp(v, hi) > 0:
			v = hi
			warn(sql.WarnOutOfRange, i)
		}
		x, _ := wideInteger(v, t)
		if t.Physical() == columnar.PhysInt32 {
			out.I32[i] = int32(x)
		} else {
			out.I64[i] = x
		}
	}
	return out
}

// lenientIntoWide converts a number c to wide DECIMAL field f outside
// strict mode: a value of more integer digits than f holds becomes f's
// largest (or smallest) value with 1264, as MySQL stores 1e30 into a
// DECIMAL(30,2) as 9999999999999999999999999999.99. The values arrive
// at f's scale (the store's cast), up to 76 digits.
func lenientIntoWide(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	t := f.Type
	hi, _ := decimal.FromBig(new(big.Int).Sub(decimal.Pow10(t.Precision), big.NewInt(1)))
	out := columnar.NewColumn(t, c.Len, !f.Nullable || c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		v, ok := wideValue(c, i, t.Scale)
		if !ok || !decimal.Fits(v, t.Precision) {
			negative := ok && decimal.Sign(v) < 0 || !ok && asFloat(c, i) < 0
			v = hi
			if negative {
				v = decimal.Neg(hi)
			}
			warn(sql.WarnOutOfRange, i)
		}
		out.W[i] = v
	}
	return out
}
