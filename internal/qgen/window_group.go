package qgen

import "strings"

// groupWindows is SELECT keys, aggregates, window calls over the groups
// FROM ... GROUP BY one or two keys: SUM(SUM(x)) OVER (...), RANK() OVER
// (ORDER BY COUNT(*) DESC) and the like, several partitions and orders in
// one query. A positional call (ROW_NUMBER, a ROWS frame) orders by every
// GROUP BY key, which no two groups share.
func (g *Gen) groupWindows(ctes *[]*cte) (sel, []int, func() *Node) {
	from, cols, rows, conds := g.fromClause(0, ctes)
	sc := &scope{cols: cols, rows: rows}
	asc := &scope{cols: cols, agg: true, rows: rows}
	var refs []string
	asc.keys, refs = g.groupKeys(cols, g.r.Perm(len(cols))[:min(len(cols), 1+g.r.Intn(2))], 25)
	var items []*Node
	var wins []int
	for _, k := range asc.keys {
		if g.pct(60) {
			items = append(items, colNode(k))
		}
	}
	if g.pct(50) {
		items = append(items, g.aggregate(asc, TInt, 1))
	}
	for k := 2 + g.r.Intn(2); k > 0; k-- {
		wins = append(wins, len(items))
		items = append(items, g.groupCall(asc))
	}
	s := sel{rows: rows}
	for _, it := range items {
		s.types, s.bounds = append(s.types, it.Type), append(s.bounds, it.Bound)
	}
	s.node = mk(TNone, "SELECT @ FROM @@ GROUP BY "+strings.Join(refs, ", "), selectListAs(items, "x"), from, g.where(sc, conds))
	return s, wins, func() *Node { return g.groupCall(asc) }
}

// groupCall is a window call over the groups of asc: its partition and
// order keys are GROUP BY keys or aggregates.
func (g *Gen) groupCall(asc *scope) *Node {
	var refs []string
	for _, k := range asc.keys {
		refs = append(refs, k.ref)
	}
	term := func() string {
		ints := colsOf(asc.cols, TInt)
		if len(ints) == 0 || g.pct(35) {
			return refs[g.r.Intn(len(refs))] + g.pick("", " DESC")
		}
		c := ints[g.r.Intn(len(ints))].ref
		return g.pick("COUNT(*)", "SUM("+c+")", "MIN("+c+")", "COUNT("+c+")", "SUM("+c+" % 3)") + g.pick("", " DESC", " ASC")
	}
	part := ""
	if g.pct(50) {
		part = "PARTITION BY " + g.pick(refs[0], "COUNT(*) % 2", refs[len(refs)-1]) + " "
	}
	arg := g.aggregate(asc, TInt, 2)
	if g.nrowNo == 0 && g.pct(25) {
		g.nrowNo++
		order := "ORDER BY " + strings.Join(refs, g.pick(", ", " DESC, ")) + g.pick("", " DESC")
		if g.pct(50) {
			n := mk(TInt, "ROW_NUMBER() OVER ("+part+order+")")
			n.Bound = asc.rows
			return n.frozen()
		}
		fn := g.pick("SUM", "MIN", "MAX", "COUNT")
		n := mk(TInt, fn+"(@) OVER ("+part+order+" ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", arg)
		n.Bound = g.windowAggBound(n, fn, asc.rows)
		return n.frozen()
	}
	order := "ORDER BY " + term()
	if g.pct(30) {
		order += ", " + term()
	}
	var n *Node
	if g.pct(30) {
		n = mk(TInt, g.pick("RANK", "DENSE_RANK")+"() OVER ("+part+order+")")
		n.Bound = asc.rows
	} else {
		fn := g.pick("SUM", "MIN", "MAX", "COUNT")
		n = mk(TInt, fn+"(@) OVER ("+part+g.peerFrame(order)+")", arg)
		n.Bound = g.windowAggBound(n, fn, asc.rows)
	}
	return n.frozen()
}
