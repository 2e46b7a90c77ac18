package qgen

import "strconv"

// cteTwice reads one grouped WITH query twice, joined to itself: WITH c
// AS (SELECT key AS x0, COUNT(*) AS x1, aggregate AS x2 FROM ... GROUP BY
// key) SELECT ... FROM c AS l JOIN c AS r ON l.x0 <op> r.x0, then
// aggregated over the pairs or not. An engine that materializes c once
// must hand both readers all of its rows.
func (g *Gen) cteTwice(ctes *[]*cte) sel {
	before := append([]*cte{}, (*ctes)...)
	g.inCTE = true
	body := g.cteTwiceBody(&before)
	g.inCTE = false
	q := &cte{name: "w" + strconv.Itoa(len(*ctes)+1), body: body}
	*ctes = append(*ctes, q)
	l, r := g.alias(), g.alias()
	lcols, rcols := outputCols(l, body), outputCols(r, body)
	join := g.pick("JOIN", "LEFT JOIN", "JOIN")
	op := g.pick("=", "<", "<>", "<=")
	on := cmp(mk(TBool, "@ "+op+" @", colNode(lcols[0]), colNode(rcols[0])))
	from := mk(TNone, q.name+" AS "+l+" "+join+" "+q.name+" AS "+r+" ON @", on)
	cols := append(append([]column{}, lcols...), rcols...)
	rows := body.rows * max(body.rows, 1)
	if g.pct(40) {
		asc := &scope{cols: cols, agg: true, rows: rows, keys: []column{lcols[0]}}
		cnt := mk(TInt, "COUNT(*)")
		cnt.Bound = rows
		items := []*Node{colNode(lcols[0]), cnt, g.aggregate(asc, TInt, 1)}
		s := itemsSel(items, rows)
		s.node = mk(TNone, "SELECT @ FROM @ GROUP BY "+lcols[0].ref, selectList(items, false), from)
		return s
	}
	sc := &scope{cols: cols, rows: rows}
	var items []*Node
	for k := 2 + g.r.Intn(2); k > 0; k-- {
		items = append(items, g.typed(sc, g.pickType(sc), 1))
	}
	s := itemsSel(items, rows)
	s.node = mk(TNone, "SELECT @@ FROM @@", g.distinct(), selectList(items, false), from, g.where(sc, nil))
	return s
}

// cteTwiceBody is SELECT key AS x0, COUNT(*) AS x1, an integer aggregate
// AS x2 FROM ... GROUP BY key: one row a key.
func (g *Gen) cteTwiceBody(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(1, ctes)
	key := cols[g.r.Intn(len(cols))]
	if key.typ == TInt && g.pct(30) {
		key = g.keyExpr(key)
	}
	asc := &scope{cols: cols, agg: true, rows: rows, keys: []column{key}}
	cnt := mk(TInt, "COUNT(*)")
	cnt.Bound = rows
	items := []*Node{colNode(key), cnt, g.aggregate(asc, TInt, 1)}
	s := itemsSel(items, rows)
	s.node = mk(TNone, "SELECT @ FROM @@ GROUP BY "+key.ref, selectList(items, true), from, g.where(&scope{cols: cols, rows: rows}, conds))
	return s
}
