package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// Functions that return or take TIME (see times.go for the type). They run
// row by row in exec/cpu (rowfunc_time.go); the GPU refuses plans with
// TIME values (planner/gpu_type_refusal.go).
//
//	name          args (after casts)                  result
//	time          x                                   TIME: CAST(x AS TIME), a DATETIME's time of
//	                                                  day, a string read as a TIME or DATETIME
//	time_add      a, b TIME, sign -1                  TIMEDIFF of TIMEs (of DATETIMEs: timediff,
//	                                                  functions_datetime.go)
//	sec_to_time   n BIGINT                            TIME, clamped to ±838:59:59
//	maketime      h, m BIGINT, s DECIMAL(18,6)        TIME; NULL unless 0 <= m, s < 60
//	time_add      a TIME|DATETIME, b TIME, sign       ADDTIME / SUBTIME / TIMESTAMP(d, t): a's type
//	                                                  (TIME clamped; DATETIME NULL out of range)
//	time_interval t TIME, n BIGINT, unit const        TIME: t + INTERVAL n unit (DATE_ADD, DATE_SUB,
//	                                                  TIMESTAMPADD); NULL with 1441 past ±838:59:59
//	                                                  and for MONTH / YEAR units (MySQL's
//	                                                  Item_date_add_interval::get_time_internal)
//	time_hour ... hour, minute, second, microsecond   INT parts of a TIME's magnitude (hours up to 838)
//	of a TIME
//	time_seconds  t TIME                              BIGINT TIME_TO_SEC (toward zero)
//	time_format   t TIME, format VARCHAR              VARCHAR: %H %k %h %I %l %i %s %S %f %p %r
//	                                                  %T %%; a date specifier gives NULL (MySQL)
//	CURTIME([fsp]) is the statement's time of day as a TIME constant.

func init() {
	for _, n := range []string{"maketime", "time_add", "time_interval", "time_hour", "time_minute", "time_second",
		"time_microsecond", "time_seconds", "time_format"} {
		moreFuncs[n] = true
	}
}

// isTimeArg reports an argument that reads as a TIME: a TIME value, or a
// string constant that is a TIME and not a DATETIME ('10:20:30', '-01:00').
func isTimeArg(e Expr) bool {
	if e.Type().ID == columnar.Time {
		return true
	}
	c, ok := e.(*Const)
	if !ok || c.Null || c.T.ID != columnar.String {
		return false
	}
	if _, ok := columnar.ParseDatetime(c.S, columnar.MaxFsp); ok && strings.ContainsAny(c.S, "-/") && !strings.HasPrefix(strings.TrimSpace(c.S), "-") {
		return false
	}
	_, ok = columnar.ParseTime(c.S, columnar.MaxFsp)
	return ok
}

// isText reports a string (not JSON) argument.
func isText(e Expr) bool { return e.Type().ID == columnar.String && !e.Type().JSON }

// timeArg converts an argument to TIME: a TIME as it is, a string
// constant parsed (fsp its fraction digits; an invalid one is an error),
// anything else cast (fsp 6 for strings, NULL where invalid).
func (c *call) timeArg(e Expr) (Expr, error) {
	switch t := e.Type(); {
	case isNullConst(e):
		return nullConst(columnar.TTime(0)), nil
	case t.ID == columnar.Time:
		return e, nil
	case t.ID == columnar.Datetime:
		return castTo(e, columnar.TTime(t.Scale)), nil
	case t.ID == columnar.String:
		if k, ok := e.(*Const); ok {
			fsp := timeLiteralFsp(k.S)
			us, ok := columnar.ParseTime(k.S, fsp)
			if !ok { // NULL, or ±838:59:59 past the range, with warning 1292, per row
				return &Cast{E: e, T: columnar.TTime(fsp)}, nil
			}
			return &Const{T: columnar.TTime(fsp), I: us}, nil
		}
		return castTo(e, columnar.TTime(columnar.MaxFsp)), nil
	}
	if !castable(e.Type(), columnar.TTime(0)) {
		return nil, c.b.errf(c.pos, "type mismatch: %s() of %s (a TIME is required)", c.name, e.Type())
	}
	return castTo(e, columnar.TTime(0)), nil
}

// timeLiteralFsp is the number of fraction digits of a time string.
func timeLiteralFsp(s string) int {
	if _, f, ok := strings.Cut(strings.TrimSpace(s), "."); ok {
		return min(len(f), columnar.MaxFsp)
	}
	return 0
}

// timeFunc binds the functions above; ok is false for names (or argument
// types) it leaves to datetimeFunc.
func (c *call) timeFunc() (Expr, bool, error) {
	switch c.name {
	case "curtime", "current_time", "utc_time":
		fsp, err := c.fspArg()
		if err != nil {
			return nil, true, err
		}
		us := c.b.stmtMicros(fsp)
		if c.name == "utc_time" {
			us = c.b.stmtUTCMicros(fsp)
		}
		return &Const{T: columnar.TTime(fsp), I: us - columnar.DatetimeDays(us)*columnar.MicrosPerDay}, true, nil
	case "time":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		e, err := c.timeArg(c.args[0])
		return e, true, err
	case "hour", "minute", "second", "microsecond", "time_to_sec":
		// MySQL reads a string argument as a TIME (a DATETIME text gives
		// its time of day): HOUR('272:59:59') is 272. HOUR of a DATETIME
		// is datetimeFunc's; TIME_TO_SEC of anything reads it as a TIME.
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		if c.name != "time_to_sec" && !isTimeArg(c.args[0]) && !isText(c.args[0]) {
			return nil, false, nil
		}
		t, err := c.timeArg(c.args[0])
		if err != nil {
			return nil, true, err
		}
		if c.name == "time_to_sec" {
			return &Func{Name: "time_seconds", Args: []Expr{t}, T: columnar.TInt64}, true, nil
		}
		return &Func{Name: "time_" + c.name, Args: []Expr{t}, T: columnar.TInt32}, true, nil
	case "timediff":
		return c.timeDiff()
	case "sec_to_time":
		return c.secToTime()
	case "maketime":
		return c.makeTime()
	case "addtime", "subtime", "timestamp":
		return c.timeAdd()
	case "time_format":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		t, err := c.timeArg(c.args[0])
		if err != nil {
			return nil, true, err
		}
		return &Func{Name: "time_format", Args: []Expr{t, c.str(c.args[1])}, T: columnar.TString}, true, nil
	}
	return nil, false, nil
}

// timeDiff binds TIMEDIFF(a, b): of two TIMEs (or time strings) time_add
// of a and -b; of two DATETIMEs datetimeFunc's timediff.
func (c *call) timeDiff() (Expr, bool, error) {
	if err := c.arity(2, 2); err != nil {
		return nil, true, err
	}
	if !isTimeArg(c.args[0]) && !isTimeArg(c.args[1]) {
		return c.datetimeFunc()
	}
	a, err := c.timeArg(c.args[0])
	if err != nil {
		return nil, true, err
	}
	b, err := c.timeArg(c.args[1])
	if err != nil {
		return nil, true, err
	}
	fsp := max(a.Type().Scale, b.Type().Scale)
	neg := &Const{T: columnar.TInt64, I: -1}
	return &Func{Name: "time_add", Args: []Expr{a, b, neg}, T: columnar.TTime(fsp)}, true, nil
}

// secToTime binds SEC_TO_TIME(n). As MySQL's Item_func_sec_to_time it
// keeps n's fraction digits, up to 6 (a DOUBLE or a string all 6):
// SEC_TO_TIME(1.5) is 00:00:01.5. A fractional n is read as a DECIMAL of
// those digits, or as a DOUBLE where that DECIMAL could not hold it.
func (c *call) secToTime() (Expr, bool, error) {
	if err := c.arity(1, 1); err != nil {
		return nil, true, err
	}
	t, ok := numericType(c.args[0].Type())
	if !ok && !isNullConst(c.args[0]) {
		return nil, true, c.b.errf(c.pos, "type mismatch: sec_to_time() of %s (a number is required)", c.args[0].Type())
	}
	n, fsp := castTo(c.args[0], columnar.TInt64), 0
	switch {
	case t.ID == columnar.Decimal && t.Scale > 0 && t.Precision-t.Scale <= 12:
		fsp = min(t.Scale, columnar.MaxFsp)
		n = castTo(c.args[0], columnar.TDecimal(18, fsp))
	case t.ID == columnar.Decimal && t.Scale > 0, t.ID == columnar.Float64:
		fsp = min(t.Scale, columnar.MaxFsp)
		if t.ID == columnar.Float64 {
			fsp = columnar.MaxFsp
		}
		n = castTo(c.args[0], columnar.TFloat64)
	}
	return &Func{Name: "sec_to_time", Args: []Expr{n}, T: columnar.TTime(fsp)}, true, nil
}

// makeTime binds MAKETIME(h, m, s); s keeps its fraction digits (fsp).
func (c *call) makeTime() (Expr, bool, error) {
	if err := c.arity(3, 3); err != nil {
		return nil, true, err
	}
	h, err := c.integer(c.args[0])
	if err != nil {
		return nil, true, err
	}
	m, err := c.integer(c.args[1])
	if err != nil {
		return nil, true, err
	}
	st, ok := numericType(c.args[2].Type())
	if !ok && !isNullConst(c.args[2]) {
		return nil, true, c.b.errf(c.pos, "type mismatch: maketime() of %s (a number is required)", c.args[2].Type())
	}
	fsp := 0
	switch st.ID {
	case columnar.Decimal:
		fsp = min(st.Scale, columnar.MaxFsp)
	case columnar.Float64:
		fsp = columnar.MaxFsp
	}
	s := castTo(c.args[2], columnar.TDecimal(18, columnar.MaxFsp))
	return &Func{Name: "maketime", Args: []Expr{castTo(h, columnar.TInt64), castTo(m, columnar.TInt64), s}, T: columnar.TTime(fsp)}, true, nil
}

// timeAdd binds ADDTIME / SUBTIME(a, t) and TIMESTAMP(d, t) where a is a
// TIME or t is not a constant string (datetimeFunc folds that case): t
// read as a TIME (a string per row, NULL where it is none), time_add of a
// and t, of a's type.
func (c *call) timeAdd() (Expr, bool, error) {
	if len(c.args) != 2 {
		return nil, false, nil
	}
	first, second := c.args[0], c.args[1]
	if k, ok := second.(*Const); ok && (k.Null || k.T.ID == columnar.String) && !isTimeArg(first) {
		return nil, false, nil // datetimeFunc's DATETIME + constant time text
	}
	t, err := c.timeArg(second)
	if err != nil {
		return nil, true, err
	}
	sign := &Const{T: columnar.TInt64, I: 1}
	if c.name == "subtime" {
		sign.I = -1
	}
	var a Expr
	if isTimeArg(first) && c.name != "timestamp" {
		a, err = c.timeArg(first)
	} else {
		a, err = c.b.datetimeArg(first, c.name, c.pos)
	}
	if err != nil {
		return nil, true, err
	}
	rt := a.Type()
	rt.Scale = max(rt.Scale, t.Type().Scale)
	return &Func{Name: "time_add", Args: []Expr{a, t, sign}, T: rt}, true, nil
}

// timeInterval binds t + INTERVAL k unit for a TIME t: MySQL 8.0 types it
// TIME whatever the unit, with t's fraction digits or the interval's
// (ifsp, -1 for none) where more.
func timeInterval(t, k Expr, unit string, ifsp int) Expr {
	rt := columnar.TTime(max(t.Type().Scale, ifsp))
	if unit == "microsecond" && ifsp < 0 {
		rt.Scale = columnar.MaxFsp
	}
	if isNullConst(t) || isNullConst(k) {
		return nullConst(rt)
	}
	tc, ok1 := t.(*Const)
	kc, ok2 := k.(*Const)
	if ok1 && ok2 {
		// Past the range the call stays, to note 1441 per row.
		if v, ok := AddTime(tc.I, kc.I, unit); ok {
			return &Const{T: rt, I: v}
		}
	}
	return &Func{Name: "time_interval", Args: []Expr{t, k, &Const{T: columnar.TString, S: unit}}, T: rt}
}

// AddTime adds n units to a TIME (microseconds); ok is false past
// ±838:59:59 and for the calendar units, which a TIME cannot take (MySQL:
// NULL with 1441 "time field overflow").
func AddTime(us, n int64, unit string) (int64, bool) {
	p, ok := IntervalMicros[unit]
	if !ok {
		return 0, false
	}
	if lim := 2 * columnar.MaxTime / p; n > lim || n < -lim { // past the range from any TIME
		return 0, false
	}
	v := us + n*p
	return v, v >= -columnar.MaxTime && v <= columnar.MaxTime
}
