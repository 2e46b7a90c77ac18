package cpu

import (
	"math"

	"gpusql/internal/decimal"
	"gpusql/sql"
)

// A written CAST(x AS SIGNED) of a DECIMAL past BIGINT's range: MySQL's
// my_decimal2int saturates at the nearer bound and notes 1292, "Truncated
// incorrect DECIMAL value", so CAST(99999999999999999999 AS SIGNED) is
// 9223372036854775807. The binder's own casts of such a value (a store's
// range check) still give NULL for their callers to judge.

// saturate writes the bound nearest v[p] into out[p] for a clamping cast;
// false for any other.
func (e *wideCastEval) saturate(v *vec, p int32, out *vec) bool {
	if !e.clamp || v.w == nil {
		return false
	}
	n := int64(math.MaxInt64)
	if v.w[p].Sign() < 0 {
		n = math.MinInt64
	}
	out.i64[p] = n
	msg := "Truncated incorrect DECIMAL value: '" + decimal.Format(v.w[p], e.from.Scale) + "'"
	if e.warnKey != nil {
		e.warn.AddOnce(e.warnKey, sql.WarnTruncatedValue, msg)
		return true
	}
	e.warn.Add(sql.WarnTruncatedValue, msg)
	return true
}
