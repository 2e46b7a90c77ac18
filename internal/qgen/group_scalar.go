package qgen

// groupScalar is SELECT keys, aggregates, correlated scalar subqueries
// FROM ... GROUP BY keys: each subquery reads a base table tied to the
// group by its key (i.a = k, i.b > k), so it runs once a group and may
// find no row (a NULL, COALESCEd now and then), and may meet the group's
// aggregates in one expression. Outer aggregates stay out of the
// subquery (standard SQL gives them to the outer query; see subquery.go).
func (g *Gen) groupScalar(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	asc := &scope{cols: cols, agg: true, rows: rows, subq: true}
	var refs []string
	asc.keys, refs = g.groupKeys(cols, g.r.Perm(len(cols))[:min(len(cols), 1+g.r.Intn(2))], 30)
	var items []*Node
	for _, k := range asc.keys {
		if g.pct(70) {
			items = append(items, colNode(k))
		}
	}
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		sub := g.scalarSubquery(asc, TInt, 1)
		switch c := g.r.Intn(4); {
		case c == 0:
			sub = mk(TInt, "COALESCE(@, -1)", sub)
			sub.Bound = max(sub.Kids[0].Bound, 1)
		case c == 1:
			agg := mk(TInt, "COUNT(*)")
			agg.Bound = rows
			b := sub.Bound
			sub = mk(TInt, "@ + @", sub, agg)
			sub.Bound, sub.Prec = satAdd(b, rows), precAdd
		}
		items = append(items, sub)
	}
	if g.pct(50) {
		items = append(items, g.aggregate(asc, TInt, 1))
	}
	s := itemsSel(items, rows)
	having := txt("")
	if g.pct(30) {
		having = mk(TNone, " HAVING @", g.pred(havingScope(asc), 2)).optional()
	}
	sc := &scope{cols: cols, rows: rows, subq: true}
	s.node = mk(TNone, "SELECT @ FROM @@ GROUP BY "+joinList(refs)+"@", selectList(items, false), from, g.where(sc, conds), having)
	return s
}

func joinList(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
