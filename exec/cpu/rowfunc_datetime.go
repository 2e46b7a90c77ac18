package cpu

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // CONVERT_TZ's zone names work without the host's zoneinfo

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// datetimeBodies are the DATETIME functions of sql/functions_datetime.go.
// DATETIME values are int64 microseconds since 1970-01-01 00:00:00.
var datetimeBodies = map[string]func(f *rowFunc, a []val) val{
	"hour": func(f *rowFunc, a []val) val {
		_, _, _, h, _, _, _ := columnar.DatetimeParts(a[0].i)
		return iv(int64(h))
	},
	"minute": func(f *rowFunc, a []val) val {
		_, _, _, _, mi, _, _ := columnar.DatetimeParts(a[0].i)
		return iv(int64(mi))
	},
	"second": func(f *rowFunc, a []val) val {
		_, _, _, _, _, s, _ := columnar.DatetimeParts(a[0].i)
		return iv(int64(s))
	},
	"microsecond": func(f *rowFunc, a []val) val {
		_, _, _, _, _, _, us := columnar.DatetimeParts(a[0].i)
		return iv(int64(us))
	},
	"date_part": func(f *rowFunc, a []val) val { return iv(columnar.DatetimeDays(a[0].i)) },
	"time": func(f *rowFunc, a []val) val {
		return sv(columnar.FormatDatetime(a[0].i, f.types[0].Scale)[11:])
	},
	"datetime_add": func(f *rowFunc, a []val) val {
		v, ok := sql.AddDatetime(a[0].i, a[1].i, a[2].s)
		if !ok {
			return nullVal
		}
		return iv(columnar.RoundDatetime(v, f.t.Scale))
	},
	"to_seconds": func(f *rowFunc, a []val) val {
		return iv(floorDivInt(a[0].i, columnar.MicrosPerSecond) + mysqlDayZero*86400)
	},
	"timediff": func(f *rowFunc, a []val) val {
		return sv(formatTimeValue(a[0].i-a[1].i, int(a[2].i)))
	},
	"time_to_sec": func(f *rowFunc, a []val) val {
		us, ok := parseTimeValue(a[0].s)
		if !ok {
			return nullVal
		}
		return iv(us / columnar.MicrosPerSecond)
	},
	"sec_to_time": func(f *rowFunc, a []val) val {
		n := max(min(a[0].i, maxTimeSeconds), -maxTimeSeconds)
		return sv(formatTimeValue(n*columnar.MicrosPerSecond, 0))
	},
	"convert_tz": func(f *rowFunc, a []val) val {
		from, ok1 := zoneNamed(a[1].s)
		to, ok2 := zoneNamed(a[2].s)
		if !ok1 || !ok2 {
			return nullVal
		}
		y, mo, d, h, mi, sec, micro := columnar.DatetimeParts(a[0].i)
		t := time.Date(y, time.Month(mo), d, h, mi, sec, micro*1000, from).In(to)
		v := columnar.DatetimeFromParts(t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000)
		if v < columnar.DaysFromCivil(0, 1, 1)*columnar.MicrosPerDay || v > columnar.MaxDatetime {
			return nullVal
		}
		return iv(v)
	},
	"from_unixtime": func(f *rowFunc, a []val) val {
		// a[0] is DECIMAL(18,6): its raw value counts microseconds.
		const maxUnix = 32536771199*1_000_000 + 999_999 // MySQL: '3001-01-18 23:59:59.999999' UTC
		if a[0].i < 0 || a[0].i > maxUnix {
			return nullVal
		}
		return iv(columnar.RoundDatetime(a[0].i, f.t.Scale))
	},
}

// unixTimestamp is UNIX_TIMESTAMP of a DATE (days) or DATETIME
// (microseconds): seconds since the epoch, with the result's fraction
// digits when it is a DECIMAL; 0 before 1970 as in MySQL.
func unixTimestamp(f *rowFunc, a []val) val {
	if f.types[0].ID != columnar.Datetime {
		return iv(max(a[0].i, 0) * 86400)
	}
	us := max(a[0].i, 0)
	if f.t.ID == columnar.Decimal {
		return iv(us / pow10(columnar.MaxFsp-f.t.Scale))
	}
	return iv(us / columnar.MicrosPerSecond)
}

func floorDivInt(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// zones caches CONVERT_TZ's time zones by name (nil: unknown).
var zones sync.Map

// zoneNamed reads '+HH:MM' / '-HH:MM' offsets and IANA zone names ('UTC',
// 'Europe/Paris'); 'SYSTEM' is the session zone, UTC.
func zoneNamed(name string) (*time.Location, bool) {
	if l, ok := zones.Load(name); ok {
		loc, _ := l.(*time.Location)
		return loc, loc != nil
	}
	var loc *time.Location
	s := strings.TrimSpace(name)
	switch {
	case strings.EqualFold(s, "SYSTEM"):
		loc = time.UTC
	case len(s) >= 5 && (s[0] == '+' || s[0] == '-'):
		h, m, ok := strings.Cut(s[1:], ":")
		hh, err1 := strconv.Atoi(h)
		mm, err2 := strconv.Atoi(m)
		if ok && err1 == nil && err2 == nil && hh <= 14 && mm < 60 {
			off := hh*3600 + mm*60
			if s[0] == '-' {
				off = -off
			}
			loc = time.FixedZone(s, off)
		}
	default:
		if l, err := time.LoadLocation(s); err == nil && s != "" && s != "Local" {
			loc = l
		}
	}
	zones.Store(name, loc)
	return loc, loc != nil
}

// maxTimeSeconds is MySQL TIME's limit, 838:59:59.
const maxTimeSeconds = 838*3600 + 59*60 + 59

// formatTimeValue prints a duration in microseconds as MySQL prints a TIME:
// '[-]HH:MM:SS' and fsp fraction digits, clamped to ±838:59:59.
func formatTimeValue(us int64, fsp int) string {
	sign := ""
	if us < 0 {
		sign, us = "-", -us
	}
	if limit := int64(maxTimeSeconds) * columnar.MicrosPerSecond; us > limit {
		us = limit
	}
	sec := us / columnar.MicrosPerSecond
	s := fmt.Sprintf("%s%02d:%02d:%02d", sign, sec/3600, sec/60%60, sec%60)
	if fsp > 0 {
		s += fmt.Sprintf(".%06d", us%columnar.MicrosPerSecond)[:fsp+1]
	}
	return s
}

// parseTimeValue reads '[-]H:MM[:SS[.ffffff]]' (hours up to 838) as
// microseconds.
func parseTimeValue(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	s, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var v [3]int64
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 || (i > 0 && (n > 59 || len(p) > 2)) || (i == 0 && n > 838) {
			return 0, false
		}
		v[i] = n
	}
	us := (v[0]*3600 + v[1]*60 + v[2]) * columnar.MicrosPerSecond
	for i := 0; i < len(frac) && i < 6; i++ {
		if frac[i] < '0' || frac[i] > '9' {
			return 0, false
		}
		us += int64(frac[i]-'0') * pow10(5-i)
	}
	if neg {
		us = -us
	}
	return us, true
}
