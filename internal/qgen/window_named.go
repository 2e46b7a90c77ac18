package qgen

// namedWindow is a window function over a window of the SELECT's WINDOW
// clause, returned with that clause: used whole (OVER win1), refined by an
// ORDER BY the named window lacks (OVER (win1 ORDER BY ...)), or, ordered
// by every column, refined by a ROWS frame. Both engines merge the named
// window into the call; the refinements are the ones MySQL allows (no
// PARTITION BY, no second ORDER BY, no reference to a window with a frame:
// errors 3581 to 3583). Ties follow window.go's rules: the default RANGE
// frame takes peers, a ROWS frame orders by every column and is the
// query's one positional call.
func (g *Gen) namedWindow(sc *scope) (call, clause *Node) {
	arg := &scope{cols: sc.cols, rows: sc.rows}
	partition := ""
	if g.pct(60) {
		partition = "PARTITION BY " + g.someCols(sc.cols, 2)
	}
	order := "ORDER BY " + g.orderItems(sc.cols, 2)
	fn := g.pick("SUM", "COUNT", "MIN", "MAX")
	var over, def string
	switch c := g.r.Intn(3); {
	case c == 0 && g.nrowNo == 0:
		g.nrowNo++
		over, def = "(win1"+g.rowsFrame()+")", joinSpace(partition, g.orderAll(sc).SQL(MySQL))
	case c == 1 && partition != "":
		over, def = "(win1 "+order+")", partition
	default:
		over, def = "win1", joinSpace(partition, order)
		if g.pct(30) {
			call = mk(TInt, g.pick("RANK", "DENSE_RANK")+"() OVER win1")
			call.Bound = sc.rows
			return call.frozen(), txt(" WINDOW win1 AS (" + def + ")")
		}
	}
	call = mk(TInt, fn+"(@) OVER "+over, g.intExpr(arg, 2))
	call.Bound = windowBound(fn, call.Kids[0].Bound, sc.rows)
	return call.frozen(), txt(" WINDOW win1 AS (" + def + ")")
}

// joinSpace joins the non-empty parts with a space.
func joinSpace(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}
