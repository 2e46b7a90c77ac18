package qgen

// leftAgg is SELECT l.key, aggregates of the right side (COALESCEd now
// and then) FROM base l LEFT JOIN base r ON equality [AND p] GROUP BY
// l.key: a left row without a match is one group row of NULLs on the
// right, which COUNT(r.x) counts as 0 and SUM leaves NULL, while COUNT(*)
// counts it as 1. A HAVING on a right-side aggregate may follow.
func (g *Gen) leftAgg(ctes *[]*cte) sel {
	left, lcols, lrows := g.baseTable(false)
	right, rcols, rrows := g.baseTable(true)
	eq := g.joinEquality(lcols, rcols)
	if eq == nil {
		return g.pivot(ctes)
	}
	rows := lrows * max(rrows, 1)
	both := &scope{cols: append(append([]column{}, lcols...), rcols...), rows: rows}
	on := eq
	if g.pct(30) {
		on = and(eq, g.pred(both, 2))
	}
	key := lcols[g.r.Intn(len(lcols))]
	asc := &scope{cols: both.cols, agg: true, rows: rows, keys: []column{key}}
	ronly := &scope{cols: rcols, rows: rows}
	items := []*Node{colNode(key)}
	for k := 1 + g.r.Intn(3); k > 0; k-- {
		items = append(items, g.rightAgg(asc, ronly))
	}
	s := itemsSel(items, rows)
	having := txt("")
	if g.pct(30) {
		having = mk(TNone, " HAVING @", g.pred(havingScope(asc), 2)).optional()
	}
	where := txt("")
	if g.pct(40) {
		where = mk(TNone, " WHERE @", g.pred(&scope{cols: lcols, rows: lrows}, 2)).optional()
	}
	s.node = mk(TNone, "SELECT @ FROM @ LEFT JOIN @ ON @@ GROUP BY "+key.ref+"@",
		selectList(items, false), left, right, on, where, having)
	return s
}

// rightAgg is an aggregate of the right side's columns, maybe under
// COALESCE (0 for a count or sum, a pool value otherwise), or COUNT(*).
func (g *Gen) rightAgg(asc, ronly *scope) *Node {
	switch g.r.Intn(5) {
	case 0:
		n := mk(TInt, "COUNT(*)")
		n.Bound = asc.rows
		return n
	case 1:
		n := mk(TInt, "COUNT(@)", g.typed(ronly, g.pickType(ronly), 2))
		n.Bound = asc.rows
		return n.frozen()
	}
	t := g.pickType(ronly)
	if t == TReal || t == TDec {
		t = TInt
	}
	agg := g.aggregate(&scope{cols: ronly.cols, agg: true, rows: asc.rows}, t, 1)
	if !g.pct(60) {
		return agg
	}
	def := map[Type]*Node{TInt: intLit(0), TStr: lit(TStr, "'none'"), TDate: lit(TDate, "'1970-01-01'")}[t]
	n := mk(t, "COALESCE(@, @)", agg, def)
	n.Bound = max(agg.Bound, 1)
	return n
}
