package qgen

// notInNulls is x NOT IN (SELECT y ...) where x and y are both columns
// with NULLs: NULL for a NULL x over a non-empty subquery, NULL where no
// y equals x and some y is NULL, TRUE over an empty one (whatever x). As
// a WHERE filter (NULL drops the row), a select item (the NULL shows),
// and under NOT or IS UNKNOWN, correlated or not.
func (g *Gen) notInNulls(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	sc := &scope{cols: cols, rows: rows, subq: true}
	inFrom, inner, _ := g.baseTable(true)
	t := TInt
	if len(colsOf(cols, TStr)) > 0 && len(colsOf(inner, TStr)) > 0 && g.pct(30) {
		t = TStr
	}
	xs, ys := colsOf(cols, t), colsOf(inner, t)
	if len(xs) == 0 || len(ys) == 0 {
		xs, ys = colsOf(cols, TInt), colsOf(inner, TInt)
	}
	if len(xs) == 0 || len(ys) == 0 {
		return g.existsOr(ctes) // a derived table of strings and dates only
	}
	x, y := xs[g.r.Intn(len(xs))], ys[g.r.Intn(len(ys))]
	where := txt("")
	if g.pct(50) {
		where = g.innerWhere(inner, sc, 1)
	}
	in := mk(TBool, "@ "+g.pick("NOT IN", "NOT IN", "IN")+" (SELECT @ FROM @@)", colNode(x), colNode(y), inFrom, where).frozen()
	in.Prec = precCmp
	test := in
	switch g.r.Intn(4) {
	case 0:
		test = mk(TBool, "NOT @", in)
		test.Prec = precNot
	case 1:
		i := g.r.Intn(4)
		test = mk(TBool, "(@) IS "+[]string{"UNKNOWN", "NOT UNKNOWN", "TRUE", "FALSE"}[i], in).lite("(@) IS " + []string{"NULL", "NOT NULL", "TRUE", "FALSE"}[i])
		test.Prec = precCmp
	}
	items := []*Node{colNode(x)}
	for _, t := range g.randomTypes()[:1] {
		items = append(items, g.typed(&scope{cols: cols, rows: rows}, t, 1))
	}
	var pred *Node
	if g.pct(40) {
		it := mk(TInt, "@", test)
		it.Bound, it.Prec = 1, precSame
		items = append(items, it)
	} else {
		pred = test
	}
	for _, c := range conds {
		if pred == nil {
			pred = c
		} else {
			pred = and(c, pred)
		}
	}
	s := itemsSel(items, rows)
	w := txt("")
	if pred != nil {
		w = mk(TNone, " WHERE @", pred)
	}
	s.node = mk(TNone, "SELECT @ FROM @@", selectList(items, false), from, w)
	return s
}
