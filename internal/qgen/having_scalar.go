package qgen

// havingScalar is a grouped SELECT whose HAVING compares an aggregate with
// a scalar subquery, correlated now and then to the group by its key
// (scalarSubquery's innerWhere reads the keys): MySQL evaluates it once a
// group, after grouping.
func (g *Gen) havingScalar(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	asc := &scope{cols: cols, agg: true, rows: rows, subq: true}
	key := cols[g.r.Intn(len(cols))]
	if key.typ == TInt && g.pct(30) {
		key = g.keyExpr(key)
	}
	asc.keys = []column{key}
	cnt := mk(TInt, "COUNT(*)")
	cnt.Bound = rows
	items := []*Node{colNode(key), cnt}
	if g.pct(50) {
		items = append(items, g.aggregate(asc, TInt, 1))
	}
	s := itemsSel(items, rows)
	var lhs *Node
	if g.pct(50) {
		lhs = mk(TInt, "COUNT(*)")
		lhs.Bound = rows
	} else {
		lhs = g.aggregate(asc, TInt, 1)
	}
	op := g.pick("=", "<", ">", "<=", ">=", "<>")
	sub := g.scalarSubquery(asc, TInt, 1)
	var cond *Node
	if g.pct(30) {
		cond = cmp(mk(TBool, "@ "+op+" COALESCE(@, 0)", lhs, sub))
	} else {
		cond = cmp(mk(TBool, "@ "+op+" @", lhs, sub))
	}
	if g.pct(25) {
		cond = mk(TBool, "@ OR @", cond, g.pred(havingScope(asc), 2))
		cond.Prec = precOr
	}
	sc := &scope{cols: cols, rows: rows}
	s.node = mk(TNone, "SELECT @ FROM @@ GROUP BY "+key.ref+" HAVING @",
		selectList(items, false), from, g.where(sc, conds), cond)
	return s
}
