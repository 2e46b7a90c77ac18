package qgen

// aggregate is an aggregate call of result type t over sc's row columns.
// COUNT(DISTINCT) takes one argument (SQLite has no more); every aggregate
// of one argument may take DISTINCT in both engines. AVG is left out: MySQL
// gives a DECIMAL of scale + 4, SQLite a REAL. SUM of DECIMAL is a
// TReal.
func (g *Gen) aggregate(sc *scope, t Type, d int) *Node {
	arg := &scope{cols: sc.cols, rows: sc.rows}
	distinct := g.pick("", "", "", "DISTINCT ", "ALL ")
	var n *Node
	switch {
	case t == TInt && g.pct(20):
		n = mk(TInt, "COUNT(*)")
		n.Bound = sc.rows
	case t == TInt && g.pct(30):
		n = mk(TInt, "COUNT("+distinct+"@)", g.typed(arg, g.pickType(arg), d+1))
		n.Bound = sc.rows
	case t == TInt && g.pct(55):
		n = mk(TInt, "SUM("+distinct+"@)", g.intExpr(arg, d+1))
		n.Bound = satMul(sc.rows, n.Kids[0].Bound)
		if n.Bound > g.sumBound {
			n = mk(TInt, "MAX(@)", n.Kids[0])
			n.Bound = n.Kids[0].Bound
		}
	case t == TReal && g.pct(50):
		n = mk(TReal, "SUM("+distinct+"@)", g.decExpr(arg, d+1))
	case t == TReal:
		// No DISTINCT: SQLite's doubles tell apart values equal as
		// DECIMALs (3.10 - 5 and 1.10 - 3).
		n = mk(TReal, g.pick("SUM", "MIN", "MAX")+"(@)", g.realExpr(arg, d+1))
	default:
		n = mk(t, g.pick("MIN", "MAX")+"("+distinct+"@)", g.typed(arg, t, d+1))
		n.Bound = n.Kids[0].Bound
	}
	return n.frozen()
}
