package sql

import (
	"math"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// roundDigits reads the constant D of ROUND(X, D) and TRUNCATE(X, D).
// MySQL takes D as an integer, rounding a fractional one (ROUND(1.298,
// 1.6) is ROUND(1.298, 2)) and reading a string as a number; a NULL D
// makes the result NULL. gpusql needs D constant: the result's scale
// depends on it, and the executors take it as a constant.
func roundDigits(e Expr) (d int64, null, ok bool) {
	c, isConst := e.(*Const)
	if !isConst {
		return 0, false, false
	}
	switch {
	case c.Null:
		return 0, true, true
	case c.T.IsInteger():
		return c.I, false, true
	case c.T.ID == columnar.Float64:
		return int64(math.RoundToEven(c.F)), false, true
	case c.T.ID == columnar.Decimal && !c.T.IsWide():
		return int64(math.Round(float64(c.I) / math.Pow10(c.T.Scale))), false, true
	case c.T.ID == columnar.String && !c.hex:
		return stringDigits(c.S), false, true
	}
	return 0, false, false
}

// stringDigits is a string D as MySQL's val_int reads it (my_strtoll10):
// its leading integer, so ROUND(1.234, '2.7') is ROUND(1.234, 2) and a
// non-number is 0. (MySQL also notes 1292 for the rest; gpusql does not.)
func stringDigits(s string) int64 {
	s = strings.TrimLeft(s, " \t\n\r")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil && end > 1 { // past BIGINT: the limit of its sign
		if s[0] == '-' {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return n
}
