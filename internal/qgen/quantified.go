package qgen

// Quantified comparisons: x op ANY / SOME / ALL (SELECT ...). SQLite has
// none, so its side spells out the three-valued rule MySQL follows (the
// standard's): x op ANY (S) is true where some row of S compares true,
// else NULL where some row compares NULL (x NULL, or a NULL in S), else
// false (S empty included); x op ALL (S) is false where some row compares
// false, else NULL where some compares NULL, else true. Each test reads
// x through a one-row derived table, so that x is written before S
// every time (Op "pair" alternates the two kids).

// quantifiedLite is SQLite's CASE for a quantifier: the first EXISTS finds
// the row that decides (cond over l.lhs and q.x0), the second a NULL.
func quantifiedLite(op string, all bool) string {
	from := "SELECT 1 FROM (SELECT @ AS lhs) AS l, @ AS q WHERE "
	test := "l.lhs " + op + " q.x0"
	decided, other := "1", "0"
	cond := test
	if all {
		decided, other = "0", "1"
		cond = "NOT (" + test + ")"
	}
	return "CASE WHEN EXISTS (" + from + cond + ") THEN " + decided +
		" WHEN EXISTS (" + from + "(" + test + ") IS NULL) THEN NULL ELSE " + other + " END"
}

// quantifiedSubquery is x op ANY | SOME | ALL (SELECT y AS x0 FROM ...), y
// of x's type, now and then DISTINCT or one aggregate per group. A LIMIT
// is left out: MySQL has none in ANY / ALL subqueries.
func (g *Gen) quantifiedSubquery(sc *scope, d int) *Node {
	s := g.subItem(d, 20)
	from, inner, t, item, distinct, groupBy := s.from, s.inner, s.t, s.item, s.distinct, s.groupBy
	body := mk(TNone, "SELECT @@ AS x0 FROM @@@", distinct, item, from, g.innerWhere(inner, sc, d), groupBy)
	op := g.pick("=", "<>", "<", "<=", ">", ">=")
	quant := g.pick("ANY", "SOME", "ALL")
	n := cmp(mk(TBool, "@ "+op+" "+quant+" (@)", g.unsignedOr(sc, t, d+1), body)).lite(quantifiedLite(op, quant == "ALL"))
	n.Op = "pair"
	return n.frozen()
}
