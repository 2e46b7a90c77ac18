package sql

import (
	"fmt"
	"math"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// TIME(fsp) conversions (storage/columnar/time.go holds the value rules).
// MySQL reads a TIME in a numeric context as [-]HHMMSS[.ffffff] and a
// number as a TIME the same way; a DATETIME gives its time of day, a DATE
// 00:00:00. A TIME into a DATE or DATETIME would need the current date
// (MySQL's rule) and is refused: the cast gives NULL.

// convertToTime is c (not NULL) as TIME(t.Scale).
func convertToTime(c *Const, t columnar.Type) (int64, bool) {
	var us int64
	ok := true
	switch c.T.ID {
	case columnar.Time:
		us = c.I
	case columnar.String:
		if c.hex {
			return 0, false
		}
		return columnar.ParseTime(c.S, t.Scale)
	case columnar.Int32, columnar.Int64, columnar.Bool:
		us, ok = columnar.TimeFromNumber(c.I, 0)
	case columnar.Decimal:
		p := columnar.Pow10[c.T.Scale]
		frac := c.I % p
		if frac < 0 {
			frac = -frac
		}
		us, ok = columnar.TimeFromNumber(c.I/p, frac*columnar.Pow10[columnar.MaxFsp]/p)
	case columnar.Float64:
		if math.IsNaN(c.F) || math.Abs(c.F) > 1e7 {
			return 0, false
		}
		ip := math.Trunc(c.F)
		us, ok = columnar.TimeFromNumber(int64(ip), int64(math.Round(math.Abs(c.F-ip)*1e6)))
	case columnar.Datetime:
		us = c.I - columnar.DatetimeDays(c.I)*columnar.MicrosPerDay
	case columnar.Date:
		us = 0
	default:
		return 0, false
	}
	if !ok {
		return 0, false
	}
	us = columnar.RoundTime(us, t.Scale)
	return us, columnar.InTimeRange(us)
}

// convertFromTime folds a cast of a non-NULL TIME constant to a non-TIME
// type into out.
func convertFromTime(c *Const, out *Const) bool {
	t := out.T
	switch t.ID {
	case columnar.String:
		out.S = columnar.FormatTime(c.I, c.T.Scale)
	case columnar.Float64:
		out.F = timeFloat(c.I)
	case columnar.Int32, columnar.Int64, columnar.Bool:
		v := columnar.TimeToNumber(columnar.RoundTime(c.I, 0))
		if t.ID == columnar.Bool && v != 0 {
			v = 1
		}
		out.I = v
	case columnar.Decimal:
		v, ok := mulPow10(columnar.TimeToNumber(c.I), t.Scale)
		if !ok {
			return false
		}
		_, _, _, _, micro := columnar.TimeParts(c.I)
		f := int64(micro)
		if t.Scale < columnar.MaxFsp {
			f = roundScaled(f, columnar.MaxFsp, t.Scale)
		} else {
			f *= columnar.Pow10[t.Scale-columnar.MaxFsp]
		}
		if c.I < 0 {
			f = -f
		}
		out.I = v + f
		return fitsPrecision(out.I, t.Precision)
	default:
		return false
	}
	return true
}

// timeFloat is a TIME as the number [-]HHMMSS.ffffff.
func timeFloat(us int64) float64 {
	_, _, _, _, micro := columnar.TimeParts(us)
	f := float64(columnar.TimeToNumber(us))
	if us < 0 {
		return f - float64(micro)/1e6
	}
	return f + float64(micro)/1e6
}

// timeCompareType is the type a comparison with a TIME side is made in:
// TIME with TIME or a string (the finer fsp; a string keeps its digits),
// a number with the TIME as [-]HHMMSS; ok is false when neither side is a
// TIME. A TIME with a DATE or DATETIME is refused: MySQL puts the current
// date on the TIME, which a query rarely means.
func timeCompareType(a, b columnar.Type) (columnar.Type, bool, error) {
	if a.ID != columnar.Time && b.ID != columnar.Time {
		return columnar.Type{}, false, nil
	}
	fsp := 0
	for _, t := range []columnar.Type{a, b} {
		switch t.ID {
		case columnar.Time:
			fsp = max(fsp, t.Scale)
		case columnar.String:
			fsp = columnar.MaxFsp
		case columnar.Date, columnar.Datetime:
			return a, true, fmt.Errorf("unsupported: comparing %s with %s (MySQL puts the current date on the TIME; compare TIME(dt) with the TIME, or TIMESTAMP(d, t) with the DATETIME)", a, b)
		default:
			na, _ := numericType(a)
			nb, _ := numericType(b)
			return commonNumeric(na, nb), true, nil
		}
	}
	return columnar.TTime(fsp), true, nil
}

// timeUnionType is the type of a column holding TIME and other values
// (TIME with TIME, else text); ok is false when neither is a TIME.
func timeUnionType(a, b columnar.Type) (columnar.Type, bool) {
	if a.ID != columnar.Time && b.ID != columnar.Time {
		return columnar.Type{}, false
	}
	if a.ID != b.ID {
		return columnar.TString, true
	}
	return columnar.TTime(max(a.Scale, b.Scale)), true
}

// TimeValue converts a stored value of type from (not NULL; i for integer
// kinds, f for DOUBLE, s for strings) into TIME(to.Scale), for the
// engine's append of computed values into a TIME column.
func TimeValue(i int64, f float64, s string, from, to columnar.Type) (int64, bool) {
	return convertToTime(&Const{T: from, I: i, F: f, S: s}, to)
}

// timeLiteral binds TIME 'HH:MM:SS[.f]' (fsp its fraction digits).
func (b *binder) timeLiteral(n *ast.FuncCallExpr, pos int) (Expr, error) {
	if len(n.Args) == 1 {
		if e, err := b.expr(n.Args[0], &scope{plan: &Values{}}); err == nil {
			if c, ok := e.(*Const); ok && c.T.ID == columnar.String {
				fsp := timeLiteralFsp(c.S)
				if us, ok := columnar.ParseTime(c.S, fsp); ok {
					return &Const{T: columnar.TTime(fsp), I: us}, nil
				}
				return nil, b.errf(pos, "Incorrect time value: '%s'", c.S)
			}
		}
	}
	return nil, b.errf(pos, "incorrect TIME literal")
}

// LenientTime is the TIME MySQL's non-strict store keeps for a number c
// that is no TIME (type_time.result: 1234567 is 00:00:00, 123456789
// 838:59:59, each with 1264): past [-]8385959 the limit of c's sign, else
// minutes or seconds past 59 give 00:00:00. ok is false for what it does not
// read so (NaN, numbers of ten digits or more: a DATETIME's).
func LenientTime(c *Const) (int64, bool) {
	var n int64
	switch c.T.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		n = c.I
	case columnar.Decimal:
		n = c.I / columnar.Pow10[c.T.Scale]
	case columnar.Float64:
		if math.IsNaN(c.F) || math.Abs(c.F) >= 1e10 {
			return 0, false
		}
		n = int64(c.F)
	default:
		return 0, false
	}
	neg := n < 0 || c.T.ID == columnar.Float64 && c.F < 0 || c.T.ID == columnar.Decimal && c.I < 0
	if n < 0 {
		n = -n
	}
	switch {
	case n >= 1e10 || n < 0:
		return 0, false
	case n <= 8385959 && (n/100%100 > 59 || n%100 > 59): // number_to_time's order
		return 0, true
	case neg:
		return -columnar.MaxTime, true
	}
	return columnar.MaxTime, true
}
