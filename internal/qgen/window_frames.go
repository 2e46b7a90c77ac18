package qgen

// rangeWindow is SUM, COUNT, MIN or MAX over a RANGE frame of numeric
// offsets: ORDER BY one integer column (a RANGE offset needs exactly one
// numeric key), each way round. A frame's rows are those whose key lies
// within the offsets of the current row's, peers included, so the value
// does not depend on how ties are ordered; a row whose key is NULL has
// the NULL rows as its frame in both (the SQL standard's rule).
func (g *Gen) rangeWindow(sc, arg *scope, partition *Node) *Node {
	if decs := colsOf(sc.cols, TDec); len(decs) > 0 && g.pct(30) {
		return g.decimalRangeWindow(sc, decs, arg, partition)
	}
	ints := colsOf(sc.cols, TInt)
	if len(ints) == 0 {
		return nil
	}
	key := ints[g.r.Intn(len(ints))].ref + g.pick("", " DESC")
	frame := g.pick("RANGE BETWEEN 2 PRECEDING AND CURRENT ROW", "RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING",
		"RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING", "RANGE 5 PRECEDING", "RANGE BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING",
		"RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING", "RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING",
		"RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING")
	fn := g.pick("SUM", "COUNT", "MIN", "MAX")
	n := mk(TInt, fn+"(@) OVER (@ORDER BY "+key+" "+frame+")", g.intExpr(arg, 2), partition)
	n.Bound = windowBound(fn, n.Kids[0].Bound, sc.rows)
	return n.frozen()
}

// rowsFrame is a ROWS frame for a window ordered by every column.
func (g *Gen) rowsFrame() string {
	return g.pick(" ROWS BETWEEN 1 PRECEDING AND CURRENT ROW", " ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING",
		" ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING", " ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", " ROWS 2 PRECEDING",
		" ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING", " ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING",
		" ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING")
}

// valueInFrame is FIRST_VALUE, LAST_VALUE or NTH_VALUE over a ROWS frame
// of a window ordered by every column (NULL where the frame is empty).
func (g *Gen) valueInFrame(sc, arg *scope, partition *Node) *Node {
	fn := g.pick("FIRST_VALUE(@)", "LAST_VALUE(@)", "NTH_VALUE(@, 2)")
	n := mk(TInt, fn+" OVER (@@"+g.rowsFrame()+")", g.intExpr(arg, 2), partition, g.orderAll(sc))
	n.Bound = n.Kids[0].Bound
	return n.frozen()
}

// decimalRangeWindow is rangeWindow ordered by a DECIMAL(6,2) column,
// with offsets of another scale (1, 2, 0.5, 1.5): an engine must bring
// the offset to the key's scale. The offsets are exact in binary, and no
// two of decPool's values lie an offset apart unless both are exact in
// binary too, so SQLite's REAL keys find the same frames.
func (g *Gen) decimalRangeWindow(sc *scope, decs []column, arg *scope, partition *Node) *Node {
	key := decs[g.r.Intn(len(decs))].ref + g.pick("", " DESC")
	a, b := g.pick("1", "2", "0.5", "1.5"), g.pick("1", "0.5", "3")
	frame := g.pick("RANGE BETWEEN "+a+" PRECEDING AND CURRENT ROW", "RANGE BETWEEN "+a+" PRECEDING AND "+b+" FOLLOWING",
		"RANGE BETWEEN CURRENT ROW AND "+b+" FOLLOWING", "RANGE "+a+" PRECEDING")
	fn := g.pick("SUM", "COUNT", "MIN", "MAX")
	n := mk(TInt, fn+"(@) OVER (@ORDER BY "+key+" "+frame+")", g.intExpr(arg, 2), partition)
	n.Bound = windowBound(fn, n.Kids[0].Bound, sc.rows)
	return n.frozen()
}
