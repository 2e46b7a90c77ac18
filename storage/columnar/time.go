package columnar

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// TIME(fsp) values are int64 microseconds, signed: an elapsed time or a
// time of day, MySQL's range '-838:59:59' to '838:59:59' (the fraction
// may not take it past either end). As for DATETIME, these are the one
// set of conversions every layer uses.

// MaxTime is 838:59:59 in microseconds, the largest TIME magnitude.
const MaxTime = (838*3600 + 59*60 + 59) * MicrosPerSecond

// TTime returns TIME(fsp).
func TTime(fsp int) Type { return Type{ID: Time, Scale: fsp} }

// InTimeRange reports whether us is a TIME value.
func InTimeRange(us int64) bool { return us >= -MaxTime && us <= MaxTime }

// RoundTime rounds us to fsp fractional digits, half away from zero (a
// negative TIME rounds its magnitude, as MySQL does).
func RoundTime(us int64, fsp int) int64 {
	if us < 0 {
		return -RoundDatetime(-us, fsp)
	}
	return RoundDatetime(us, fsp)
}

// TimeParts splits a TIME into its sign and magnitude's hours (up to 838),
// minutes, seconds and microseconds.
func TimeParts(us int64) (neg bool, h, mi, s, micro int) {
	neg = us < 0
	if neg {
		us = -us
	}
	sec := us / MicrosPerSecond
	return neg, int(sec / 3600), int(sec / 60 % 60), int(sec % 60), int(us % MicrosPerSecond)
}

// FormatTime prints '[-]HH:MM:SS' (hours take three digits past 99) and,
// when fsp > 0, fsp fractional digits.
func FormatTime(us int64, fsp int) string {
	neg, h, mi, s, micro := TimeParts(us)
	b := make([]byte, 0, 17)
	if neg {
		b = append(b, '-')
	}
	b = appendPadded(b, h, 2)
	b = append(b, ':')
	b = appendPadded(b, mi, 2)
	b = append(b, ':')
	b = appendPadded(b, s, 2)
	if fsp > 0 {
		b = append(b, '.')
		b = appendPadded(b, micro/int(Pow10[MaxFsp-min(fsp, MaxFsp)]), min(fsp, MaxFsp))
	}
	return string(b)
}

// TimeToNumber is a TIME as MySQL reads it in a numeric context: the
// number [-]HHMMSS (its fraction dropped; see TimeToDecimal).
func TimeToNumber(us int64) int64 {
	neg, h, mi, s, _ := TimeParts(us)
	n := int64(h*10000 + mi*100 + s)
	if neg {
		return -n
	}
	return n
}

// TimeFromNumber reads the number [-]HHMMSS (and micro microseconds of
// fraction) as a TIME; minutes and seconds must be below 60.
func TimeFromNumber(n int64, micro int64) (int64, bool) {
	neg := n < 0
	if neg {
		n = -n
	}
	h, mi, s := n/10000, n/100%100, n%100
	if mi > 59 || s > 59 || h > 838 {
		return 0, false
	}
	us := (h*3600+mi*60+s)*MicrosPerSecond + micro
	if neg {
		us = -us
	}
	return us, InTimeRange(us)
}

// ParseTime reads a TIME as MySQL does, rounded to fsp digits:
// '[-][D ]HH:MM:SS[.frac]', '[-][D ]HH:MM', '[-]D HH', and without colons
// the number '[-]HHMMSS[.frac]' ('102030' is 10:20:30, '2030' 00:20:30,
// '30' 00:00:30). D is days (0 to 34); 'HH:MM' is hours and minutes. A
// DATETIME or DATE text gives its time of day (a date's is 00:00:00). It
// fails on anything else and outside the TIME range.
func ParseTime(s string, fsp int) (int64, bool) {
	s = strings.TrimSpace(s)
	if us, ok := ParseDatetime(s, MaxFsp); ok && strings.ContainsAny(s, "-/") && !strings.HasPrefix(s, "-") {
		return RoundTime(us-floorDiv(us, MicrosPerDay)*MicrosPerDay, fsp), true
	}
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	us, ok := parseTimeMagnitude(s)
	if !ok {
		return 0, false
	}
	us = RoundTime(us, fsp)
	if neg {
		us = -us
	}
	return us, InTimeRange(us)
}

// ParseTimeClamped is ParseTime that takes a time past ±838:59:59 as the
// limit, as MySQL's TIME('839:00:00') does (clamped reports it; MySQL
// notes warning 1292). ok is false for text that is no time.
func ParseTimeClamped(s string, fsp int) (us int64, clamped, ok bool) {
	if us, ok := ParseTime(s, fsp); ok {
		return us, false, true
	}
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	mag, ok := parseTimeMagnitude(strings.TrimPrefix(t, "-"))
	if !ok || InTimeRange(mag) {
		return 0, false, false
	}
	if neg {
		return -MaxTime, true, true
	}
	return MaxTime, true, true
}

// parseTimeMagnitude reads an unsigned TIME text in microseconds.
func parseTimeMagnitude(s string) (int64, bool) {
	whole, frac, hasFrac := strings.Cut(s, ".")
	micro, ok := fractionMicros(frac, hasFrac)
	if !ok || whole == "" {
		return 0, false
	}
	days := int64(0)
	if d, rest, ok := strings.Cut(whole, " "); ok {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 || n > 34 || !isDigits(d) {
			return 0, false
		}
		days, whole = n, strings.TrimSpace(rest)
		if !strings.Contains(whole, ":") { // 'D HH'
			whole += ":00"
		}
	}
	var h, mi, sec int64
	if strings.Contains(whole, ":") {
		f := strings.Split(whole, ":")
		if len(f) > 3 {
			return 0, false
		}
		var v [3]int64
		for i, x := range f {
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil || !isDigits(x) || (i > 0 && len(x) > 2) {
				return 0, false
			}
			v[i] = n
		}
		h, mi, sec = v[0], v[1], v[2]
		if len(f) == 2 && hasFrac {
			return 0, false // 'HH:MM.frac' is not a time
		}
	} else {
		n, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || !isDigits(whole) {
			return 0, false
		}
		h, mi, sec = n/10000, n/100%100, n%100
	}
	if mi > 59 || sec > 59 || h > 1_000_000 { // past 838 hours: ParseTime's range check
		return 0, false
	}
	return ((days*24+h)*3600+mi*60+sec)*MicrosPerSecond + micro, true
}

// fractionMicros reads the digits after a '.' as microseconds, rounding
// a seventh digit (RoundTime then rounds to the column's fsp).
func fractionMicros(frac string, has bool) (int64, bool) {
	if !has {
		return 0, true
	}
	if frac == "" || !isDigits(frac) {
		return 0, !has || frac == ""
	}
	for len(frac) < 7 {
		frac += "0"
	}
	n, _ := strconv.ParseInt(frac[:7], 10, 64)
	return (n + 5) / 10, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// appendArrowTimes loads Arrow time32 / time64 values (Parquet TIME) into
// a TIME column, rounded to its fsp.
func appendArrowTimes(b *Builder, arr arrow.Array) (int, error) {
	t := b.typ
	dst := b.i64[b.n : b.n+arr.Len()]
	var micros func(i int) int64
	switch a := arr.(type) {
	case *array.Time32:
		m := map[arrow.TimeUnit]int64{arrow.Second: MicrosPerSecond, arrow.Millisecond: 1000}[a.DataType().(*arrow.Time32Type).Unit]
		micros = func(i int) int64 { return int64(a.Value(i)) * m }
	case *array.Time64:
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			micros = func(i int) int64 { return (int64(a.Value(i)) + 500) / 1000 }
		} else {
			micros = func(i int) int64 { return int64(a.Value(i)) }
		}
	default:
		return 0, fmt.Errorf("cannot load %s into %s", arr.DataType(), t)
	}
	for i := range dst {
		dst[i] = 0
		if arr.IsNull(i) {
			continue
		}
		v := RoundTime(micros(i), t.Scale)
		if !InTimeRange(v) {
			return i, fmt.Errorf("%s is out of range for %s", FormatTime(v, MaxFsp), t)
		}
		dst[i] = v
	}
	return 0, nil
}
