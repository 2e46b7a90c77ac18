package qgen

// mixedNumeric is [NOT] BETWEEN or [NOT] IN over integers and
// DECIMAL(6,2) values mixed. MySQL compares an IN item with x by that
// pair's type and a BETWEEN by the type of all three (DECIMAL here),
// SQLite integers and reals by value; over these exact values the answers
// agree, so an engine that picks one type for the whole list or a type
// per BETWEEN bound shows. (A string among the numbers would not agree:
// SQLite applies column affinities where MySQL reads DOUBLE.)
func (g *Gen) mixedNumeric(sc *scope, d int) *Node {
	num := func() *Node {
		if g.pct(50) {
			return g.typed(sc, TInt, d+1)
		}
		return g.typed(sc, TDec, d+1)
	}
	not := g.pick("", "NOT ")
	if g.pct(50) {
		return cmp(mk(TBool, "@ "+not+"BETWEEN @ AND @", num(), num(), num()))
	}
	kids := []*Node{num(), num()}
	format := "@ " + not + "IN (@"
	for k := g.r.Intn(3); k > 0; k-- {
		kids = append(kids, mk(TNone, ", @", num()).optional())
		format += "@"
	}
	return cmp(mk(TBool, format+")", kids...))
}
