package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// EXTRACT with a compound unit (DAY_MINUTE, HOUR_SECOND, ...) reads the
// unit's fields and writes them side by side as decimal digits, two per
// field and six for microseconds, as MySQL's Item_extract does:
// EXTRACT(DAY_MINUTE FROM '2019-07-02 01:02:03') is 2*10000 + 1*100 + 2 =
// 20102. The binder composes it from the single-field functions (day(),
// hour(), ...) with BIGINT arithmetic, so both executors run it as they
// run those.
//
// A TIME value has no day field (MySQL's day is 0 and the hours run past
// 24: DAY_HOUR of TIME '25:00:00' is 25), and a negative TIME gives every
// unit a negative result (EXTRACT(HOUR_MINUTE FROM TIME '-01:02:03') is
// -102, EXTRACT(HOUR FROM it) -1).

var compoundExtractUnits = map[ast.TimeUnitType][]string{
	ast.TimeUnitYearMonth:         {"year", "month"},
	ast.TimeUnitDayHour:           {"day", "hour"},
	ast.TimeUnitDayMinute:         {"day", "hour", "minute"},
	ast.TimeUnitDaySecond:         {"day", "hour", "minute", "second"},
	ast.TimeUnitDayMicrosecond:    {"day", "hour", "minute", "second", "microsecond"},
	ast.TimeUnitHourMinute:        {"hour", "minute"},
	ast.TimeUnitHourSecond:        {"hour", "minute", "second"},
	ast.TimeUnitHourMicrosecond:   {"hour", "minute", "second", "microsecond"},
	ast.TimeUnitMinuteSecond:      {"minute", "second"},
	ast.TimeUnitMinuteMicrosecond: {"minute", "second", "microsecond"},
	ast.TimeUnitSecondMicrosecond: {"second", "microsecond"},
}

// timeFields are the units that a TIME value has (and whose EXTRACT takes
// the TIME's sign).
var timeFields = map[string]bool{"hour": true, "minute": true, "second": true, "microsecond": true}

// extractFields binds EXTRACT(unit FROM x) for the fields of a unit: one
// field is the function of that name, several are packed as digits.
func (b *binder) extractFields(fields []string, x ast.ExprNode, sc *scope, pos int) (Expr, error) {
	arg, err := b.expr(x, sc)
	if err != nil {
		return nil, err
	}
	onTime := isTimeArg(arg)
	var out Expr
	for _, f := range fields {
		if onTime && f == "day" {
			continue // a TIME's day is 0: its hours hold the whole span
		}
		v, err := b.funcCall(&ast.FuncCallExpr{FnName: ast.NewCIStr(f), Args: []ast.ExprNode{x}}, sc, pos)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = v
			continue
		}
		scale := int64(100)
		if f == "microsecond" {
			scale = 1000000
		}
		if out, err = b.arith(OpMul, out, intConst(scale), pos); err != nil {
			return nil, err
		}
		if out, err = b.arith(OpAdd, out, v, pos); err != nil {
			return nil, err
		}
	}
	if len(fields) > 1 {
		out = castTo(out, columnar.TInt64)
	}
	if onTime && timeFields[fields[len(fields)-1]] {
		return b.timeSigned(arg, out, pos)
	}
	return out, nil
}

// timeSigned gives v the sign of the TIME value t: MySQL's EXTRACT of a
// negative TIME is negative.
func (b *binder) timeSigned(t, v Expr, pos int) (Expr, error) {
	if c, ok := t.(*Const); ok && c.T.ID == columnar.String && !c.Null {
		us, ok := columnar.ParseTime(c.S, columnar.MaxFsp)
		if !ok || us >= 0 {
			return v, nil
		}
		return b.negate(v, pos)
	}
	if t.Type().ID != columnar.Time {
		return v, nil
	}
	neg, err := b.compare(OpLT, t, &Const{T: t.Type()}, pos)
	if err != nil {
		return nil, err
	}
	minus, err := b.negate(v, pos)
	if err != nil {
		return nil, err
	}
	return &Case{Whens: []When{{Cond: neg, Result: castTo(minus, v.Type())}}, Else: v, T: v.Type()}, nil
}
