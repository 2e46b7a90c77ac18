package qgen

import (
	"fmt"
	"strconv"
)

// Derived tables with a quotient column, which the query reading them
// prints, multiplies by a small integer or adds a DECIMAL to. MySQL merges
// a plain derived table into the query reading it, so its quotient keeps
// the 9 digits MySQL's division cut it to (an integer's quotient: SQLite
// computes the same cut digits in integers, division.go); it materializes
// one with GROUP BY, DISTINCT or LIMIT into a temporary table whose column
// has the printed scale, the value rounded to it (SQLite's side rounds the
// column in the derived table, nudged off binary halves:
// sql/materialized_derived.go says which derived tables MySQL
// materializes). Its column is a TReal of that scale (Op real4, real6).

// quotientDerived is such a derived table under a fresh alias: its
// columns x0 (an integer key) and x1 (the quotient).
func (g *Gen) quotientDerived() (*Node, []column, int64) {
	t := tables[1+g.r.Intn(len(tables)-1)] // not t1: it may be big
	ints, decs := colsOfTable(t, TInt), colsOfTable(t, TDec)
	key, num := ints[g.r.Intn(len(ints))], ints[g.r.Intn(len(ints))]
	scale := 4
	if len(decs) > 0 && g.pct(35) {
		num, scale = decs[0], 6
	}
	n := strconv.Itoa([]int{1, 2, 3, 6, 7, 9, -3, -7}[g.r.Intn(8)])
	rounded := func(x string) string {
		return fmt.Sprintf("ROUND((%s) + 1e-11 * SIGN(%s), %d)", x, x, scale)
	}
	var my, lite string
	switch c := g.r.Intn(4); {
	case c == 0:
		my = fmt.Sprintf("SELECT qa.%s AS x0, AVG(qa.%s) AS x1 FROM %s AS qa GROUP BY qa.%s", key, num, t.name, key)
		lite = fmt.Sprintf("SELECT qa.%s AS x0, %s AS x1 FROM %s AS qa GROUP BY qa.%s", key, rounded("AVG(qa."+num+")"), t.name, key)
	case c == 1:
		q := fmt.Sprintf("qa.%s / %s", num, n)
		my = fmt.Sprintf("SELECT DISTINCT qa.%s AS x0, %s AS x1 FROM %s AS qa", key, q, t.name)
		lite = fmt.Sprintf("SELECT DISTINCT qa.%s AS x0, %s AS x1 FROM %s AS qa", key, rounded("CAST(qa."+num+" AS REAL) / "+n), t.name)
	case c == 2:
		q := fmt.Sprintf("qa.%s / %s", num, n)
		my = fmt.Sprintf("SELECT qa.%s AS x0, %s AS x1 FROM %s AS qa LIMIT 100", key, q, t.name)
		lite = fmt.Sprintf("SELECT qa.%s AS x0, %s AS x1 FROM %s AS qa LIMIT 100", key, rounded("CAST(qa."+num+" AS REAL) / "+n), t.name)
	default:
		// Merged: the cut digits, of an integer's quotient only.
		num, scale = ints[g.r.Intn(len(ints))], 4
		my = fmt.Sprintf("SELECT qa.%s AS x0, qa.%s / %s AS x1 FROM %s AS qa", key, num, n, t.name)
		lite = fmt.Sprintf("SELECT qa.%s AS x0, ((qa.%s) * 1000000000 / (%s) * 1.0 / 1000000000) AS x1 FROM %s AS qa", key, num, n, t.name)
	}
	a := g.alias()
	from := txt("(" + my + ") AS " + a)
	from.Lite = []string{"(" + lite + ") AS " + a}
	cols := []column{{ref: a + ".x0", typ: TInt, bound: g.valueBound}, {ref: a + ".x1", typ: TReal, scale: scale}}
	return from, cols, int64(t.maxRows)
}

func colsOfTable(t table, typ Type) []string {
	var out []string
	for _, c := range t.cols {
		if c.typ == typ {
			out = append(out, c.name)
		}
	}
	return out
}

// takeReals splits the TReal columns (quotientDerived's) off cols: they are
// read by realExpr only, never grouped, ordered, compared or joined on.
func takeReals(cols []column) (rest, reals []column) {
	for _, c := range cols {
		if c.typ == TReal {
			reals = append(reals, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest, reals
}

// realColumn is a TReal over a quotient column: itself, times a small
// integer, plus a DECIMAL, or negated.
func (g *Gen) realColumn(sc *scope, d int) *Node {
	c := sc.reals[g.r.Intn(len(sc.reals))]
	x := mk(TReal, c.ref)
	x.Op = "real" + strconv.Itoa(c.scale)
	var n *Node
	switch g.r.Intn(4) {
	case 0:
		return x
	case 1:
		n = mk(TReal, "@ * @", x, intLit(int64(g.r.Intn(2*divisionFactor+1)-divisionFactor)))
		n.Prec, n.Op = precMul, "mul"
	case 2:
		n = mk(TReal, "@ "+g.pick("+", "-")+" @", x, g.decExpr(sc, d+1))
		n.Prec, n.Op = precAdd, "add"
	default:
		n = mk(TReal, "- @", x)
		n.Prec, n.Op = precUnary, "same"
	}
	return n
}
