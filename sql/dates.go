package sql

import (
	"fmt"
	"strings"
	"time"

	"gpusql/storage/columnar"
)

// Dates are int32 days since 1970-01-01 (columnar.Date). These helpers are
// exported so the executors convert strings and dates exactly as the binder
// folds constants.

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// ParseDate parses 'YYYY-MM-DD' (also 'YY-MM-DD', 'YYYYMMDD', 'YYMMDD', 'YYYY/MM/DD', and a
// trailing time part, which is ignored, as MySQL does when a DATETIME string
// meets a DATE) into days since 1970-01-01.
func ParseDate(s string) (int32, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " T"); i > 0 {
		s = s[:i]
	}
	var y, m, d int
	switch {
	case len(s) == 8 && allDigits(s):
		y, m, d = atoi(s[:4]), atoi(s[4:6]), atoi(s[6:])
	case len(s) == 6 && allDigits(s):
		y, m, d = twoDigitYear(atoi(s[:2])), atoi(s[2:4]), atoi(s[4:])
	default:
		sep := func(r rune) bool { return r == '-' || r == '/' || r == '.' }
		parts := strings.FieldsFunc(s, sep)
		if len(parts) != 3 || !allDigits(parts[0]) || !allDigits(parts[1]) || !allDigits(parts[2]) ||
			len(parts[0]) > 4 || len(parts[1]) > 2 || len(parts[2]) > 2 {
			return 0, false
		}
		y, m, d = atoi(parts[0]), atoi(parts[1]), atoi(parts[2])
		if len(parts[0]) == 2 {
			y = twoDigitYear(y)
		}
	}
	if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, false
	}
	// Not through time.Time's Sub: a Duration holds ±292 years, which
	// read DATE '9999-12-31' as 2262-04-11.
	return int32(columnar.DaysFromCivil(y, m, d)), true
}

// twoDigitYear is a year written with two digits as MySQL's
// str_to_datetime reads it ("Date and Time Literals": 'YY-MM-DD' and
// 'YYMMDD'): 00-69 are 2000-2069, 70-99 1970-1999.
func twoDigitYear(y int) int {
	if y < 70 {
		return 2000 + y
	}
	return 1900 + y
}

// FormatDate renders days since 1970-01-01 as 'YYYY-MM-DD'.
func FormatDate(days int32) string {
	y, m, d := DateParts(days)
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// DateParts returns the year, month and day of days since 1970-01-01.
func DateParts(days int32) (year, month, day int) {
	t := epoch.AddDate(0, 0, int(days))
	return t.Year(), int(t.Month()), t.Day()
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
