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

// ParseYear reads a YEAR from text as Field_year::store(const char*) does:
// the text's number, read by strntoull10rnd (sign, digits, a fraction and
// an exponent, rounded half up: '2002.5' is 2003, '2.0e3' 2000), then the
// numeric rules, except that zero is 2000 unless the text is four
// characters long ('0000' is 0000, '0' and '00' are 2000). Surrounding
// spaces are allowed; other trailing text, no digits, or a value outside
// the YEAR ranges does not parse (strict mode's error).
func ParseYear(s string) (int32, bool) {
	n, ok := roundedNumber(s)
	if !ok {
		return 0, false
	}
	if n == 0 {
		if len(s) == 4 {
			return 0, true
		}
		return 2000, true
	}
	return YearFromNumber(n)
}

// roundedNumber is the number that s spells (optional sign, digits, an
// optional fraction, an optional exponent; spaces around it) rounded half
// away from zero to an integer, as strntoull10rnd reads it. Values past
// 10^15 are not needed by any caller and do not parse.
func roundedNumber(s string) (int64, bool) {
	t := strings.Trim(s, " \t\n\r")
	neg := false
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	var digits []byte
	point, i := -1, 0
	for ; i < len(t); i++ {
		c := t[i]
		if c == '.' && point < 0 {
			point = len(digits)
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		digits = append(digits, c)
	}
	if len(digits) == 0 {
		return 0, false
	}
	if point < 0 {
		point = len(digits)
	}
	if i < len(t) {
		if t[i] != 'e' && t[i] != 'E' {
			return 0, false
		}
		e, err := strconv.Atoi(t[i+1:])
		if err != nil || e > 100 || e < -100 {
			return 0, false
		}
		point += e
	}
	var n int64
	for k := 0; k < point; k++ {
		d := int64(0)
		if k < len(digits) {
			d = int64(digits[k] - '0')
		}
		n = n*10 + d
		if n > 1e15 {
			return 0, false
		}
	}
	if point >= 0 && point < len(digits) && digits[point] >= '5' {
		n++
	}
	if neg {
		n = -n
	}
	return n, true
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
