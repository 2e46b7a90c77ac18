package columnar

import (
	"fmt"
	"strings"
)

// ZEROFILL ("Numeric Data Type Attributes", deprecated in MySQL 8 but
// kept): an integer or DECIMAL column declared ZEROFILL (and so UNSIGNED)
// prints its values padded with leading zeros to its display width, INT(4)
// ZEROFILL's 5 as 0005. Type.ZeroFill holds the width; only the column's
// own values print so (a + 0 is a plain number).

// zeroFillWidths are the display widths of the unsigned integer types
// declared ZEROFILL without one, by Width (0: BIGINT).
var zeroFillWidths = map[int]int{8: 3, 16: 5, 24: 8, 32: 10, 0: 20}

// ZeroFillWidth is the display width of an integer type declared with
// display width m (0: none) and ZEROFILL, or of DECIMAL(p,s) ZEROFILL.
func ZeroFillWidth(t Type, m int) int {
	switch {
	case t.ID == Decimal:
		if t.Scale > 0 {
			return t.Precision + 1
		}
		return t.Precision
	case m > 0:
		return m
	}
	return zeroFillWidths[t.Width]
}

// ZeroFilled pads s, a value of type t as text, to t's ZEROFILL width.
func ZeroFilled(s string, t Type) string {
	if t.ZeroFill <= len(s) || strings.HasPrefix(s, "-") {
		return s
	}
	return strings.Repeat("0", t.ZeroFill-len(s)) + s
}

// zeroFillName is the SQL name of a ZEROFILL type: INT(4) UNSIGNED ZEROFILL.
func (t Type) zeroFillName(base string) string {
	if t.ID == Decimal {
		return base + " UNSIGNED ZEROFILL"
	}
	return fmt.Sprintf("%s(%d) UNSIGNED ZEROFILL", base, t.ZeroFill)
}
