package engine

import (
	"math"

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
