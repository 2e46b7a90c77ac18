package qgen

// aggregate is an aggregate call of result type t over sc's row columns.
// COUNT(DISTINCT) of two arguments is spelled out for SQLite, which takes
// one (countDistinctPair); every aggregate of one argument may take
// DISTINCT in both engines. AVG (a DECIMAL of
// scale + 4 in MySQL, a REAL in SQLite) and SUM of DECIMAL are TReals.
func (g *Gen) aggregate(sc *scope, t Type, d int) *Node {
	arg := &scope{cols: sc.cols, rows: sc.rows}
	distinct := g.pick("", "", "", "DISTINCT ", "ALL ")
	var n *Node
	switch {
	case t == TInt && g.pct(20):
		n = mk(TInt, "COUNT(*)")
		n.Bound = sc.rows
	case t == TInt && g.pct(5):
		return g.countDistinctPair(arg, sc.rows, d)
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
	case t == TReal && divisions && !g.noDiv && g.pct(15):
		// SUM or AVG of an integer's quotient by an integer, whose cut
		// digits SQLite computes alike (division.go): SLT's SUM(a / b).
		q := g.division(arg, d+1)
		if !cutAlike(q) {
			n = mk(TReal, "MAX(@)", q)
			n.Op = "same"
			break
		}
		fn, op := "SUM", "same"
		if g.pct(40) {
			fn, op = "AVG", "avg"
		}
		n = mk(TReal, fn+"(@)", q)
		n.Op = op
	case t == TReal && g.pct(25):
		n = g.avg(arg, d)
	case t == TReal && g.pct(50):
		n = mk(TReal, "SUM("+distinct+"@)", g.decExpr(arg, d+1))
		n.Op = "same"
	case t == TReal:
		// No DISTINCT: SQLite's doubles tell apart values equal as
		// DECIMALs (3.10 - 5 and 1.10 - 3). No SUM of quotients (see
		// division.go).
		fn := g.pick("SUM", "MIN", "MAX")
		was := g.noDiv
		g.noDiv = g.noDiv || fn == "SUM"
		x := g.realExpr(arg, d+1)
		g.noDiv = was
		n = mk(TReal, fn+"(@)", x)
		n.Op = "same"
	case t == TStr && sc.rows <= 80 && g.pct(25) && len(colsOf(sc.cols, TInt))+len(colsOf(sc.cols, TStr)) > 0:
		return g.groupConcat(sc)
	default:
		n = mk(t, g.pick("MIN", "MAX")+"("+distinct+"@)", g.typed(arg, t, d+1))
		n.Bound = n.Kids[0].Bound
	}
	return n.frozen()
}

// groupConcat is GROUP_CONCAT of an integer or string column, SQLite's
// group_concat(x, sep ORDER BY ...) (3.44 and later): ordered by itself,
// or by another column and then itself (rows tied on both print alike),
// joined by ',' or another separator; or DISTINCT, ordered by itself
// (SQLite takes no separator with DISTINCT: its side replaces ','). At
// most 80 rows, so that the text stays within MySQL's group_concat_max_len
// of 1024.
func (g *Gen) groupConcat(sc *scope) *Node {
	cols := append(colsOf(sc.cols, TInt), colsOf(sc.cols, TStr)...)
	c := cols[g.r.Intn(len(cols))].ref
	// MySQL may name the argument by its position (ORDER BY 1), which
	// orders by the argument's own type; SQLite names the column.
	self := c
	if g.pct(30) {
		self = "1"
	}
	dir := g.pick("", " DESC")
	order, myOrder := c+dir, self+dir
	if g.pct(30) {
		if g.pct(50) {
			// A separator with DISTINCT: SQLite's side joins by ',' and
			// replaces it, the values' own commas (a derived table's
			// CONCAT_WS(',', ...), seed 718920) hidden as char(1) meanwhile.
			sep := g.pick("'|'", "''", "', '", "';'")
			return mk(TStr, "GROUP_CONCAT(DISTINCT "+c+" ORDER BY "+myOrder+" SEPARATOR "+sep+")").
				lite("replace(replace(group_concat(DISTINCT replace(" + c + ", ',', char(1)) ORDER BY " + order + "), ',', " + sep + "), char(1), ',')").frozen()
		}
		return mk(TStr, "GROUP_CONCAT(DISTINCT "+c+" ORDER BY "+myOrder+")").
			lite("group_concat(DISTINCT " + c + " ORDER BY " + order + ")").frozen()
	}
	if g.pct(30) {
		first := cols[g.r.Intn(len(cols))].ref + g.pick("", " DESC") + ", "
		order, myOrder = first+order, first+myOrder
	}
	sep := g.pick("','", "','", "'|'", "''", "', '")
	return mk(TStr, "GROUP_CONCAT("+c+" ORDER BY "+myOrder+" SEPARATOR "+sep+")").
		lite("group_concat(" + c + ", " + sep + " ORDER BY " + order + ")").frozen()
}

// countDistinctPair is COUNT(DISTINCT x, y): the pairs of which neither is
// NULL, counted once each. SQLite counts the distinct text x || '|' || y
// instead, which tells the pairs apart as long as x and y are integers,
// pool strings (no '|') or dates, not DECIMALs (SQLite's doubles of equal
// DECIMALs may differ).
func (g *Gen) countDistinctPair(arg *scope, rows int64, d int) *Node {
	pickType := func() Type {
		for {
			if t := g.pickType(arg); t == TInt || t == TStr || t == TDate {
				return t
			}
		}
	}
	n := mk(TInt, "COUNT(DISTINCT @, @)", g.typed(arg, pickType(), d+1), g.typed(arg, pickType(), d+1)).
		lite("COUNT(DISTINCT CASE WHEN @ IS NULL OR @ IS NULL THEN NULL ELSE @ || '|' || @ END)")
	n.Op = "pair"
	n.Bound = rows
	return n.frozen()
}
