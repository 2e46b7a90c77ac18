package columnar

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"
)

// Text parsing of single field values into the physical domain of a type.
// Every parser takes the field's bytes as they lie in the read buffer and
// allocates nothing on success: loading speed is bounded by these loops.

// parseInt parses an optionally signed decimal integer. It reports a syntax
// error (ok=false) or, for well-formed digits that do not fit an int64,
// inRange=false.
func parseInt(b []byte) (v int64, ok, inRange bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	if i == len(b) {
		return 0, false, false
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	var u uint64
	inRange = true
	for ; i < len(b); i++ {
		d := uint64(b[i] - '0')
		if d > 9 {
			return 0, false, false
		}
		if u > (limit-d)/10 {
			inRange = false // keep scanning: a later non-digit is a syntax error
			continue
		}
		u = u*10 + d
	}
	if !inRange {
		return 0, true, false
	}
	if neg {
		return -int64(u), true, true
	}
	return int64(u), true, true
}

// parseDate parses 'YYYY-MM-DD' into days since 1970-01-01.
func parseDate(b []byte) (int32, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	y, ok1 := digits(b[0:4])
	m, ok2 := digits(b[5:7])
	d, ok3 := digits(b[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

func digits(b []byte) (int, bool) {
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func daysInMonth(y, m int) int { return DaysInMonth(y, m) }

// IsLeapYear is MySQL's calendar rule (calc_days_in_year): Gregorian, except
// that year 0 is a common year, so '0000-02-29' is no date anywhere MySQL
// checks one (DATE literal, CAST, STR_TO_DATE, INSERT) and LAST_DAY of
// year 0's February is the 28th. Day numbers keep proleptic Gregorian
// (DaysFromCivil); TO_DAYS and DATEDIFF correct for year 0 where they read
// them.
func IsLeapYear(y int) bool {
	return y%4 == 0 && (y%100 != 0 || (y%400 == 0 && y != 0))
}

// DaysInMonth is the length of month m (1-12) of year y under IsLeapYear.
func DaysInMonth(y, m int) int {
	switch m {
	case 2:
		if IsLeapYear(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days since 1970-01-01 of a proleptic Gregorian
// date (H. Hinnant's days_from_civil).
func daysFromCivil(y, m, d int) int32 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int32(era*146097 + doe - 719468)
}

// parseDecimal parses [sign]digits[.digits] into an int64 scaled by
// 10^scale. Extra fraction digits round half away from zero. ok=false is a
// syntax error; fits=false means the integer part (or the rounded value)
// needs more than precision digits or does not fit int64.
func parseDecimal(b []byte, precision, scale int) (v int64, ok, fits bool) {
	if scale < 0 || scale > 18 {
		return 0, false, false
	}
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	var ip uint64
	intDigits, nd := 0, 0
	fits = true
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		nd++
		d := uint64(b[i] - '0')
		if intDigits == 0 && d == 0 {
			continue // leading zeros do not count toward the precision
		}
		intDigits++
		if intDigits > 18 {
			fits = false
			continue
		}
		ip = ip*10 + d
	}
	var frac uint64
	fd := 0
	roundUp := false
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			nd++
			switch {
			case fd < scale:
				frac = frac*10 + uint64(b[i]-'0')
			case fd == scale:
				roundUp = b[i] >= '5'
			}
			fd++
		}
	}
	if nd == 0 || i != len(b) {
		return 0, false, false
	}
	if !fits {
		return 0, true, false
	}
	for ; fd < scale; fd++ {
		frac *= 10
	}
	maxDigits := precision
	if maxDigits <= 0 || maxDigits > 18 {
		maxDigits = 18 // stored as int64: 18 digits always fit
	}
	if intDigits > maxDigits-scale {
		return 0, true, false
	}
	u := ip*uint64(Pow10[scale]) + frac
	if roundUp {
		u++
	}
	if u >= uint64(Pow10[maxDigits]) {
		return 0, true, false // rounding carried into one more digit: 9.995 in DECIMAL(3,2)
	}
	if neg {
		return -int64(u), true, true
	}
	return int64(u), true, true
}

// parseBool accepts true/false (any case) and 1/0.
func parseBool(b []byte) (int32, bool) {
	switch len(b) {
	case 1:
		switch b[0] {
		case '1':
			return 1, true
		case '0':
			return 0, true
		}
	case 4:
		if lowerEq(b, "true") {
			return 1, true
		}
	case 5:
		if lowerEq(b, "false") {
			return 0, true
		}
	}
	return 0, false
}

func lowerEq(b []byte, s string) bool {
	for i := range b {
		if b[i]|0x20 != s[i] {
			return false
		}
	}
	return true
}

// parseFloat parses a double without copying the field.
func parseFloat(b []byte) (float64, error) {
	return strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), 64)
}

// viewString is b as a string without copying, for parsers that keep
// nothing of their input.
func viewString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// trimSpace drops ASCII blanks around a numeric field (" 42 " is 42).
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// quoteField renders a field for an error message, cut to a readable length.
func quoteField(b []byte) string {
	const maxShown = 64
	if len(b) > maxShown {
		return strconv.Quote(string(b[:maxShown])) + "..."
	}
	return strconv.Quote(string(b))
}

func errNotValid(b []byte, t Type) error {
	if t.ID == Date {
		return fmt.Errorf("%s is not a valid DATE (want YYYY-MM-DD)", quoteField(b))
	}
	if t.ID == Datetime {
		return fmt.Errorf("%s is not a valid %s (want YYYY-MM-DD HH:MM:SS[.ffffff])", quoteField(b), t)
	}
	return fmt.Errorf("%s is not a valid %s", quoteField(b), t)
}

func errOutOfRange(b []byte, t Type) error {
	return fmt.Errorf("%s is out of range for %s", quoteField(b), t)
}
