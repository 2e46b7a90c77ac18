package columnar

import (
	"strconv"
	"strings"
)

// DATETIME(fsp) and TIMESTAMP(fsp) values are int64 microseconds since
// 1970-01-01 00:00:00. gpusql's session time zone is UTC and fixed, so a
// TIMESTAMP is stored, read and printed as the same wall-clock value a
// DATETIME would be (MySQL converts TIMESTAMP between the session zone and
// UTC; with the zone at UTC that conversion is the identity). These are the
// one set of conversions every layer uses: loaders, the binder's constant
// folding, the CPU executor, exports and the wire protocols.

const (
	MicrosPerSecond int64 = 1_000_000
	MicrosPerDay    int64 = 86_400 * MicrosPerSecond
	MaxFsp                = 6 // fractional second digits DATETIME(fsp) keeps at most
)

// DefaultNow is Field.Default of a DATETIME or TIMESTAMP column declared
// DEFAULT CURRENT_TIMESTAMP: no datetime's text reads so.
const DefaultNow = "CURRENT_TIMESTAMP"

// Storable ranges (MySQL 8): DATETIME '1000-01-01 00:00:00' to
// '9999-12-31 23:59:59.999999'; TIMESTAMP '1970-01-01 00:00:01' to
// '2038-01-19 03:14:07.999999' UTC.
var (
	MinDatetime  = int64(daysFromCivil(1000, 1, 1)) * MicrosPerDay
	MaxDatetime  = int64(daysFromCivil(9999, 12, 31))*MicrosPerDay + MicrosPerDay - 1
	MinTimestamp = MicrosPerSecond
	MaxTimestamp = (1<<31-1)*MicrosPerSecond + MicrosPerSecond - 1
)

// DatetimeRange is the range a column of type t (DATETIME or TIMESTAMP) stores.
func (t Type) DatetimeRange() (lo, hi int64) {
	if t.Timestamp {
		return MinTimestamp, MaxTimestamp
	}
	return MinDatetime, MaxDatetime
}

// InDatetimeRange reports whether us can be stored in a column of type t.
func (t Type) InDatetimeRange(us int64) bool {
	lo, hi := t.DatetimeRange()
	return us >= lo && us <= hi
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// CivilFromDays is the proleptic Gregorian year, month, day of a day number
// (days since 1970-01-01; Howard Hinnant's civil_from_days).
func CivilFromDays(z int64) (y, m, d int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	m = int(mp + 3)
	if mp >= 10 {
		m = int(mp - 9)
	}
	y = int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return y, m, d
}

// DaysFromCivil is the day number of a valid proleptic Gregorian date.
func DaysFromCivil(y, m, d int) int64 { return int64(daysFromCivil(y, m, d)) }

// DatetimeParts splits microseconds since the epoch into the calendar date,
// the time of day and the microseconds of the second.
func DatetimeParts(us int64) (y, mo, d, h, mi, s, micro int) {
	days := floorDiv(us, MicrosPerDay)
	rest := us - days*MicrosPerDay
	y, mo, d = CivilFromDays(days)
	sec := rest / MicrosPerSecond
	return y, mo, d, int(sec / 3600), int(sec / 60 % 60), int(sec % 60), int(rest % MicrosPerSecond)
}

// DatetimeFromParts is the inverse of DatetimeParts for a valid date.
func DatetimeFromParts(y, mo, d, h, mi, s, micro int) int64 {
	return DaysFromCivil(y, mo, d)*MicrosPerDay + int64(h*3600+mi*60+s)*MicrosPerSecond + int64(micro)
}

// DatetimeDays is the day number (DATE value) of a datetime: its date part.
func DatetimeDays(us int64) int64 { return floorDiv(us, MicrosPerDay) }

// RoundDatetime rounds us to fsp fractional digits, half up, as MySQL does
// when a value is stored or cast to DATETIME(fsp).
func RoundDatetime(us int64, fsp int) int64 {
	if fsp >= MaxFsp {
		return us
	}
	unit := Pow10[MaxFsp-fsp]
	q := floorDiv(us, unit)
	if us-q*unit >= (unit+1)/2 {
		q++
	}
	return q * unit
}

// FormatDatetime prints 'YYYY-MM-DD HH:MM:SS' and, when fsp > 0, fsp
// fractional digits.
func FormatDatetime(us int64, fsp int) string {
	y, mo, d, h, mi, s, micro := DatetimeParts(us)
	b := make([]byte, 0, 26)
	b = appendPadded(b, y, 4)
	b = append(b, '-')
	b = appendPadded(b, mo, 2)
	b = append(b, '-')
	b = appendPadded(b, d, 2)
	b = append(b, ' ')
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

func appendPadded(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// DatetimeToNumber is MySQL's numeric form YYYYMMDDHHMMSS (the fraction
// dropped; callers that keep it add micro / 10^6).
func DatetimeToNumber(us int64) int64 {
	y, mo, d, h, mi, s, _ := DatetimeParts(us)
	return int64(y)*10_000_000_000 + int64(mo)*100_000_000 + int64(d)*1_000_000 +
		int64(h)*10_000 + int64(mi)*100 + int64(s)
}

// DatetimeFromNumber reads MySQL's numeric datetimes: YYYYMMDDHHMMSS,
// YYMMDDHHMMSS, or a date alone (YYYYMMDD, YYMMDD) meaning midnight.
func DatetimeFromNumber(v int64) (int64, bool) {
	if v <= 0 {
		return 0, false
	}
	var date, tod int64
	switch {
	case v <= 991231: // YYMMDD
		date = v
	case v <= 99991231:
		date = v
	default:
		date, tod = v/1_000_000, v%1_000_000
	}
	y, mo, d := int(date/10000), int(date/100%100), int(date%100)
	if y < 100 {
		y = twoDigitYear(y)
	}
	h, mi, s := int(tod/10000), int(tod/100%100), int(tod%100)
	if !validCivil(y, mo, d) || h > 23 || mi > 59 || s > 59 {
		return 0, false
	}
	return DatetimeFromParts(y, mo, d, h, mi, s, 0), true
}

// twoDigitYear is MySQL's rule: 70-99 are 1970-1999, 00-69 are 2000-2069.
func twoDigitYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

func validCivil(y, m, d int) bool {
	return y >= 0 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)
}

// ParseDatetime reads a datetime string as MySQL does and rounds it to fsp
// digits: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM[:SS[.ffffff]]' (any punctuation
// between date parts, 'T' or spaces before the time, two-digit years),
// 'YYYYMMDD', 'YYYYMMDDHHMMSS[.ffffff]' and their two-digit-year forms; a
// time may end in a zone offset ('+05:30'), which converts it to UTC.
// ok is false for anything else and for dates or times that do not exist
// (MySQL's strict mode: '2024-02-30' and '0000-00-00' are errors).
func ParseDatetime(s string, fsp int) (int64, bool) {
	s = strings.TrimSpace(s)
	frac := ""
	if allASCIIDigits(strings.SplitN(s, ".", 2)[0]) {
		num, f, _ := strings.Cut(s, ".")
		if f != "" && !allASCIIDigits(f) {
			return 0, false
		}
		return parseCompactDatetime(num, f, fsp)
	}
	datePart, timePart := s, ""
	if i := strings.IndexAny(s, " T"); i > 0 {
		datePart, timePart = s[:i], strings.TrimLeft(s[i+1:], " ")
	}
	y, mo, d, ok := parseDateFields(datePart)
	if !ok {
		return 0, false
	}
	h, mi, sec := 0, 0, 0
	offset := int64(0)
	if timePart != "" {
		if timePart, offset, ok = cutZoneOffset(timePart); !ok {
			return 0, false
		}
		if i := strings.IndexByte(timePart, '.'); i >= 0 {
			timePart, frac = timePart[:i], timePart[i+1:]
			if !allASCIIDigits(frac) {
				return 0, false
			}
		}
		if h, mi, sec, ok = parseTimeFields(timePart); !ok {
			return 0, false
		}
	}
	us, ok := finishDatetime(y, mo, d, h, mi, sec, frac, fsp)
	return us - offset, ok
}

// HasZoneOffset reports a datetime string whose time ends in a zone
// offset ('2024-01-05 10:00:00+05:30'): ParseDatetime gives its UTC time.
func HasZoneOffset(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " T")
	if i <= 0 || allASCIIDigits(strings.SplitN(s, ".", 2)[0]) {
		return false
	}
	_, off, ok := cutZoneOffset(strings.TrimLeft(s[i+1:], " "))
	return ok && (off != 0 || strings.HasSuffix(s, "+00:00") || strings.HasSuffix(s, "-00:00"))
}

// cutZoneOffset removes a trailing time zone offset '+HH:MM' / '-HH:MM'
// from a time (MySQL 8.0.19: '2024-01-05 10:00:00+05:30' is that instant,
// shown in the session's zone, UTC; offsets run from -13:59 to +14:00). It
// returns the offset in microseconds; ok is false for a malformed one.
func cutZoneOffset(t string) (string, int64, bool) {
	n := len(t)
	if n < 6 || (t[n-6] != '+' && t[n-6] != '-') || t[n-3] != ':' {
		return t, 0, true
	}
	hh, mm := t[n-5:n-3], t[n-2:]
	if !allASCIIDigits(hh) || !allASCIIDigits(mm) {
		return t, 0, false
	}
	h, m := atoiASCII(hh), atoiASCII(mm)
	if m > 59 || (t[n-6] == '+' && (h > 14 || h == 14 && m > 0)) || (t[n-6] == '-' && h > 13) {
		return t, 0, false
	}
	off := int64(h*3600+m*60) * MicrosPerSecond
	if t[n-6] == '-' {
		off = -off
	}
	return t[:n-6], off, true
}

// parseCompactDatetime reads the all-digit forms.
func parseCompactDatetime(num, frac string, fsp int) (int64, bool) {
	var y, mo, d, h, mi, s int
	switch len(num) {
	case 8, 14:
		y, mo, d = atoiASCII(num[:4]), atoiASCII(num[4:6]), atoiASCII(num[6:8])
		num = num[8:]
	case 6, 12:
		y, mo, d = twoDigitYear(atoiASCII(num[:2])), atoiASCII(num[2:4]), atoiASCII(num[4:6])
		num = num[6:]
	default:
		return 0, false
	}
	if num != "" {
		h, mi, s = atoiASCII(num[:2]), atoiASCII(num[2:4]), atoiASCII(num[4:6])
	} else if frac != "" {
		return 0, false
	}
	return finishDatetime(y, mo, d, h, mi, s, frac, fsp)
}

// parseDateFields reads Y<p>M<p>D with any punctuation <p>.
func parseDateFields(s string) (y, mo, d int, ok bool) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if len(parts) != 3 || len(parts[0]) > 4 || len(parts[1]) > 2 || len(parts[2]) > 2 {
		return 0, 0, 0, false
	}
	for _, r := range s {
		if r > 0x7f || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r == ' ' {
			return 0, 0, 0, false
		}
	}
	y = atoiASCII(parts[0])
	if len(parts[0]) <= 2 {
		y = twoDigitYear(y)
	}
	return y, atoiASCII(parts[1]), atoiASCII(parts[2]), true
}

// parseTimeFields reads H:M or H:M:S (one or two digits each).
func parseTimeFields(s string) (h, mi, sec int, ok bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, 0, false
	}
	vals := [3]int{}
	for i, p := range parts {
		if len(p) == 0 || len(p) > 2 || !allASCIIDigits(p) {
			return 0, 0, 0, false
		}
		vals[i] = atoiASCII(p)
	}
	return vals[0], vals[1], vals[2], true
}

// finishDatetime validates the fields and rounds the fraction digits to fsp.
func finishDatetime(y, mo, d, h, mi, s int, frac string, fsp int) (int64, bool) {
	if !validCivil(y, mo, d) || h > 23 || mi > 59 || s > 59 {
		return 0, false
	}
	fsp = min(max(fsp, 0), MaxFsp)
	micro := 0
	for i := 0; i < MaxFsp; i++ {
		micro *= 10
		if i < len(frac) && i < fsp {
			micro += int(frac[i] - '0')
		}
	}
	us := DatetimeFromParts(y, mo, d, h, mi, s, micro)
	if len(frac) > fsp && frac[fsp] >= '5' {
		us += Pow10[MaxFsp-fsp]
	}
	return us, true
}

// FractionDigits counts the digits at the start of s (the fraction of a
// datetime's seconds, before any zone offset).
func FractionDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func allASCIIDigits(s string) bool {
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

func atoiASCII(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
