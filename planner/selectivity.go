package planner

import (
	"math"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Selectivity rules (System R style, uniform and independent):
//   - col = c: 1/distinct; col <> c: 1 - 1/distinct
//   - ranges on one column are intersected first, then the selectivity is
//     the range's share of [min, max] (so BETWEEN is not counted twice)
//   - CodeSet: the fraction of dictionary entries that match (each entry
//     assumed equally frequent)
//   - IN (k items): k/distinct; IS NULL: the NULL fraction
//   - a OR b: s(a) + s(b) - s(a)s(b), column ranges united
//   - col = col: 1/max(distinct); anything else: 1/4
const defaultSel = 0.25

// applyFilter returns the statistics of in after keeping the rows where cond
// holds.
func applyFilter(in *relStats, cond sql.Expr) *relStats {
	out := in.clone()
	if cond == nil || in.Rows == 0 {
		return out
	}
	sel := 1.0
	type rng struct {
		lo, hi float64
		eq     bool
		empty  bool
	}
	ranges := map[int]*rng{}
	for _, c := range conjuncts(cond) {
		if col, op, v, ok := colConstCmp(c); ok && op != sql.OpNE && col < len(in.Cols) {
			r := ranges[col]
			if r == nil {
				r = &rng{lo: math.Inf(-1), hi: math.Inf(1)}
				ranges[col] = r
			}
			isInt := in.Cols[col].Integral
			switch op {
			case sql.OpEQ:
				if r.eq && r.lo != v {
					r.empty = true
				}
				r.eq = true
				r.lo, r.hi = math.Max(r.lo, v), math.Min(r.hi, v)
			case sql.OpLT:
				if isInt {
					r.hi = math.Min(r.hi, math.Ceil(v)-1)
				} else {
					r.hi = math.Min(r.hi, v)
				}
			case sql.OpLE:
				r.hi = math.Min(r.hi, v)
			case sql.OpGT:
				if isInt {
					r.lo = math.Max(r.lo, math.Floor(v)+1)
				} else {
					r.lo = math.Max(r.lo, v)
				}
			case sql.OpGE:
				r.lo = math.Max(r.lo, v)
			}
			continue
		}
		s := predicateSel(c, in, out)
		sel *= s
	}
	for col, r := range ranges {
		cs := in.Cols[col]
		oc := &out.Cols[col]
		var s float64
		switch {
		case r.empty || r.lo > r.hi:
			s = 0
		case r.eq:
			s = 1 / math.Max(cs.Distinct, 1)
			oc.Distinct = 1
		case cs.HasRange:
			lo, hi := math.Max(r.lo, cs.Min), math.Min(r.hi, cs.Max)
			width := cs.Max - cs.Min
			if cs.Integral {
				width++
				s = (hi - lo + 1) / width
			} else if width > 0 {
				s = (hi - lo) / width
			} else {
				s = 1
			}
			s = math.Max(0, math.Min(1, s))
			oc.Distinct = math.Max(1, cs.Distinct*s)
		default:
			s = 1.0 / 3
			if !math.IsInf(r.lo, -1) && !math.IsInf(r.hi, 1) {
				s = 1.0 / 9
			}
		}
		if cs.HasRange || !math.IsInf(r.lo, -1) && !math.IsInf(r.hi, 1) {
			oc.Min, oc.Max = math.Max(r.lo, cs.Min), math.Min(r.hi, cs.Max)
			if !cs.HasRange {
				oc.Min, oc.Max = r.lo, r.hi
			}
			oc.HasRange = oc.Min <= oc.Max
		}
		oc.NullFrac = 0
		sel *= s
	}
	out.Rows = in.Rows * sel
	if in.Rows >= 1 && out.Rows < 1 {
		out.Rows = 1
	}
	out.capDistinct()
	return out
}

// predicateSel estimates one conjunct that is not a simple range and narrows
// out's column statistics where it can.
func predicateSel(c sql.Expr, in, out *relStats) float64 {
	switch e := c.(type) {
	case *sql.Const:
		if isTrue(e) {
			return 1
		}
		return 0
	case *sql.CodeSet:
		m, first, last := 0, -1, -1
		for code, ok := range e.Match {
			if ok {
				m++
				if first < 0 {
					first = code
				}
				last = code
			}
		}
		if len(e.Match) == 0 {
			return 0
		}
		if i := e.E.Index; i < len(out.Cols) {
			oc := &out.Cols[i]
			oc.Distinct = math.Max(1, math.Min(oc.Distinct, float64(m)))
			if first >= 0 {
				oc.Min, oc.Max, oc.HasRange = math.Max(oc.Min, float64(first)), math.Min(oc.Max, float64(last)), true
				if !in.Cols[i].HasRange {
					oc.Min, oc.Max = float64(first), float64(last)
				}
				oc.Exact = in.Cols[i].Exact || e.E.Col.Dict != nil
			}
			oc.NullFrac = 0
		}
		return float64(m) / float64(len(e.Match))
	case *sql.InList:
		col, ok := e.E.(*sql.ColRef)
		if !ok || col.Index >= len(in.Cols) {
			return defaultSel
		}
		cs := in.Cols[col.Index]
		k := float64(len(e.List))
		s := math.Min(1, k/math.Max(cs.Distinct, 1))
		if e.Negated {
			return 1 - s
		}
		lo, hi, allConst := math.Inf(1), math.Inf(-1), true
		for _, it := range e.List {
			v, ok := constValue(it)
			if !ok {
				allConst = false
				break
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		oc := &out.Cols[col.Index]
		oc.Distinct = math.Max(1, math.Min(oc.Distinct, k))
		if allConst && col.Col.Type.ID != columnar.String {
			if cs.HasRange {
				oc.Min, oc.Max = math.Max(oc.Min, lo), math.Min(oc.Max, hi)
			} else {
				oc.Min, oc.Max = lo, hi
			}
			oc.HasRange = true
		}
		oc.NullFrac = 0
		return s
	case *sql.IsNull:
		col, ok := e.E.(*sql.ColRef)
		f := 0.05
		if ok && col.Index < len(in.Cols) {
			f = in.Cols[col.Index].NullFrac
		}
		if e.Negated {
			return 1 - f
		}
		return math.Max(f, 1/math.Max(in.Rows, 1))
	case *sql.Like:
		if e.Negated {
			return 0.9
		}
		return 0.1
	case *sql.Not:
		return 1 - applyFilter(in, e.E).Rows/math.Max(in.Rows, 1)
	case *sql.Binary:
		switch e.Op {
		case sql.OpAnd:
			r := applyFilter(in, e)
			copy(out.Cols, mergeNarrowed(out.Cols, r.Cols))
			return r.Rows / math.Max(in.Rows, 1)
		case sql.OpOr:
			r1, r2 := applyFilter(in, e.L), applyFilter(in, e.R)
			s1, s2 := r1.Rows/math.Max(in.Rows, 1), r2.Rows/math.Max(in.Rows, 1)
			for i := range out.Cols {
				a, b := r1.Cols[i], r2.Cols[i]
				u := in.Cols[i]
				u.Distinct = math.Min(u.Distinct, a.Distinct+b.Distinct)
				if a.HasRange && b.HasRange {
					u.Min, u.Max, u.HasRange = math.Min(a.Min, b.Min), math.Max(a.Max, b.Max), true
					u.Exact = a.Exact && b.Exact
				}
				out.Cols[i] = mergeNarrowed([]colStat{out.Cols[i]}, []colStat{u})[0]
			}
			return math.Min(1, s1+s2-s1*s2)
		case sql.OpEQ, sql.OpNE:
			l, lok := e.L.(*sql.ColRef)
			r, rok := e.R.(*sql.ColRef)
			if lok && rok && l.Index < len(in.Cols) && r.Index < len(in.Cols) {
				s := 1 / math.Max(math.Max(in.Cols[l.Index].Distinct, in.Cols[r.Index].Distinct), 1)
				if e.Op == sql.OpNE {
					return 1 - s
				}
				return s
			}
			if col, _, _, ok := colConstCmp(e); ok && e.Op == sql.OpNE {
				return 1 - 1/math.Max(in.Cols[col].Distinct, 1)
			}
		}
	case *sql.ColRef:
		return 0.5
	}
	return defaultSel
}

// mergeNarrowed keeps, per column, the narrower of two statistics.
func mergeNarrowed(a, b []colStat) []colStat {
	out := make([]colStat, len(a))
	for i := range a {
		x, y := a[i], b[i]
		o := x
		o.Distinct = math.Min(x.Distinct, y.Distinct)
		switch {
		case x.HasRange && y.HasRange:
			o.Min, o.Max = math.Max(x.Min, y.Min), math.Min(x.Max, y.Max)
			o.Exact = x.Exact || y.Exact
		case y.HasRange:
			o.Min, o.Max, o.HasRange, o.Exact = y.Min, y.Max, true, y.Exact
		}
		o.NullFrac = math.Min(x.NullFrac, y.NullFrac)
		out[i] = o
	}
	return out
}

// colConstCmp recognizes col op constant (either order, through a widening
// cast of the column) and returns the constant in the column's domain.
func colConstCmp(e sql.Expr) (col int, op sql.BinOp, v float64, ok bool) {
	b, isBin := e.(*sql.Binary)
	if !isBin || b.Op < sql.OpEQ || b.Op > sql.OpGE {
		return 0, 0, 0, false
	}
	l, r, op := b.L, b.R, b.Op
	if _, isConst := l.(*sql.Const); isConst {
		l, r = r, l
		op = op.Flip()
	}
	c, isConst := r.(*sql.Const)
	if !isConst || c.Null || c.T.ID == columnar.String {
		return 0, 0, 0, false
	}
	v, _ = constValue(c)
	switch x := l.(type) {
	case *sql.ColRef:
		if x.Col.Type.ID == columnar.String {
			return 0, 0, 0, false
		}
		return x.Index, op, v, true
	case *sql.Cast:
		cr, isCol := x.E.(*sql.ColRef)
		if !isCol {
			return 0, 0, 0, false
		}
		from, to := cr.Col.Type, x.T
		if !from.IsNumeric() || !to.IsNumeric() {
			return 0, 0, 0, false
		}
		// Bring v from the cast's domain back to the column's.
		switch {
		case to.ID == columnar.Float64 && from.ID == columnar.Decimal:
			v *= math.Pow10(from.Scale)
		case to.ID == columnar.Float64:
		case to.ID == columnar.Decimal:
			v /= math.Pow10(to.Scale - from.DecimalScale())
		case to.IsInteger() && from.IsInteger():
		default:
			return 0, 0, 0, false
		}
		return cr.Index, op, v, true
	}
	return 0, 0, 0, false
}

// constValue is a non-NULL numeric literal's value in its physical domain.
func constValue(e sql.Expr) (float64, bool) {
	c, ok := e.(*sql.Const)
	if !ok || c.Null || c.T.ID == columnar.String {
		return 0, false
	}
	if c.T.Physical() == columnar.PhysFloat64 {
		return c.F, true
	}
	return float64(c.I), true
}
