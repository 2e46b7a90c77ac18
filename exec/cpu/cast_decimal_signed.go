package cpu

import (
	"math"

	"gpusql/internal/decimal"
	"gpusql/sql"
)

// A written CAST(x AS SIGNED) of a DECIMAL past BIGINT's range: MySQL's
// my_decimal2int saturates at the nearer bound and notes 1292, "Truncated
// incorrect DECIMAL value", so CAST(99999999999999999999 AS SIGNED) is
// 9223372036854775807. AS UNSIGNED saturates a positive one at
// 18446744073709551615 and, converting a negative one as signed, a
// negative one at LLONG_MIN (9223372036854775808). The binder's own casts of such a value (a store's
// range check) still give NULL for their callers to judge.

// saturate writes the bound nearest v[p] into out[p] for a clamping cast;
// false for any other.
func (e *wideCastEval) saturate(v *vec, p int32, out *vec) bool {
	if !e.clamp || v.w == nil {
		return false
	}
	n := int64(math.MaxInt64)
	if e.to.Unsigned {
		n = -1 // ~0: decimal2ulonglong's ULLONG_MAX
	}
	if v.w[p].Sign() < 0 {
		// Item_typecast_unsigned converts a negative DECIMAL as signed
		// (my_decimal2int's unsigned_flag is !sign): its bits where the
		// rounded value fits (-1.5 is 18446744073709551614), else LLONG_MIN.
		n = math.MinInt64
		if r, ok := decimal.Rescale(v.w[p], e.from.Scale, 0); ok && e.to.Unsigned {
			if i, fits := decimal.Int64(r); fits {
				out.i64[p] = i
				return true
			}
		}
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
