package qgen

// betweenNull is x [NOT] BETWEEN lo AND hi with one bound a NULL: a NULL
// literal, or (SELECT NULL) where subqueries may go. MySQL types both as
// NULL, so neither takes part in the comparison type (strings stay
// strings) and the other bound decides where it can: 'abc' BETWEEN
// (SELECT NULL) AND 'abb' is 0, as x >= NULL AND x <= 'abb' is in SQLite.
func (g *Gen) betweenNull(sc *scope, d int) *Node {
	t := g.pickType(sc)
	if g.pct(50) {
		t = TStr // where a typed NULL would turn the strings into numbers
	}
	null := lit(t, "NULL")
	if sc.subq && g.pct(70) {
		null = lit(t, "(SELECT NULL)")
	}
	x, other := g.typed(sc, t, d+1), g.typed(sc, t, d+1)
	lo, hi := null, other
	if g.pct(50) {
		lo, hi = other, null
	}
	return cmp(mk(TBool, "@ "+g.pick("", "NOT ")+"BETWEEN @ AND @", x, lo, hi))
}
