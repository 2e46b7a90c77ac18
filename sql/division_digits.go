package sql

import (
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// MySQL's '/' is typed DECIMAL of the dividend's scale + 4
// (div_precision_increment), but its value keeps the digits MySQL's
// decimal library computes, which works in words of 9 digits: 1/3 is
// 0.333333333, cut (not rounded) after 9 digits (strings/decimal.c,
// do_div_mod), and printed rounded to the type's 4: 0.3333. What is
// computed from the quotient reads all of them: 1/3 * 3 is 0.999999999,
// printed 1.0000; 1/3 + 1/3 + 1/3 prints 1.0000; 1/7 * 6 is 0.8571, not
// 0.1429 * 6; 1/3 = 0.3333 is false; (1/3) / 3 is 0.111111111000000000,
// printed to its scale 8, 0.11111111.
//
// gpusql computes a quotient at MySQL's digits (DivisionScale: the type's
// Scale is the digits computed, the quotient is cut there) and rounds a
// select list's column to the scale MySQL prints (shownScale) where that
// is fewer, as MySQL does when it sends or stores the value.

// DivisionScale is the number of fraction digits MySQL computes a / b
// with, for operands of sl and sr fraction digits: frac0 =
// ROUND_UP(frac1 + frac2 + scale_incr) words, each operand's digits
// rounded up to whole words and scale_incr (4) lessened by the digits that
// added; at most decimal.MaxScale (the 30 MySQL's types keep).
func DivisionScale(sl, sr int) int {
	words := func(d int) int { return (d + 8) / 9 * 9 }
	f1, f2 := words(sl), words(sr)
	incr := max(0, 4-(f1-sl)-(f2-sr))
	return min(words(f1+f2+incr), decimal.MaxScale)
}

// shownScale is the scale MySQL prints e's value with: its type's, but
// for a quotient (its dividend's shown scale + 4) and what is computed
// from one (* adds the shown scales, + - % keep the largest, CASE,
// COALESCE, IF, ABS, NULLIF, GREATEST, LEAST and negation their
// arguments', SUM, MIN and MAX their argument's).
func (b *binder) shownScale(e Expr, sc *scope) int {
	t := e.Type()
	if t.ID != columnar.Decimal {
		return 0
	}
	shown := func(x Expr) int { return b.shownScale(x, sc) }
	switch x := e.(type) {
	case *Const:
		if x.Null {
			return 0 // NULLIF's NULL, CASE's missing ELSE
		}
		if x.written > 0 {
			return int(x.written) - 1 // CASE, COALESCE, + and - widen their constants
		}
	case *Binary:
		l, r := b.shownScale(x.L, sc), b.shownScale(x.R, sc)
		switch x.Op {
		case OpDiv:
			return min(l+4, decimal.MaxScale, t.Scale)
		case OpMul:
			return min(l+r, t.Scale)
		case OpAdd, OpSub, OpMod:
			return min(max(l, r), t.Scale)
		}
	case *Neg:
		return b.shownScale(x.E, sc)
	case *Cast:
		in := x.E.Type()
		if x.Written {
			return t.Scale
		}
		if in.ID == columnar.Decimal && x.T.Scale >= in.Scale {
			return min(b.shownScale(x.E, sc), x.T.Scale) // a widening the binder put in
		}
		if in.IsInteger() || in.ID == columnar.Bool {
			return 0 // an integer brought to the quotient's scale to be added (1/a + b)
		}
	case *Case:
		s := 0
		for _, w := range x.Whens {
			s = max(s, shown(w.Result))
		}
		if x.Else != nil {
			s = max(s, shown(x.Else))
		}
		return min(s, t.Scale)
	case *Func:
		switch x.Name {
		case "abs", "coalesce", "if", "ifnull", "nullif", "greatest", "least":
			s := 0
			for i, a := range x.Args {
				if x.Name == "if" && i == 0 || x.Name == "nullif" && i == 1 {
					continue
				}
				s = max(s, shown(a))
			}
			return min(s, t.Scale)
		}
	case *ColRef:
		if arg, ok := b.aggregatedFrom(x, sc); ok {
			return min(b.shownScale(arg, sc.agg.pre), t.Scale) // arg reads the rows before aggregation
		}
		if arg, ok := averaged(x, sc); ok {
			return min(b.shownScale(arg, sc.agg.pre)+4, decimal.MaxScale, t.Scale)
		}
		if x.Col.Shown > 0 {
			return int(x.Col.Shown) - 1
		}
	case *ScalarSubquery:
		if sch := x.Plan.Schema(); len(sch) > 0 && sch[0].Shown > 0 {
			return int(sch[0].Shown) - 1
		}
	case *NestedSubquery:
		if sch := x.Plan.Schema(); x.Mode == SubqueryScalar && len(sch) > 0 && sch[0].Shown > 0 {
			return int(sch[0].Shown) - 1
		}
	}
	return t.Scale
}

// hasQuotient reports a '/' of a DECIMAL result among the expressions
// e's value is computed from (through aggregates: aggregatedFrom).
func (b *binder) hasQuotient(e Expr, sc *scope) bool {
	in := func(xs ...Expr) bool {
		for _, x := range xs {
			if x != nil && b.hasQuotient(x, sc) {
				return true
			}
		}
		return false
	}
	switch x := e.(type) {
	case *Binary:
		return x.Op == OpDiv && x.T.ID == columnar.Decimal || in(x.L, x.R)
	case *Neg:
		return in(x.E)
	case *Cast:
		return in(x.E)
	case *Case:
		for _, w := range x.Whens {
			if in(w.Result) {
				return true
			}
		}
		return in(x.Else)
	case *Func:
		return in(x.Args...)
	case *ColRef:
		if arg, ok := b.aggregatedFrom(x, sc); ok {
			return b.hasQuotient(arg, sc.agg.pre)
		}
		_, avg := averaged(x, sc)
		return avg || x.Col.Shown > 0
	case *ScalarSubquery:
		sch := x.Plan.Schema()
		return len(sch) > 0 && sch[0].Shown > 0
	case *NestedSubquery:
		sch := x.Plan.Schema()
		return x.Mode == SubqueryScalar && len(sch) > 0 && sch[0].Shown > 0
	}
	return false
}

// aggregatedFrom is, for a reference to an aggregated query's GROUP BY
// expression or SUM / MIN / MAX, that expression or argument (over
// sc.agg.pre).
func (b *binder) aggregatedFrom(r *ColRef, sc *scope) (Expr, bool) {
	if sc == nil || sc.agg == nil {
		return nil, false
	}
	a := sc.agg
	switch i := r.Index; {
	case i < len(a.groupExprs):
		return a.groupExprs[i], true
	case i >= a.nGroups && i-a.nGroups < len(a.aggFuncs):
		ae := a.aggFuncs[i-a.nGroups]
		if ae.Func == AggSum || ae.Func == AggMin || ae.Func == AggMax {
			return ae.Arg, ae.Arg != nil
		}
	}
	return nil, false
}

// averaged is, for a reference to an aggregated query's AVG of a
// DECIMAL result, its argument (over sc.agg.pre): MySQL prints it with
// the argument's scale + 4, its value keeps DivisionScale digits.
func averaged(r *ColRef, sc *scope) (Expr, bool) {
	if sc == nil || sc.agg == nil {
		return nil, false
	}
	a := sc.agg
	if i := r.Index - a.nGroups; i >= 0 && i < len(a.aggFuncs) {
		ae := a.aggFuncs[i]
		return ae.Arg, ae.Func == AggAvg && ae.Arg != nil && ae.T.ID == columnar.Decimal
	}
	return nil, false
}

// shownDigits rounds a select list's column to the scale MySQL prints it
// with, where its value carries more digits (a quotient's), when round is
// set: the statement's own columns and a set operation's, which MySQL
// sends or stores so. A subquery's or derived table's is not rounded
// (MySQL compares salary > (SELECT AVG(salary) ...) with all 9 digits of
// the average, and merges a derived table into the query reading it): its
// column's Shown (returned) carries the scale to the query that prints it.
func (b *binder) shownDigits(e Expr, sc *scope, round bool) (Expr, int8) {
	t := e.Type()
	if t.ID != columnar.Decimal || !b.hasQuotient(e, sc) {
		return e, 0
	}
	s := b.shownScale(e, sc)
	if s >= t.Scale {
		return e, 0
	}
	if !round {
		return e, int8(s + 1) // the column's Shown
	}
	// MySQL's precision: a quotient's integer digits (the dividend's and
	// the divisor's fraction digits) and the shown ones.
	intDigits := t.Precision - t.Scale
	if q, ok := e.(*Binary); ok && q.Op == OpDiv {
		dl, dr := asDecimal(q.L.Type()), asDecimal(q.R.Type())
		intDigits = dl.Precision - dl.Scale + dr.Scale
	}
	if r, ok := e.(*ColRef); ok {
		if arg, ok := averaged(r, sc); ok {
			if digits, scale, ok := exactDigits(arg.Type()); ok {
				intDigits = digits - scale // MySQL types AVG DECIMAL(M+4, D+4)
			}
		}
	}
	p := min(intDigits+s, decimal.MaxPrecision)
	if t.IsWide() {
		p = max(p, decimal.NarrowPrecision+1) // the wide ROUND writes a wide value
	} else {
		p = min(p, decimal.NarrowPrecision)
	}
	return &Func{Name: "round", Args: []Expr{e, &Const{T: columnar.TInt64, I: int64(s)}}, T: columnar.TDecimal(max(p, s, 1), s)}, 0
}

// keepWritten marks v, constant c cast to a DECIMAL of more fraction
// digits, with the digits c showed (Const.written).
func keepWritten(c, v *Const) *Const {
	if v.Null || v.T.ID != columnar.Decimal {
		return v
	}
	var shown int
	switch {
	case c.written > 0:
		shown = int(c.written) - 1
	case c.T.ID == columnar.Decimal:
		shown = c.T.Scale
	case c.T.IsInteger() || c.T.ID == columnar.Bool:
		shown = 0
	default:
		return v
	}
	if shown < v.T.Scale {
		v.written = int8(shown + 1)
	}
	return v
}

// textOfQuotient is e, a DECIMAL about to be read as text (CAST AS CHAR,
// CONCAT, LENGTH...), rounded to the scale MySQL prints it with:
// Item_func_numhybrid::val_str rounds a quotient to its decimals, so
// CONCAT(1/3, 'x') is '0.3333x'.
func textOfQuotient(e Expr) Expr {
	var b *binder // reads no binder state without a scope
	if e.Type().ID != columnar.Decimal {
		return e
	}
	r, _ := b.shownDigits(e, nil, true)
	return r
}

// aggregateShown is the Shown of an aggregate's column over scope sc: the
// scale MySQL prints SUM, MIN or MAX of a quotient with, and AVG's (its
// argument's + 4), where the value keeps more digits.
func (b *binder) aggregateShown(ae AggExpr, sc *scope) int8 {
	if ae.Arg == nil || ae.T.ID != columnar.Decimal {
		return 0
	}
	switch ae.Func {
	case AggSum, AggMin, AggMax:
		if ae.T.Scale == ae.Arg.Type().Scale {
			_, shown := b.shownDigits(ae.Arg, sc, false)
			return shown
		}
	case AggAvg:
		if s := min(b.shownScale(ae.Arg, sc)+4, decimal.MaxScale); s < ae.T.Scale {
			return int8(s + 1)
		}
	}
	return 0
}
