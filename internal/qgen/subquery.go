package qgen

import "fmt"

// Subqueries read one base table under a fresh alias; their WHERE may name
// the outer query's columns (correlation). Aggregates inside a subquery
// read only its own columns: an aggregate of outer columns alone belongs
// to the outer query in standard SQL, a rule best left untested here.

// baseTable is a random table under a fresh alias and its columns; in a
// subquery over big data not t1.
func (g *Gen) baseTable(sub bool) (*Node, []column, int64) {
	t := tables[g.r.Intn(len(tables))]
	for sub && g.big && t.name == "t1" {
		t = tables[g.r.Intn(len(tables))]
	}
	a := g.alias()
	var cols []column
	for _, c := range t.cols {
		cols = append(cols, column{ref: a + "." + c.name, typ: c.typ, bound: g.valueBound})
	}
	rows := int64(t.maxRows)
	if g.big && t.name == "t1" {
		rows = 3 * bigRows
	}
	return txt(t.name + " AS " + a), cols, rows
}

// subFrom is a subquery's FROM: a base table, or now and then two joined
// by an equality (INNER or LEFT), whose columns the subquery reads alike;
// a correlated subquery over a join is decorrelated whole.
func (g *Gen) subFrom() (*Node, []column, int64) {
	from, cols, rows := g.baseTable(true)
	if g.ctes != nil && len(*g.ctes) > 0 && !g.inCTE && !g.big && g.pct(15) {
		// A WITH query of the statement (not inside one: it may read
		// only those before it).
		q := (*g.ctes)[g.r.Intn(len(*g.ctes))]
		a := g.alias()
		from, cols, rows = txt(q.name+" AS "+a), outputCols(a, q.body), q.body.rows
	}
	if g.big || !g.pct(20) {
		return from, cols, rows
	}
	right, rcols, rrows := g.baseTable(true)
	eq := g.joinEquality(cols, rcols)
	if eq == nil {
		return from, cols, rows
	}
	join := mk(TNone, "@ "+g.pick("JOIN", "LEFT JOIN")+" @ ON @", from, right, eq)
	return join, append(cols, rcols...), rows * max(rrows, 1)
}

// innerWhere is a subquery's optional WHERE, often tied to the outer row
// by an equality.
func (g *Gen) innerWhere(inner []column, outer *scope, d int) *Node {
	sc := &scope{cols: append(append([]column{}, inner...), outer.visible()...), subq: d < 1, rows: outer.rows}
	p := g.pred(sc, d+2)
	ic, oc := colsOf(inner, TInt), colsOf(outer.visible(), TInt)
	if len(ic) > 0 && len(oc) > 0 && g.pct(65) {
		corr := cmp(mk(TBool, "@ = @", colNode(ic[g.r.Intn(len(ic))]), colNode(oc[g.r.Intn(len(oc))])))
		if g.pct(50) {
			p = corr
		} else {
			p = and(corr, p)
		}
	}
	return mk(TNone, " WHERE @", p).optional()
}

// scalarSubquery returns at most one row by construction: an aggregate
// without GROUP BY, or ORDER BY its only column with LIMIT 1 (MySQL
// refuses a scalar subquery of several rows where SQLite takes the
// first). The select item is pinned so shrinking cannot break that.
func (g *Gen) scalarSubquery(sc *scope, t Type, d int) *Node {
	from, inner, rows := g.subFrom()
	where := g.innerWhere(inner, sc, d)
	var n *Node
	if g.pct(70) {
		item := g.aggregate(&scope{cols: inner, agg: true, rows: rows}, t, d+1)
		item.Pinned = true
		n = mk(t, "(SELECT @ FROM @@)", item, from, where)
	} else {
		item := g.typed(&scope{cols: inner, rows: rows}, t, d+2)
		limit := g.pick(" LIMIT 1", " LIMIT 1", " LIMIT 1 OFFSET 1", " LIMIT 2, 1")
		n = mk(t, "(SELECT @ FROM @@ ORDER BY 1"+g.pick("", " DESC")+limit+")", item, from, where)
	}
	n.Bound = n.Kids[0].Bound
	// SQLite reads x IN ((SELECT ...)), a list of one scalar subquery in
	// MySQL, as x IN (SELECT ...); its unary +, a no-op on any value,
	// keeps the subquery a list item there.
	n.Lite = append([]string{"+" + n.Parts[0]}, n.Parts[1:]...)
	return n.frozen()
}

// existsSubquery is [NOT] EXISTS of a subquery, now and then one whose
// rows are not its FROM's rows filtered: an aggregate without GROUP BY
// (always one row), GROUP BY with HAVING, or a LIMIT with an OFFSET (MySQL
// takes a LIMIT in EXISTS, not in IN).
func (g *Gen) existsSubquery(sc *scope, d int) *Node {
	from, inner, rows := g.subFrom()
	isc := &scope{cols: inner, rows: rows}
	item := g.intExpr(isc, maxDepth)
	tail := txt("")
	switch c := g.r.Intn(100); {
	case c < 10:
		item = g.aggregate(&scope{cols: inner, agg: true, rows: rows}, TInt, 2)
	case c < 20:
		key := inner[g.r.Intn(len(inner))]
		asc := &scope{cols: inner, agg: true, keys: []column{key}, rows: rows}
		item = colNode(key)
		tail = mk(TNone, " GROUP BY "+key.ref+" HAVING @", g.pred(asc, 2))
	case c < 28:
		tail = txt(fmt.Sprintf(" LIMIT %d OFFSET %d", g.r.Intn(3), g.r.Intn(3)))
	}
	return mk(TBool, g.pick("", "NOT ")+"EXISTS (SELECT @ FROM @@@)", item, from, g.innerWhere(inner, sc, d), tail).frozen()
}

// subItem is a one-column subquery's FROM, its column's type and select
// item, an optional DISTINCT and GROUP BY (the item then one aggregate
// value per group of another column, groupPct percent of the time).
type subItem struct {
	from                    *Node
	inner                   []column
	rows                    int64
	t                       Type
	item, distinct, groupBy *Node
}

func (g *Gen) subItem(d, groupPct int) subItem {
	s := subItem{t: TInt}
	s.from, s.inner, s.rows = g.subFrom()
	if len(colsOf(s.inner, TStr)) > 0 && g.pct(25) {
		s.t = TStr
	}
	s.item = g.typed(&scope{cols: s.inner, rows: s.rows}, s.t, d+2)
	s.distinct = txt("DISTINCT ").optional()
	if g.pct(70) {
		s.distinct.dropped = true
	}
	s.groupBy = txt("")
	if g.pct(groupPct) {
		key := s.inner[g.r.Intn(len(s.inner))]
		s.item = g.aggregate(&scope{cols: s.inner, agg: true, keys: []column{key}, rows: s.rows}, s.t, d+2)
		s.groupBy = txt(" GROUP BY " + key.ref)
	}
	return s
}

// inSubquery is x [NOT] IN (SELECT ...). A LIMIT is left out: MySQL has
// none in IN subqueries.
func (g *Gen) inSubquery(sc *scope, d int) *Node {
	s := g.subItem(d, 25)
	from, inner, t, item, distinct, groupBy := s.from, s.inner, s.t, s.item, s.distinct, s.groupBy
	union := txt("")
	if g.pct(15) {
		from2, inner2, rows2 := g.baseTable(true)
		union = mk(TNone, g.pick(" UNION", " UNION ALL", " EXCEPT", " INTERSECT")+" SELECT @ FROM @",
			g.typed(&scope{cols: inner2, rows: rows2}, t, d+2), from2).optional()
	}
	return cmp(mk(TBool, "@ "+g.pick("", "NOT ")+"IN (SELECT @@ FROM @@@@)", g.unsignedOr(sc, t, d+1), distinct, item, from,
		g.innerWhere(inner, sc, d), groupBy, union)).frozen()
}
