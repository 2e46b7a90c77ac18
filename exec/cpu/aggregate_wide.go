package cpu

import (
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Aggregates over wide DECIMALs, and SUM/AVG whose result is wide (SUM of
// BIGINT UNSIGNED): totals are 256-bit, which no realistic row count
// overflows (65-digit values leave 10 more digits of headroom before 2^255);
// the result is checked against 65 digits.

// wideSumAcc is SUM or AVG in the wide domain.
type wideSumAcc struct {
	avg     bool
	argT, t columnar.Type
	s       []decimal.Num
	n       []int64 // values summed per group
	expr    sql.AggExpr
}

func (a *wideSumAcc) grow(n int) {
	a.s = growTo(a.s, n)
	a.n = growTo(a.n, n)
}

func (a *wideSumAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		a.s[g] = decimal.Add(a.s[g], wideAt(v, a.argT, p))
		a.n[g]++
	}
}

func (a *wideSumAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*wideSumAcc)
	for g := 0; g < n; g++ {
		t := mapGroup(m, g)
		a.s[t] = decimal.Add(a.s[t], b.s[g])
		a.n[t] += b.n[g]
	}
}

func (a *wideSumAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(a.t, len(groups), true)
	from := a.argT.DecimalScale()
	for i, g := range groups {
		if a.n[g] == 0 {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		v, ok := a.s[g], true
		if a.avg {
			if ts := a.t.DecimalScale(); ts == sql.DivisionScale(from, 0) {
				v, ok = decimal.DivTrunc(v, decimal.FromInt64(a.n[g]), from, 0, ts) // as MySQL cuts it
			} else {
				v, ok = decimal.Div(v, decimal.FromInt64(a.n[g]), from, 0, ts)
			}
		} else {
			v, ok = decimal.Rescale(v, from, a.t.DecimalScale())
		}
		if ok && a.t.ID == columnar.Float64 {
			col.F64[i] = decimal.Float64(v, a.t.DecimalScale())
			continue
		}
		if !ok || !a.put(col, i, v) {
			raise(outOfRange("DECIMAL", a.expr))
		}
	}
	return dropValidity(col)
}

// put stores v (at the result's scale) in row i; false when it does not
// fit the result type.
func (a *wideSumAcc) put(col *columnar.Column, i int, v decimal.Num) bool {
	if col.W != nil {
		col.W[i] = v
		return decimal.Fits(v, decimal.MaxPrecision)
	}
	x, ok := decimal.Int64(v)
	putColInt(col, i, x)
	return ok
}

// wideMinMaxAcc is MIN or MAX of a wide DECIMAL.
type wideMinMaxAcc struct {
	max bool
	t   columnar.Type
	v   []decimal.Num
	has []bool
}

func (a *wideMinMaxAcc) grow(n int) {
	a.v = growTo(a.v, n)
	a.has = growTo(a.has, n)
}

func (a *wideMinMaxAcc) put(g int, x decimal.Num) {
	if !a.has[g] {
		a.v[g], a.has[g] = x, true
		return
	}
	if c := decimal.Cmp(x, a.v[g]); a.max && c > 0 || !a.max && c < 0 {
		a.v[g] = x
	}
}

func (a *wideMinMaxAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		a.put(g, v.w[p])
	}
}

func (a *wideMinMaxAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*wideMinMaxAcc)
	for g, h := range b.has[:n] {
		if h {
			a.put(mapGroup(m, g), b.v[g])
		}
	}
}

func (a *wideMinMaxAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(a.t, len(groups), true)
	for i, g := range groups {
		if !a.has[g] {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		col.W[i] = a.v[g]
	}
	return dropValidity(col)
}

// newWideAccumulator returns the wide accumulator for a, or nil when a
// does not aggregate in the wide domain.
func newWideAccumulator(a sql.AggExpr, argT columnar.Type) accumulator {
	switch a.Func {
	case sql.AggSum, sql.AggAvg:
		if (argT.IsWide() || a.T.IsWide()) && isWideOperand(argT) {
			return &wideSumAcc{avg: a.Func == sql.AggAvg, argT: argT, t: a.T, expr: a}
		}
	case sql.AggMin, sql.AggMax:
		if argT.IsWide() {
			return &wideMinMaxAcc{max: a.Func == sql.AggMax, t: argT}
		}
	}
	return nil
}
