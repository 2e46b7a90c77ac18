package cpu

import (
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
	"datetime_add": func(f *rowFunc, a []val) val {
		v, ok := sql.AddDatetime(a[0].i, a[1].i, a[2].s)
		if !ok {
			f.warn.Add(sql.WarnDatetimeOverflow, sql.DatetimeOverflowText) // as date_add
			return nullVal
		}
		return iv(columnar.RoundDatetime(v, f.t.Scale))
	},
	"to_seconds": func(f *rowFunc, a []val) val {
		// TO_DAYS of the day, in seconds, and the time of day (MySQL:
		// TO_SECONDS('0000-01-01') is 86400).
		secs := floorDivInt(a[0].i, columnar.MicrosPerSecond)
		days := floorDivInt(secs, 86400)
		return iv(mysqlDayNumber(days)*86400 + secs - days*86400)
	},
	"timediff":    func(f *rowFunc, a []val) val { return iv(clampTimeWarn(f, a[0].i-a[1].i, f.t.Scale)) },
	"sec_to_time": secToTime,
	"convert_tz": func(f *rowFunc, a []val) val {
		from, to := sql.ZoneNamed(a[1].s), sql.ZoneNamed(a[2].s)
		if from == nil || to == nil {
			return nullVal
		}
		return iv(sql.ConvertTZ(a[0].i, from, to))
	},
	"zone_from_utc": func(f *rowFunc, a []val) val { return iv(sessionZone(a[1].s).FromUTC(a[0].i)) },
	"zone_to_utc":   func(f *rowFunc, a []val) val { return iv(sessionZone(a[1].s).ToUTC(a[0].i)) },
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

// sessionZone is the zone the binder named for zone_from_utc/zone_to_utc:
// the session's, which SET time_zone checked.
func sessionZone(name string) *sql.TimeZone {
	if z := sql.ZoneNamed(name); z != nil {
		return z
	}
	return sql.UTCZone
}
