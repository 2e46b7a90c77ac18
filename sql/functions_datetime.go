package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Functions over DATETIME (see datetimes.go for the type). Like
// functions_more.go, exec/cpu evaluates these row by row and exec/gpu
// refuses them by name:
//
//	name          args (after casts)                  result
//	hour, minute, dt DATETIME                         INT (of a TIME: functions_time.go)
//	second, microsecond
//	date_part     dt DATETIME                         DATE, the date dt falls on (DATE(dt), and what
//	                                                  YEAR(dt) ... read): no rounding, where CAST(dt
//	                                                  AS DATE) rounds the fraction first (MySQL:
//	                                                  '23:59:59.5' converts to the next day)
//	datetime_add  dt DATETIME, n BIGINT, unit const   DATETIME; unit microsecond, second, minute,
//	                                                  hour, day, month or year (WEEK is 7 days,
//	                                                  QUARTER 3 months, *_SUB negates n); months
//	                                                  clamp the day as date_add does; NULL past
//	                                                  year 9999 or before year 0
//	from_unixtime n DECIMAL(18,6)                     DATETIME (fsp of n's literal, at most 6): UTC
//	                                                  wall-clock time of n seconds; NULL when n < 0
//	to_seconds    dt DATETIME                         BIGINT seconds since year 0 (MySQL's calendar)
//	convert_tz    dt DATETIME, from, to VARCHAR       DATETIME: dt read in zone from, shown in zone to;
//	                                                  zones are '+HH:MM' offsets or IANA names
//	                                                  ('Europe/Paris', 'UTC', 'SYSTEM' is UTC);
//	                                                  NULL for an unknown zone (MySQL without its
//	                                                  time zone tables does the same for names)
//	timediff      a, b DATETIME                       TIME a - b (the larger fsp), clamped to
//	                                                  ±838:59:59 (of TIMEs: functions_time.go)
//
// TIMESTAMP(x) binds as x converted to DATETIME, TIMESTAMP(x, 'HH:MM:SS')
// and ADDTIME / SUBTIME(x, 'HH:MM:SS') as datetime_add of the constant time
// in microseconds (x a DATETIME); with a TIME first argument or a TIME
// expression second, functions_time.go binds them (time_add). TIME(x),
// CURTIME and the TIME forms are there too.
//
// Functions of functions.go and functions_more.go that take a DATETIME
// where they take a DATE: every date function reads a DATETIME's date
// (the binder casts it to DATE), except date_format (the time specifiers
// print the time), unix_timestamp (seconds, DECIMAL(18,fsp) when the
// argument has fractional digits), timestampdiff (args DATETIME when
// either is one or the unit is a time unit; whole units from a to b,
// months counting the day and time of day) and str_to_date (DATETIME(fsp)
// when the constant format reads a time: %H %k %h %I %l %i %s %S %f %p %r %T;
// fsp 6 with %f).
//
// Folded here: NOW()/CURRENT_TIMESTAMP/LOCALTIME/LOCALTIMESTAMP/SYSDATE/
// UTC_TIMESTAMP([fsp]) are the statement's clock as DATETIME(fsp) (SYSDATE
// too: MySQL's differs only within a statement). Times are UTC.

func init() {
	for _, n := range []string{"hour", "minute", "second", "microsecond", "date_part", "datetime_add", "from_unixtime",
		"to_seconds", "convert_tz", "timediff", "sec_to_time"} {
		moreFuncs[n] = true
	}
}

// datePartOf is the date a DATETIME falls on (DATE(dt) and the date
// functions' argument): a date_part call, folded for a constant.
func datePartOf(e Expr) Expr {
	if c, ok := e.(*Const); ok {
		if c.Null {
			return nullConst(columnar.TDate)
		}
		return &Const{T: columnar.TDate, I: columnar.DatetimeDays(c.I)}
	}
	return &Func{Name: "date_part", Args: []Expr{e}, T: columnar.TDate}
}

// timeUnits are the INTERVAL and TIMESTAMPDIFF units finer than a day.
var timeUnits = map[string]bool{"microsecond": true, "second": true, "minute": true, "hour": true}

// hasTimePart reports a string constant written with a time of day.
func hasTimePart(e Expr) bool {
	c, ok := e.(*Const)
	if !ok || c.Null || c.T.ID != columnar.String {
		return false
	}
	s := strings.TrimSpace(c.S)
	return strings.ContainsAny(s, ":") || (len(s) >= 12 && allDigits(strings.SplitN(s, ".", 2)[0]))
}

// datetimeArg converts a function argument to DATETIME: a DATETIME as it
// is, a DATE as its midnight, a string constant parsed (fsp its fraction
// digits; an invalid one is NULL with a warning), another string parsed
// per row (fsp 6, NULL when invalid), a number as YYYYMMDDHHMMSS, NULL as
// a NULL DATETIME.
func (b *binder) datetimeArg(e Expr, name string, pos int) (Expr, error) {
	switch t := e.Type(); {
	case isNullConst(e):
		return nullConst(columnar.TDatetime(0)), nil
	case t.ID == columnar.Datetime:
		return e, nil
	case t.ID == columnar.Date:
		return castTo(e, columnar.TDatetime(0)), nil
	case t.ID == columnar.String:
		if c, ok := e.(*Const); ok {
			fsp := literalFsp(c.S)
			us, ok := columnar.ParseDatetime(c.S, fsp)
			if !ok { // NULL with warning 1292, per row (temporal_args.go)
				return &Cast{E: e, T: columnar.TDatetime(columnar.MaxFsp)}, nil
			}
			return &Const{T: columnar.TDatetime(fsp), I: us}, nil
		}
		return castTo(e, columnar.TDatetime(columnar.MaxFsp)), nil
	case isDateNumber(t): // YYYYMMDDHHMMSS, YYYYMMDD ... (temporal_args.go)
		return castTo(e, columnar.TDatetime(0)), nil
	}
	return nil, b.errf(pos, "type mismatch: %s() of %s (a DATETIME is required)", name, e.Type())
}

// literalFsp is the number of fraction digits a datetime string carries
// (a date alone has none; a zone offset after them does not count).
func literalFsp(s string) int {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, '.')
	if i < 0 || !(strings.ContainsAny(s, " T") || allDigits(s[:i])) {
		return 0
	}
	return min(columnar.FractionDigits(s[i+1:]), columnar.MaxFsp)
}

// datetimeFunc binds the functions above and the clock; ok is false for
// names it does not know.
func (c *call) datetimeFunc() (Expr, bool, error) {
	switch c.name {
	case "now", "current_timestamp", "localtime", "localtimestamp", "sysdate", "utc_timestamp":
		fsp, err := c.fspArg()
		if err != nil {
			return nil, true, err
		}
		if c.name == "utc_timestamp" {
			return &Const{T: columnar.TDatetime(fsp), I: c.b.stmtUTCMicros(fsp)}, true, nil
		}
		return &Const{T: columnar.TDatetime(fsp), I: c.b.stmtMicros(fsp)}, true, nil
	case "hour", "minute", "second", "microsecond":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		d, err := c.b.datetimeArg(c.args[0], c.name, c.pos)
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt32, d)
	case "from_unixtime":
		return c.fromUnixtime()
	case "timestamp", "addtime", "subtime":
		return c.timestampFunc()
	case "to_seconds":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		d, err := c.b.datetimeArg(c.args[0], c.name, c.pos)
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, d)
	case "timediff":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		a, err := c.b.datetimeArg(c.args[0], c.name, c.pos)
		if err != nil {
			return nil, true, err
		}
		b, err := c.b.datetimeArg(c.args[1], c.name, c.pos)
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TTime(max(a.Type().Scale, b.Type().Scale)), a, b)
	case "convert_tz":
		if err := c.arity(3, 3); err != nil {
			return nil, true, err
		}
		d, err := c.b.datetimeArg(c.args[0], c.name, c.pos)
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TDatetime(d.Type().Scale), d, c.str(c.args[1]), c.str(c.args[2]))
	}
	return nil, false, nil
}

// timestampFunc binds TIMESTAMP(x) (x as a DATETIME), and TIMESTAMP(x, t),
// ADDTIME(x, t), SUBTIME(x, t) with t a constant time '[-]HH:MM[:SS[.f]]'
// added to (subtracted from) x.
func (c *call) timestampFunc() (Expr, bool, error) {
	lo := 1
	if c.name != "timestamp" { // ADDTIME(x, t), SUBTIME(x, t)
		lo = 2
	}
	if err := c.arity(lo, 2); err != nil {
		return nil, true, err
	}
	d, err := c.b.datetimeArg(c.args[0], c.name, c.pos)
	if err != nil || len(c.args) == 1 {
		return d, true, err
	}
	k, ok := c.args[1].(*Const)
	if ok && k.Null {
		return nullConst(d.Type()), true, nil
	}
	if !ok || k.T.ID != columnar.String {
		return nil, true, c.b.errf(c.pos, "unsupported: timestamp() with a second argument that is not a constant time such as '01:30:00'")
	}
	us, ok := columnar.ParseTime(k.S, columnar.MaxFsp) // '[-][D ]HH:MM:SS[.f]' as TIME reads it
	if !ok {
		return nil, true, c.b.errf(c.pos, "Incorrect time value: '%s'", k.S)
	}
	if c.name == "subtime" {
		us = -us
	}
	e, err := c.b.addInterval("timestamp", d, &Const{T: columnar.TInt64, I: us}, ast.TimeUnitMicrosecond, c.pos)
	// The result keeps the larger fsp of the two arguments (MySQL).
	fsp := d.Type().Scale
	if _, f, ok := strings.Cut(strings.TrimSpace(k.S), "."); ok {
		fsp = max(fsp, min(len(f), columnar.MaxFsp))
	}
	switch x := e.(type) {
	case *Func:
		x.T.Scale = fsp
	case *Const:
		x.T.Scale = fsp
	}
	return e, true, err
}

// fspArg reads the optional fractional-seconds precision of NOW(fsp).
func (c *call) fspArg() (int, error) {
	if err := c.arity(0, 1); err != nil {
		return 0, err
	}
	if len(c.args) == 0 {
		return 0, nil
	}
	k, ok := c.args[0].(*Const)
	if !ok || k.Null || !k.T.IsInteger() || k.I < 0 || k.I > columnar.MaxFsp {
		return 0, c.b.errf(c.pos, "%s() precision must be an integer from 0 to 6", c.name)
	}
	return int(k.I), nil
}

// fromUnixtime binds FROM_UNIXTIME(n[, format]); the format form is
// date_format of the datetime.
func (c *call) fromUnixtime() (Expr, bool, error) {
	if err := c.arity(1, 2); err != nil {
		return nil, true, err
	}
	n := c.args[0]
	nt, ok := numericType(n.Type())
	if !ok && !isNullConst(n) {
		return nil, true, c.b.errf(c.pos, "type mismatch: from_unixtime() of %s (a number is required)", n.Type())
	}
	fsp := 0
	switch nt.ID {
	case columnar.Decimal:
		fsp = min(nt.Scale, columnar.MaxFsp)
	case columnar.Float64:
		fsp = columnar.MaxFsp
	}
	dt := c.b.fromUTC(&Func{Name: "from_unixtime", Args: []Expr{castTo(n, columnar.TDecimal(18, columnar.MaxFsp))}, T: columnar.TDatetime(fsp)})
	if len(c.args) == 1 {
		return dt, true, nil
	}
	return &Func{Name: "date_format", Args: []Expr{dt, c.str(c.args[1])}, T: columnar.TString}, true, nil
}

// datetimeFirstArg is the first argument of date_format and
// unix_timestamp: DATETIME when it is one or a string constant with a
// time, else nil (the DATE form applies).
func (c *call) datetimeFirstArg() (Expr, error) {
	if len(c.args) == 0 || (c.args[0].Type().ID != columnar.Datetime && !hasTimePart(c.args[0])) {
		return nil, nil
	}
	return c.b.datetimeArg(c.args[0], c.name, c.pos)
}

// strToDateType is STR_TO_DATE's type as MySQL 8 derives it from a
// constant format (item_timefunc.cc, get_date_time_result_type): DATE
// when it reads only date parts, TIME when only time parts, DATETIME when
// both; fsp 6 with %f. Another format: DATETIME(6).
func strToDateType(format Expr) columnar.Type {
	f, ok := format.(*Const)
	if !ok || f.Null || f.T.ID != columnar.String {
		return columnar.TDatetime(columnar.MaxFsp)
	}
	var date, tod, frac bool
	for i := 0; i+1 < len(f.S); i++ {
		if f.S[i] != '%' {
			continue
		}
		i++
		switch f.S[i] {
		case 'a', 'b', 'c', 'd', 'D', 'e', 'j', 'm', 'M', 'u', 'U', 'v', 'V', 'w', 'W', 'x', 'X', 'y', 'Y':
			date = true
		case 'H', 'h', 'I', 'i', 'k', 'l', 'p', 'r', 's', 'S', 'T':
			tod = true
		case 'f':
			tod, frac = true, true
		}
	}
	fsp := 0
	if frac {
		fsp = columnar.MaxFsp
	}
	switch {
	case date && tod:
		return columnar.TDatetime(fsp)
	case tod:
		return columnar.TTime(fsp)
	}
	return columnar.TDate
}

// unixTimestampType is UNIX_TIMESTAMP(dt)'s type: seconds, with dt's
// fraction digits.
func unixTimestampType(t columnar.Type) columnar.Type {
	if t.Scale == 0 {
		return columnar.TInt64
	}
	return columnar.TDecimal(18, t.Scale)
}
