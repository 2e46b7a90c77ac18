package qgen

// unionDerived aggregates over a derived table that is a set operation
// with its own ORDER BY of every column and a LIMIT (the same rows in
// both), or joins it to a base table: SELECT COUNT(*), SUM(d.x0), ...
// FROM (SELECT ... UNION SELECT ... ORDER BY 1 DESC LIMIT 3) AS d.
func (g *Gen) unionDerived(ctes *[]*cte) sel {
	types := []Type{TInt}
	if g.pct(40) {
		types = append(types, []Type{TInt, TStr}[g.r.Intn(2)])
	}
	body := g.setOpOf(1, types, ctes, true)
	order := g.orderBy(len(types), false, nil)
	a := g.alias()
	from := mk(TNone, "(@@) AS "+a, body.node, order)
	cols := outputCols(a, body)
	rows := body.rows
	if g.pct(30) {
		right, rcols, rrows := g.baseTable(false)
		if eq := g.joinEquality(cols, rcols); eq != nil {
			from = mk(TNone, "@ "+g.pick("JOIN", "LEFT JOIN")+" @ ON @", from, right, eq)
			cols, rows = append(cols, rcols...), rows*max(rrows, 1)
		}
	}
	asc := &scope{cols: cols, agg: true, rows: rows}
	groupBy := ""
	var items []*Node
	if g.pct(40) {
		asc.keys = []column{cols[0]}
		groupBy = " GROUP BY " + cols[0].ref
		items = append(items, colNode(cols[0]))
	}
	cnt := mk(TInt, "COUNT(*)")
	cnt.Bound = rows
	items = append(items, cnt)
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		items = append(items, g.aggregate(asc, []Type{TInt, TInt, TStr}[g.r.Intn(3)], 1))
	}
	s := itemsSel(items, rows)
	s.node = mk(TNone, "SELECT @ FROM @"+groupBy, selectList(items, false), from)
	return s
}
