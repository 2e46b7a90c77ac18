package sql

import "math"

// DoubleToInt is a DOUBLE read as an integer, as MySQL reads one
// (Item_float::val_int, Field_double::val_int, llrint): to the nearest
// integer, a tie to the even one, as C's rint rounds in the default
// rounding mode. CAST(2.5e0 AS SIGNED) is 2, CAST(-0.5e0 AS SIGNED) 0,
// and ELT(2.5e0, 'a', 'b', 'c') is 'b'; a DECIMAL's tie goes away from
// zero instead (CAST(2.5 AS SIGNED) is 3), and so does a string's stored
// into an integer column ('2.5' is 3). Past BIGINT's range it is the
// nearer bound (Item_float::val_int: CAST(1e20 AS SIGNED) is
// 9223372036854775807; Go's conversion gave -9223372036854775808), NaN 0;
// callers that refuse such values check the range first.
func DoubleToInt(f float64) int64 {
	switch r := math.RoundToEven(f); {
	case math.IsNaN(r):
		return 0
	case r >= 9223372036854775807.0: // 2^63 as a float64
		return math.MaxInt64
	case r <= -9223372036854775808.0:
		return math.MinInt64
	default:
		return int64(r)
	}
}
