package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// YEAR columns are INT columns marked Year (storage/columnar/year.go).
// Constants convert into them here, strictly: a string by MySQL's string
// rule ('69' is 2069, '0' and '00' are 2000), a number by the numeric one
// (69 is 2069, 0 is 0000, a DECIMAL's fraction rounds first, a DOUBLE's
// is cut), a DATE or DATETIME by
// its year. Computed values are stored as they come and converted by the
// engine as it appends them (storeCast leaves them alone), so a value
// out of range fails the statement, naming its row, as MySQL's strict mode
// does, rather than turning into NULL.

// convertToYear is c (not NULL) as a YEAR value.
func convertToYear(c *Const) (int64, bool) {
	var y int32
	ok := false
	switch c.T.ID {
	case columnar.String:
		if c.hex {
			return 0, false
		}
		y, ok = columnar.ParseYear(c.S)
	case columnar.Int32, columnar.Int64, columnar.Bool:
		y, ok = columnar.YearFromNumber(c.I)
	case columnar.Decimal:
		y, ok = columnar.YearFromNumber(roundScaled(c.I, c.T.Scale, 0))
	case columnar.Float64:
		// Field_year::store(double) truncates (1999.5e0 is 1999) after
		// checking the double against 0 and 2155 (-0.5e0 is out of range);
		// a CAST rounds it (cast_bind.go).
		if math.IsNaN(c.F) || c.F < 0 || c.F > 2155 {
			return 0, false
		}
		y, ok = columnar.YearFromNumber(int64(c.F))
	case columnar.Date:
		yr, _, _ := DateParts(int32(c.I))
		y, ok = columnar.YearFromNumber(int64(yr))
	case columnar.Datetime:
		yr, _, _, _, _, _, _ := columnar.DatetimeParts(c.I)
		y, ok = columnar.YearFromNumber(int64(yr))
	}
	return int64(y), ok
}

// YearValue converts a stored value of type from (not NULL; i for integer
// kinds, f for DOUBLE, s for strings) into a YEAR, for the engine's append
// of computed values into a YEAR column.
func YearValue(i int64, f float64, s string, from columnar.Type) (int32, bool) {
	c := &Const{T: from, I: i, F: f, S: s}
	if from.Year {
		return int32(i), true
	}
	y, ok := convertToYear(c)
	return int32(y), ok
}

// yearCompareType makes a YEAR compared with a constant that is a YEAR
// value compare as YEAR, the constant converted as it would be stored: y
// = '69' and y = 69 find 2069, as MySQL converts a constant to its
// column's type before comparing. A constant that is no YEAR (y < 1800)
// compares as a number, as does a YEAR with any integer expression.
func yearCompareType(l, r Expr) (columnar.Type, bool) {
	for _, side := range [2][2]Expr{{l, r}, {r, l}} {
		if !side[0].Type().Year {
			continue
		}
		if c, ok := side[1].(*Const); ok && !c.Null {
			if _, ok := convertToYear(c); ok {
				return side[0].Type(), true
			}
		}
		if t := side[1].Type(); t.IsInteger() && !t.Year {
			return columnar.TInt64, true // a YEAR with a number is a number
		}
	}
	return columnar.Type{}, false
}

// YearTextStore is text s stored into a YEAR as Field_year::store(const
// char*) does: the year and 0, or the warning outside strict mode (the
// error in it) with the year stored: 1366 Incorrect integer value for
// text that is no number (0000), 1264 Out of range for a number past
// 1901..2155 and 0..99 ('1e3' is 1000: 0000), 1265 Data truncated for a
// number followed by more ('12abc' is 2012).
func YearTextStore(s string) (int32, uint16) {
	if y, ok := columnar.ParseYear(s); ok {
		return y, 0
	}
	t := strings.TrimSpace(s)
	f, ok := parseFloatPrefix(t)
	if !ok {
		return 0, WarnIncorrectValue
	}
	nr := math.Round(f)
	if nr < 0 || nr >= 100 && nr <= 1900 || nr > 2155 {
		return 0, WarnOutOfRange
	}
	y, _ := columnar.YearFromNumber(int64(nr))
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return y, 0
	}
	return y, WarnDataTruncated
}

// YearStoreMessage is MySQL's text of YearTextStore's warning code for
// text s stored into YEAR column col at row.
func YearStoreMessage(code uint16, s, col string, row int) string {
	switch code {
	case WarnIncorrectValue:
		return fmt.Sprintf("Incorrect integer value: '%s' for column '%s' at row %d", s, col, row)
	case WarnDataTruncated:
		return fmt.Sprintf("Data truncated for column '%s' at row %d", col, row)
	}
	return fmt.Sprintf("Out of range value for column '%s' at row %d", col, row)
}
