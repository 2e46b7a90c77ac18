package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// INTERVAL arithmetic and differences over DATE and DATETIME: DATE_ADD,
// DATE_SUB, ADDDATE, SUBDATE, TIMESTAMPADD and d + INTERVAL n unit bind
// here (addInterval), for single units and MySQL's composite ones; the
// calendar arithmetic the executors share is AddDatetime and DatetimeDiff.

var intervalUnits = map[ast.TimeUnitType]struct {
	name string
	mult int64
}{ast.TimeUnitMicrosecond: {"microsecond", 1}, ast.TimeUnitSecond: {"second", 1},
	ast.TimeUnitMinute: {"minute", 1}, ast.TimeUnitHour: {"hour", 1}, ast.TimeUnitDay: {"day", 1},
	ast.TimeUnitWeek: {"day", 7}, ast.TimeUnitMonth: {"month", 1}, ast.TimeUnitQuarter: {"month", 3},
	ast.TimeUnitYear: {"year", 1}}

// addInterval binds d + INTERVAL k unit (DATE_ADD, DATE_SUB, ADDDATE,
// SUBDATE, TIMESTAMPADD). A DATE with a day-or-longer unit stays a DATE
// (date_add); a DATETIME, a string with a time, or a unit finer than a day
// gives a DATETIME (datetime_add), as MySQL does.
func (b *binder) addInterval(name string, d, k Expr, unitType ast.TimeUnitType, pos int) (Expr, error) {
	if cu, ok := compositeUnits[unitType]; ok {
		return b.addComposite(name, d, k, cu, pos)
	}
	u, ok := intervalUnits[unitType]
	if !ok {
		return nil, b.errf(pos, "unsupported: INTERVAL unit %s (MICROSECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, YEAR_MONTH, DAY_HOUR, DAY_MINUTE, DAY_SECOND, HOUR_MINUTE, HOUR_SECOND, MINUTE_SECOND and the *_MICROSECOND ones are supported)", unitType.String())
	}
	if _, ok := numericType(k.Type()); !ok && !isNullConst(k) {
		return nil, b.errf(pos, "type mismatch: INTERVAL of %s", k.Type())
	}
	fsp := -1 // the result's fraction digits where the interval sets them
	if u.name == "second" {
		if k, fsp = fractionalSeconds(k); fsp >= 0 {
			u.name = "microsecond"
		}
	}
	k = castTo(k, columnar.TInt64)
	mult := u.mult
	if name == "date_sub" || name == "subdate" {
		mult = -mult
	}
	if mult != 1 {
		if c, ok := k.(*Const); ok && !c.Null {
			k = &Const{T: columnar.TInt64, I: c.I * mult}
		} else {
			k = &Binary{Op: OpMul, L: k, R: &Const{T: columnar.TInt64, I: mult}, T: columnar.TInt64}
		}
	}
	if d.Type().ID == columnar.Time {
		return timeInterval(d, k, u.name, fsp), nil
	}
	if d.Type().ID != columnar.Datetime && !timeUnits[u.name] && !hasTimePart(d) {
		return b.addDays(name, d, k, u.name, pos)
	}
	d, err := b.datetimeArg(d, name, pos)
	if err != nil {
		return nil, err
	}
	t := columnar.TDatetime(d.Type().Scale)
	switch {
	case fsp >= 0:
		t.Scale = max(t.Scale, fsp)
	case u.name == "microsecond":
		t.Scale = columnar.MaxFsp
	}
	dc, ok1 := d.(*Const)
	kc, ok2 := k.(*Const)
	if ok1 && ok2 {
		if dc.Null || kc.Null {
			return nullConst(t), nil
		}
		// Past the range the call stays, to note 1441 as addDays does.
		if v, ok := AddDatetime(dc.I, kc.I, u.name); ok {
			return &Const{T: t, I: v}, nil
		}
	}
	return &Func{Name: "datetime_add", Args: []Expr{d, k, &Const{T: columnar.TString, S: u.name}}, T: t}, nil
}

// AddDatetime adds n units to a datetime (microseconds); month and year
// arithmetic keeps the time of day and clamps the day as AddDate does. ok
// is false when the result leaves years 0..9999 (MySQL's NULL).
func AddDatetime(us, n int64, unit string) (int64, bool) {
	lo := columnar.DaysFromCivil(0, 1, 1) * columnar.MicrosPerDay
	if p, ok := IntervalMicros[unit]; ok {
		const span = 1 << 62 // beyond any year 0..9999 distance
		if n > span/p || n < -span/p {
			return 0, false
		}
		v := us + n*p
		return v, v >= lo && v <= columnar.MaxDatetime
	}
	if n > 1_000_000 || n < -1_000_000 {
		return 0, false
	}
	days := columnar.DatetimeDays(us)
	tod := us - days*columnar.MicrosPerDay
	y, m, d := columnar.CivilFromDays(days)
	months := int64(y)*12 + int64(m-1) + n
	if unit == "year" {
		months += n * 11
	}
	if months < 0 || months > 9999*12+11 {
		return 0, false
	}
	ny, nm := int(months/12), int(months%12)+1
	return columnar.DaysFromCivil(ny, nm, min(d, daysIn(ny, nm)))*columnar.MicrosPerDay + tod, true
}

// IntervalMicros are the INTERVAL units of fixed length (AddDatetime's
// others, MONTH and YEAR, move by the calendar), in microseconds.
var IntervalMicros = map[string]int64{"microsecond": 1, "second": columnar.MicrosPerSecond,
	"minute": 60 * columnar.MicrosPerSecond, "hour": 3600 * columnar.MicrosPerSecond, "day": columnar.MicrosPerDay}

// DatetimeDiff is TIMESTAMPDIFF over datetimes: whole units from a to b,
// truncated toward zero. Months count only when b's day and time of day
// have reached a's (MySQL).
func DatetimeDiff(unit string, a, b int64) int64 {
	per := map[string]int64{"microsecond": 1, "second": columnar.MicrosPerSecond,
		"minute": 60 * columnar.MicrosPerSecond, "hour": 3600 * columnar.MicrosPerSecond,
		"day": columnar.MicrosPerDay, "week": 7 * columnar.MicrosPerDay}
	if p, ok := per[unit]; ok {
		return (b - a) / p
	}
	ay, am, ad, _, _, _, _ := columnar.DatetimeParts(a)
	by, bm, bd, _, _, _, _ := columnar.DatetimeParts(b)
	aRest := int64(ad)*columnar.MicrosPerDay + (a - columnar.DatetimeDays(a)*columnar.MicrosPerDay)
	bRest := int64(bd)*columnar.MicrosPerDay + (b - columnar.DatetimeDays(b)*columnar.MicrosPerDay)
	months := int64(by*12+bm) - int64(ay*12+am)
	if months > 0 && bRest < aRest {
		months--
	} else if months < 0 && bRest > aRest {
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

// compositeUnits are the INTERVAL units written as one string of several
// fields ('1 2:30' DAY_MINUTE): each field's size, in months for
// YEAR_MONTH and in microseconds for the others.
var compositeUnits = map[ast.TimeUnitType][]int64{
	ast.TimeUnitDayMicrosecond:    {columnar.MicrosPerDay, 3600 * columnar.MicrosPerSecond, 60 * columnar.MicrosPerSecond, columnar.MicrosPerSecond, 1},
	ast.TimeUnitHourMicrosecond:   {3600 * columnar.MicrosPerSecond, 60 * columnar.MicrosPerSecond, columnar.MicrosPerSecond, 1},
	ast.TimeUnitMinuteMicrosecond: {60 * columnar.MicrosPerSecond, columnar.MicrosPerSecond, 1},
	ast.TimeUnitSecondMicrosecond: {columnar.MicrosPerSecond, 1},
	ast.TimeUnitYearMonth:         {12, 1},
	ast.TimeUnitDayHour:           {columnar.MicrosPerDay, 3600 * columnar.MicrosPerSecond},
	ast.TimeUnitDayMinute:         {columnar.MicrosPerDay, 3600 * columnar.MicrosPerSecond, 60 * columnar.MicrosPerSecond},
	ast.TimeUnitDaySecond:         {columnar.MicrosPerDay, 3600 * columnar.MicrosPerSecond, 60 * columnar.MicrosPerSecond, columnar.MicrosPerSecond},
	ast.TimeUnitHourMinute:        {3600 * columnar.MicrosPerSecond, 60 * columnar.MicrosPerSecond},
	ast.TimeUnitHourSecond:        {3600 * columnar.MicrosPerSecond, 60 * columnar.MicrosPerSecond, columnar.MicrosPerSecond},
	ast.TimeUnitMinuteSecond:      {60 * columnar.MicrosPerSecond, columnar.MicrosPerSecond},
}

// addComposite binds d + INTERVAL 'text' unit for a composite unit: the
// constant text's fields (split at any non-digit; a leading '-' negates
// them all) are right-aligned to the unit's, as MySQL reads a value that
// leaves out the leftmost parts ('1:30' DAY_SECOND is 1 minute 30
// seconds), and summed into months or microseconds.
func (b *binder) addComposite(name string, d, k Expr, sizes []int64, pos int) (Expr, error) {
	c, ok := k.(*Const)
	if !ok {
		return nil, b.errf(pos, "unsupported: a composite INTERVAL unit with a value that is not a constant")
	}
	if c.Null {
		return b.addInterval(name, d, nullConst(columnar.TInt64), ast.TimeUnitMicrosecond, pos)
	}
	total, err := b.compositeTotal(c, sizes, pos)
	if err != nil {
		return nil, err
	}
	unit := ast.TimeUnitMicrosecond
	if countsMonths(sizes) {
		unit = ast.TimeUnitMonth
	}
	e, err := b.addInterval(name, d, &Const{T: columnar.TInt64, I: total}, unit, pos)
	if err != nil || unit == ast.TimeUnitMonth {
		return e, err
	}
	// Whole seconds: the result keeps d's fsp, not MICROSECOND's 6; the
	// *_MICROSECOND units give 6.
	fsp := 0
	if sizes[len(sizes)-1] == 1 {
		fsp = columnar.MaxFsp
	} else if dt := d.Type(); dt.ID == columnar.Datetime || dt.ID == columnar.Time {
		fsp = dt.Scale
	} else if hasTimePart(d) {
		fsp = literalFsp(d.(*Const).S)
	}
	switch x := e.(type) {
	case *Func:
		x.T.Scale = fsp
	case *Const:
		x.T.Scale = fsp
	}
	return e, nil
}

// compositeTotal reads a composite INTERVAL value's fields (split at any
// non-digit; a leading '-' negates them all), right-aligned to the unit's
// sizes, and sums them into months or microseconds.
func (b *binder) compositeTotal(c *Const, sizes []int64, pos int) (int64, error) {
	text := strings.TrimSpace(constText(c))
	neg := strings.HasPrefix(text, "-")
	fields := strings.FieldsFunc(strings.TrimPrefix(text, "-"), func(r rune) bool { return r < '0' || r > '9' })
	if len(fields) == 0 || len(fields) > len(sizes) {
		return 0, b.errf(pos, "Incorrect INTERVAL value: '%s'", text)
	}
	total := int64(0)
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		size := sizes[len(sizes)-len(fields)+i]
		if size == 1 && !countsMonths(sizes) && len(f) < 6 {
			// The microseconds are a fraction's digits: '1.5'
			// SECOND_MICROSECOND is 1.5 seconds (MySQL's get_interval_info).
			v *= columnar.Pow10[6-len(f)]
		}
		if err != nil || v > (1<<62)/size {
			return 0, b.errf(pos, "Incorrect INTERVAL value: '%s'", text)
		}
		total += v * size
	}
	if neg {
		total = -total
	}
	return total, nil
}

// countsMonths reports YEAR_MONTH's sizes, in months.
func countsMonths(sizes []int64) bool { return sizes[0] == 12 }

// constText is a constant's text as MySQL reads an INTERVAL value.
func constText(c *Const) string {
	if c.T.ID == columnar.String {
		return c.S
	}
	return strings.Trim(constString(c), "'")
}
