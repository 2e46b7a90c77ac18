package qgen

import "strconv"

// Statements MySQL 8.0 refuses, which SQLite runs: only the error is
// compared (Node.WantErr on the statement; SQLite does not run it).
//
//	x IN (SELECT ... LIMIT n), and under NOT IN, = ANY, < ALL:
//	  1235 This version of MySQL doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'
//	SELECT DISTINCT a ... ORDER BY b, b not selected:
//	  3065 Expression #1 of ORDER BY clause is not in SELECT list, ...
//	  this is incompatible with DISTINCT
//
// Half the time inLimit writes MySQL's workaround instead, the LIMIT in a
// derived table inside the IN (ordered by its only column, so the same
// rows in both), which both run and which is compared as usual.

const (
	errLimitIn       = "doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'"
	errDistinctOrder = "this is incompatible with DISTINCT"
)

// refused is one of those statements, or the workaround.
func (g *Gen) refused(ctes *[]*cte) sel {
	if g.pct(50) {
		return g.inLimit()
	}
	return g.distinctOrder()
}

// inLimit is SELECT ... FROM base WHERE x [NOT] IN (SELECT y FROM base
// [GROUP BY y] ORDER BY 1 LIMIT n), or x op ANY / ALL (...) refused;
// or the IN over SELECT x0 FROM (that subquery) AS d, compared.
func (g *Gen) inLimit() sel {
	from, cols, rows := g.baseTable(false)
	sub, inner, irows := g.baseTable(true)
	ints, iints := colsOf(cols, TInt), colsOf(inner, TInt)
	if len(ints) == 0 || len(iints) == 0 {
		return g.distinctOrder()
	}
	x, y := ints[g.r.Intn(len(ints))], iints[g.r.Intn(len(iints))]
	groupBy := ""
	if g.pct(40) {
		groupBy = " GROUP BY " + y.ref
	}
	where := mk(TNone, " WHERE @", g.pred(&scope{cols: inner, rows: irows}, 2)).optional()
	limit := " ORDER BY 1" + g.pick("", " DESC") + " LIMIT " + strconv.Itoa(g.r.Intn(4))
	body := mk(TNone, "SELECT "+y.ref+" AS x0 FROM @@"+groupBy+limit, sub, where)
	sc := &scope{cols: cols, rows: rows}
	items := []*Node{colNode(x), g.typed(sc, g.pickType(sc), 1)}
	s := itemsSel(items, rows)
	if g.pct(50) {
		in := mk(TBool, x.ref+" "+g.pick("", "NOT ")+"IN (SELECT d.x0 FROM (@) AS d)", body)
		s.node = mk(TNone, "SELECT @ FROM @ WHERE @", selectList(items, false), from, in.frozen())
		return s
	}
	op := g.pick("IN", "NOT IN", "= ANY", "< ALL", "<> SOME", ">= ALL")
	in := mk(TBool, x.ref+" "+op+" (@)", body)
	s.node = mk(TNone, "SELECT @ FROM @ WHERE @", selectList(items, false), from, in.frozen())
	s.node.WantErr = errLimitIn
	return s
}

// distinctOrder is SELECT DISTINCT of some columns ORDER BY a column of
// the FROM not among them (alone or in an expression), refused.
func (g *Gen) distinctOrder() sel {
	from, cols, rows := g.baseTable(false)
	perm := g.r.Perm(len(cols))
	shown, hidden := cols[perm[0]], cols[perm[1]]
	items := []*Node{colNode(shown)}
	s := itemsSel(items, rows)
	key := hidden.ref
	if hidden.typ == TInt && g.pct(40) {
		key = shown.ref + " + " + hidden.ref
		if shown.typ != TInt {
			key = "ABS(" + hidden.ref + ")"
		}
	}
	s.node = mk(TNone, "SELECT DISTINCT @ FROM @ ORDER BY "+key+g.pick("", " DESC"), selectList(items, false), from)
	s.node.WantErr = errDistinctOrder
	return s
}
