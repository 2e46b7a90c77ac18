package sql

import "math"

// DoubleToInt is a DOUBLE read as an integer, as MySQL reads one
// (Item_float::val_int, Field_double::val_int, llrint): to the nearest
// integer, a tie to the even one, as C's rint rounds in the default
// rounding mode. CAST(2.5e0 AS SIGNED) is 2, CAST(-0.5e0 AS SIGNED) 0,
// and ELT(2.5e0, 'a', 'b', 'c') is 'b'; a DECIMAL's tie goes away from
// zero instead (CAST(2.5 AS SIGNED) is 3), and so does a string's stored
// into an integer column ('2.5' is 3). The caller checks the range.
func DoubleToInt(f float64) int64 { return int64(math.RoundToEven(f)) }
