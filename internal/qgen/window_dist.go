package qgen

// distWindow is PERCENT_RANK() or CUME_DIST(), a top level TReal: a
// DOUBLE of the row's peer group, (rank - 1) / (rows - 1) and (rows up to
// its last peer) / rows, one IEEE division in both engines (MySQL's
// Item_percent_rank and Item_cume_dist, SQLite's percent_rank and
// cume_dist). Peers share the value, so any order of ties gives the same
// rows. Op "double": MySQL prints the double's shortest digits; SQLite's
// side is rounded to 15 places (realOutput), within the 1e-9 that
// numbers compare to.
func (g *Gen) distWindow(sc *scope) *Node {
	partition := ""
	if g.pct(60) {
		partition = "PARTITION BY " + g.someCols(sc.cols, 2) + " "
	}
	fn := g.pick("PERCENT_RANK()", "CUME_DIST()")
	n := mk(TReal, fn+" OVER ("+partition+"ORDER BY "+g.orderItems(sc.cols, 2)+")")
	n.Op = "double"
	return n.frozen()
}
