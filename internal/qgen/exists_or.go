package qgen

// existsOr filters rows by EXISTS (or NOT EXISTS, or IN) under OR, where
// a decorrelating rewrite into a semi join would be wrong: a row passes
// when the subquery finds a match or the other side holds. Now and then
// the whole disjunction is negated, or is a 0/1 select item instead.
func (g *Gen) existsOr(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	sc := &scope{cols: cols, rows: rows, subq: !g.big}
	sub := func() *Node {
		if !sc.subq {
			return g.pred(sc, 2)
		}
		if g.pct(70) {
			return g.existsSubquery(sc, 1)
		}
		return g.inSubquery(sc, 1)
	}
	or := mk(TBool, "@ OR @", sub(), g.pred(sc, 2))
	if g.pct(40) {
		or = mk(TBool, "@ OR @", g.pred(sc, 2), sub())
	}
	or.Prec = precOr
	if g.pct(25) {
		or = mk(TBool, "@ OR @", or, sub())
		or.Prec = precOr
	}
	if g.pct(20) {
		or = mk(TBool, "NOT (@)", or)
		or.Prec = precNot
	}
	var items []*Node
	for _, t := range g.randomTypes() {
		items = append(items, g.typed(&scope{cols: cols, rows: rows}, t, 1))
	}
	if g.pct(30) {
		it := mk(TInt, "CASE WHEN @ THEN 1 ELSE 0 END", or)
		it.Bound = 1
		items = append(items, it)
		or = g.pred(sc, 2)
	}
	s := itemsSel(items, rows)
	for _, c := range conds {
		or = and(c, or)
	}
	s.node = mk(TNone, "SELECT @@ FROM @ WHERE @", g.distinct(), selectList(items, false), from, or)
	return s
}
