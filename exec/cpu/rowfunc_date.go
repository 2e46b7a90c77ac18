package cpu

import (
	"time"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// mysqlDayZero is TO_DAYS('1970-01-01'): MySQL counts days from year 0.
const mysqlDayZero = 719528

// yearZeroMarch is 0000-03-01 in days from 1970-01-01.
var yearZeroMarch = daysFromCivil(0, 3, 1)

// mysqlDayNumber is TO_DAYS of a date (days from 1970-01-01). MySQL's
// calc_daynr counts year 0 as a common year (calc_days_in_year(0) is
// 365), so before 0000-03-01 its numbers run one above the proleptic
// Gregorian calendar's, which has a 0000-02-29: TO_DAYS('0000-01-01') is
// 1 in MySQL (its manual's example), and 0000-03-01 is 60 in both.
func mysqlDayNumber(days int64) int64 {
	if days < yearZeroMarch {
		return days + mysqlDayZero + 1
	}
	return days + mysqlDayZero
}

// weekdayOf is 0 = Monday .. 6 = Sunday: MySQL's calc_weekday of its day
// number, so it follows calc_daynr's common year 0 and puts 0000-01-01
// on a Sunday (DAYOFWEEK 1), not the proleptic calendar's Saturday.
func weekdayOf(days int64) int64 { return (mysqlDayNumber(days)%7 + 12) % 7 }

// yearDay is DAYOFYEAR and %j: MySQL subtracts calc_daynr numbers, so
// year 0 has 365 days and 0000-03-01 is its day 60 (not 61).
func yearDay(days int64) int64 {
	y, _, _ := civilFromDays(days)
	return mysqlDayNumber(days) - mysqlDayNumber(daysFromCivil(y, 1, 1)) + 1
}

// dateBodies are the date functions of sql/functions_more.go.
var dateBodies = map[string]func(f *rowFunc, a []val) val{
	"dayofweek": func(f *rowFunc, a []val) val { return iv((weekdayOf(a[0].i)+1)%7 + 1) },
	"weekday":   func(f *rowFunc, a []val) val { return iv(weekdayOf(a[0].i)) },
	"dayofyear": func(f *rowFunc, a []val) val { return iv(yearDay(a[0].i)) },
	"quarter": func(f *rowFunc, a []val) val {
		_, m, _ := civilFromDays(a[0].i)
		return iv((m + 2) / 3)
	},
	"last_day": func(f *rowFunc, a []val) val {
		y, m, _ := civilFromDays(a[0].i)
		return iv(daysFromCivil(y, m, daysInMonth(y, m)))
	},
	"dayname": func(f *rowFunc, a []val) val {
		return sv(time.Weekday((weekdayOf(a[0].i) + 1) % 7).String())
	},
	"monthname": func(f *rowFunc, a []val) val {
		_, m, _ := civilFromDays(a[0].i)
		return sv(time.Month(m).String())
	},
	"to_days": func(f *rowFunc, a []val) val { return iv(mysqlDayNumber(a[0].i)) },
	"from_days": func(f *rowFunc, a []val) val {
		return checkedDate(a[0].i - mysqlDayZero)
	},
	"makedate": func(f *rowFunc, a []val) val {
		y := a[0].i
		if a[1].i <= 0 || y < 0 || y > 9999 || a[1].i > 366*10000 {
			return nullVal
		}
		// MySQL cannot tell a two-digit year from an integer argument, so
		// it reads every year below 100 as one: MAKEDATE(99, 1) is 1999.
		if y < 100 {
			y = twoDigitYear(y)
		}
		return checkedDate(daysFromCivil(y, 1, 1) + a[1].i - 1)
	},
	"unix_timestamp": unixTimestamp,
	"date_format": func(f *rowFunc, a []val) val {
		if a[1].s == "" {
			return nullVal // Item_func_date_format: an empty format is NULL
		}
		if f.types[0].ID == columnar.Datetime {
			return sv(datetimeFormat(a[0].i, a[1].s))
		}
		return sv(datetimeFormat(a[0].i*columnar.MicrosPerDay, a[1].s))
	},
	"str_to_date": func(f *rowFunc, a []val) val {
		us, ok, cut := strToDate(a[0].s, a[1].s, f.t)
		if ok && cut { // extract_date_time checks the date first
			f.warn.Add(sql.WarnTruncatedValue, "Truncated incorrect "+strToDateKind(f.t)+" value: '"+a[0].s+"'")
		}
		switch {
		case !ok:
			f.warn.Add(sql.WarnDatetimeForFunc, "Incorrect datetime value: '"+a[0].s+"' for function str_to_date")
			return nullVal
		case f.t.ID == columnar.Time:
			return iv(us) // the time of day: within TIME's range
		case f.t.ID == columnar.Datetime:
			return iv(columnar.RoundDatetime(us, f.t.Scale))
		}
		return iv(columnar.DatetimeDays(us))
	},
	"timestampdiff": func(f *rowFunc, a []val) val {
		if f.types[1].ID == columnar.Datetime {
			return iv(sql.DatetimeDiff(a[0].s, a[1].i, a[2].i))
		}
		return iv(dateDiff(a[0].s, a[1].i, a[2].i))
	},
}

// strToDateKind names STR_TO_DATE's result type as MySQL's
// make_truncated_value_warning does.
func strToDateKind(t columnar.Type) string {
	switch t.ID {
	case columnar.Time:
		return "time"
	case columnar.Datetime:
		return "datetime"
	}
	return "date"
}

// checkedDate is NULL outside DATE's range (years 0..9999).
func checkedDate(days int64) val {
	y, m, d := civilFromDays(days)
	if !validDate(y, m, d) {
		return nullVal
	}
	return iv(days)
}

// dateDiff is TIMESTAMPDIFF: whole units from a to b. Months count only
// when the day of month has been reached (2024-01-31 to 2024-02-29 is 0
// months), as MySQL does.
func dateDiff(unit string, a, b int64) int64 {
	switch unit {
	case "day":
		return b - a
	case "week":
		return (b - a) / 7
	}
	ay, am, ad := civilFromDays(a)
	by, bm, bd := civilFromDays(b)
	months := (by*12 + bm) - (ay*12 + am)
	if months > 0 && bd < ad {
		months--
	} else if months < 0 && bd > ad {
		months++
	}
	switch unit {
	case "quarter":
		return months / 3
	case "year":
		return months / 12
	}
	return months
}
