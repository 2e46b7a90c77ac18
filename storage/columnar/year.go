package columnar

import (
	"strconv"
	"strings"
)

// YEAR columns (Type.Year) are INT columns (int32) whose values are 0
// (MySQL's '0000') or 1901 to 2155. Storing them as plain int32 lets every
// operator, loader, file format and the persistence layer carry them as
// they carry INT; what differs is how values enter (YearFromNumber,
// ParseYear: MySQL's two-digit rules) and how they print (four digits).

// YearFromNumber converts a number to a YEAR value as MySQL stores one: 0
// stays 0 ('0000'), 1 to 69 are 2001 to 2069, 70 to 99 are 1970 to 1999,
// 1901 to 2155 are themselves; anything else is out of range.
func YearFromNumber(n int64) (int32, bool) {
	switch {
	case n == 0:
		return 0, true
	case n >= 1 && n <= 69:
		return int32(2000 + n), true
	case n >= 70 && n <= 99:
		return int32(1900 + n), true
	case n >= 1901 && n <= 2155:
		return int32(n), true
	}
	return 0, false
}

// ParseYear reads a YEAR from text: one or two digits follow the numeric
// rules except that '0' and '00' are 2000 (MySQL's string rule), four
// digits are the year itself ('0000' is 0). Surrounding spaces are
// ignored; anything else does not parse.
func ParseYear(s string) (int32, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 0 || len(s) > 4 || len(s) == 3 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	if len(s) <= 2 && n == 0 {
		return 2000, true
	}
	if len(s) == 4 && n != 0 && n < 1901 {
		return 0, false
	}
	return YearFromNumber(int64(n))
}

// FormatYear prints a YEAR value with four digits ('0000' for 0).
func FormatYear(y int32) string {
	if y == 0 {
		return "0000"
	}
	return strconv.Itoa(int(y))
}

// TYear is the YEAR column type.
var TYear = Type{ID: Int32, Year: true}

// CastYear reads text as CAST(s AS YEAR) does (Item_typecast_year): the
// leading integer, as strtoll10 reads it ('2000.5' is 2000, '12abc' 2012,
// noting truncated), 0 as 2000 ('0000' too, where a YEAR column stores
// 0000), 1-69 and 70-99 as two-digit years. No digits, or a value outside
// 1901-2155, is NULL (ok false). Storing text into a YEAR column follows
// other rules (ParseYear).
func CastYear(s string) (y int32, ok, truncated bool) {
	t := strings.TrimLeft(s, " \t\n\r")
	digits := t
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	n := 0
	for n < len(digits) && digits[n] >= '0' && digits[n] <= '9' {
		n++
	}
	if n == 0 {
		return 0, false, false
	}
	end := len(t) - len(digits) + n
	v, err := strconv.ParseInt(t[:end], 10, 64)
	if err != nil {
		return 0, false, false
	}
	truncated = end != len(t)
	switch {
	case v == 0:
		return 2000, true, truncated
	case v > 0 && v < 100:
		y, _ := YearFromNumber(v)
		return y, true, truncated
	case v >= 1901 && v <= 2155:
		return int32(v), true, truncated
	}
	return 0, false, truncated
}
