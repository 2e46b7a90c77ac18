package qgen

// pivot is conditional aggregation, the pivot idiom: SELECT key,
// SUM(CASE WHEN p THEN x ELSE 0 END), COUNT(CASE WHEN p THEN 1 END),
// COUNT(DISTINCT expression) next to plain aggregates, GROUP BY key (or
// over the whole input). A CASE without ELSE is NULL where p fails, which
// COUNT skips and SUM of none leaves NULL.
func (g *Gen) pivot(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	asc := &scope{cols: cols, agg: true, rows: rows}
	arg := &scope{cols: cols, rows: rows}
	var refs []string
	var items []*Node
	if g.pct(80) {
		key := cols[g.r.Intn(len(cols))]
		if key.typ == TInt && g.pct(30) {
			key = g.keyExpr(key)
		}
		asc.keys = append(asc.keys, key)
		refs = append(refs, key.ref)
		items = append(items, colNode(key))
	}
	for k := 2 + g.r.Intn(3); k > 0; k-- {
		items = append(items, g.conditionalAgg(asc, arg))
	}
	s := itemsSel(items, rows)
	groupBy := ""
	if len(refs) > 0 {
		groupBy = " GROUP BY " + joinList(refs)
	}
	having := txt("")
	if g.pct(25) {
		having = mk(TNone, " HAVING @", g.pred(havingScope(asc), 2)).optional()
	}
	sc := &scope{cols: cols, rows: rows}
	s.node = mk(TNone, "SELECT @ FROM @@"+groupBy+"@", selectList(items, false), from, g.where(sc, conds), having)
	return s
}

// conditionalAgg is one aggregate of a pivot's select list.
func (g *Gen) conditionalAgg(asc, arg *scope) *Node {
	var n *Node
	switch g.r.Intn(6) {
	case 0:
		x := g.intExpr(arg, 2)
		n = mk(TInt, "SUM(CASE WHEN @ THEN @ ELSE 0 END)", g.pred(arg, 2), x)
		n.Bound = satMul(asc.rows, x.Bound)
	case 1:
		x := g.intExpr(arg, 2)
		n = mk(TInt, "SUM(CASE WHEN @ THEN @ END)", g.pred(arg, 2), x)
		n.Bound = satMul(asc.rows, x.Bound)
	case 2:
		n = mk(TInt, "COUNT(CASE WHEN @ THEN "+g.pick("1", "NULL", "'x'")+" END)", g.pred(arg, 2))
		n.Bound = asc.rows
	case 3:
		n = mk(TInt, "COUNT(DISTINCT @)", g.typed(arg, g.pickType(arg), 2))
		n.Bound = asc.rows
	case 4:
		t := []Type{TInt, TStr, TDate}[g.r.Intn(3)]
		n = mk(t, g.pick("MIN", "MAX")+"(CASE WHEN @ THEN @ END)", g.pred(arg, 2), g.typed(arg, t, 2))
		n.Bound = n.Kids[1].Bound
	default:
		return g.aggregate(asc, TInt, 1)
	}
	if n.Bound > g.sumBound {
		n = mk(TInt, "COUNT(*)")
		n.Bound = asc.rows
	}
	return n.frozen()
}
