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
