package qgen

// A DATE and a string in one COALESCE, IFNULL, IF or CASE. MySQL gives
// such a mix the type VARCHAR, the DATE as its 'YYYY-MM-DD' text; SQLite
// holds the DATE as that text already, so both print, compare and sort
// the result alike. An engine that keeps the DATE type (printing the
// string side as a date, or NULL for it) or compares the result as a
// date shows.

// dateOrString is such an expression, its DATE side first or second. The
// string side is a CONCAT, a string even where its operand is a NULL
// literal: COALESCE(e, NULL) is a DATE, which MySQL compares with 'x' as
// a date (error 1525, Incorrect DATE value).
func (g *Gen) dateOrString(sc *scope, d int) *Node {
	a, b := g.dateExpr(sc, d+1), mk(TStr, "CONCAT(@, '')", g.strExpr(sc, d+1)).lite("(@ || '')")
	if g.pct(50) {
		a, b = b, a
	}
	switch g.r.Intn(4) {
	case 0:
		return mk(TStr, "COALESCE(@, @)", a, b)
	case 1:
		return mk(TStr, "IFNULL(@, @)", a, b)
	case 2:
		return mk(TStr, "IF(@, @, @)", g.pred(sc, d+1), a, b).lite("iif(@, @, @)")
	}
	return mk(TStr, "CASE WHEN @ THEN @ ELSE @ END", g.pred(sc, d+1), a, b)
}
