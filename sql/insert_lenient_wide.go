package sql

import (
	"math"
	"math/big"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// clipWideConst is number c, past the range of DECIMAL or integer column
// type t where either is a wide DECIMAL, as a lenient write stores it:
// the nearest end of t's range (1e70 into DECIMAL(30,2) is
// 9999999999999999999999999999.99, 1e30 into DECIMAL(5,2) 999.99), as
// MySQL's Field_new_decimal::store does with its 1264. ok is false for a
// value t holds, text, and the types this does not clip.
func clipWideConst(c *Const, t columnar.Type) (*Const, bool) {
	if c.Null || c.T.ID == columnar.String {
		return nil, false
	}
	negative := c.T.ID == columnar.Float64 && c.F < 0 || c.T.ID != columnar.Float64 && c.I < 0
	if v, ok := constToWide(c, 0); ok {
		negative = decimal.Sign(v) < 0
	}
	switch {
	case t.IsWide():
		if v, ok := constToWide(c, t.Scale); ok && decimal.Fits(v, t.Precision) {
			return nil, false
		}
		hi, _ := decimal.FromBig(new(big.Int).Sub(decimal.Pow10(t.Precision), big.NewInt(1)))
		if negative {
			hi = decimal.Neg(hi)
		}
		return &Const{T: t, W: hi}, true
	case !t.IsInteger() && t.ID != columnar.Decimal || t.Unsigned || t.Year:
		return nil, false
	}
	if _, ok := convertWideConst(c, t); ok {
		return nil, false
	}
	lo, hi, ok := t.IntBounds()
	if t.ID == columnar.Decimal {
		hi, ok = columnar.Pow10[t.Precision]-1, t.Precision > 0
		lo = -hi
	} else if !ok && t.ID == columnar.Int64 {
		lo, hi, ok = math.MinInt64, math.MaxInt64, true
	}
	if !ok {
		return nil, false
	}
	if negative {
		return &Const{T: t, I: lo}, true
	}
	return &Const{T: t, I: hi}, true
}
