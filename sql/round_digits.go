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
		f, err := strconv.ParseFloat(strings.TrimSpace(c.S), 64)
		if err != nil {
			return 0, false, true // MySQL reads a non-number as 0
		}
		return int64(math.Round(f)), false, true
	}
	return 0, false, false
}
