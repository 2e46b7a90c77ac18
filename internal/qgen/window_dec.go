package qgen

// decWindow is SUM, MIN, MAX, FIRST_VALUE, LAST_VALUE, LAG or LEAD of a DECIMAL
// expression OVER (...), a TDec: window.go's functions read integers only,
// and a window over DECIMAL(6,2) values (and over the integers, CASE and
// COALESCE mixed into a TDec, expr.go typed) takes the decimal
// aggregation path of the executor, whose sum keeps the scale in MySQL.
// SQLite sums the values as doubles: exact enough at these magnitudes
// (the comparison allows 1e-9 relative), so not with wide integers, where
// it loses the cents (expr.go realExpr). The frame is the default one in
// both (peers included under an ORDER BY); FIRST_VALUE and LAST_VALUE
// order by every column, so tied rows are twins (window.go). nil where it
// does not apply.
func (g *Gen) decWindow(sc *scope) *Node {
	if g.valueBound != valueBound {
		return nil
	}
	arg := &scope{cols: sc.cols, rows: sc.rows}
	partition := txt(" ")
	if g.pct(60) {
		partition = txt("PARTITION BY " + g.someCols(sc.cols, 2) + " ").optional()
	}
	x := g.decExpr(arg, 2)
	var n *Node
	if g.nrowNo == 0 && g.pct(20) {
		// LAG / LEAD with a default: the query's one positional call,
		// the default filled where no row is, in the DECIMAL's type.
		g.nrowNo++
		def := g.pick("0", "-3", "2.5", "-0.75", "NULL")
		n = mk(TDec, g.pick("LAG", "LEAD")+"(@, "+g.pick("1", "2")+", "+def+") OVER (@@)", x, partition, g.orderAll(sc))
		n.Bound = max(x.Bound, 3)
		return n.frozen()
	}
	if g.pct(25) {
		n = mk(TDec, g.pick("FIRST_VALUE", "LAST_VALUE")+"(@) OVER (@@)", x, partition, g.orderAll(sc))
		n.Bound = x.Bound
	} else {
		fn := g.pick("SUM", "MIN", "MAX")
		order := txt("ORDER BY " + g.orderItems(sc.cols, 2)).optional()
		n = mk(TDec, fn+"(@) OVER (@@)", x, partition, order)
		n.Bound = windowBound(fn, x.Bound, sc.rows)
	}
	return n.frozen()
}
