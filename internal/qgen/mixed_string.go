package qgen

// Strings meeting numbers, where MySQL's type rules decide the answer.
//
// A comparison of a string with an integer or a DECIMAL is a comparison
// of two DOUBLEs in MySQL, the string read as the longest number it
// starts with ('3x' is 3, 'abc' and '' are 0, ' 3' is 3, '1e1' is 10).
// SQLite compares them by its affinities instead (a string is greater
// than any number), so its side casts the string to REAL, which reads
// the same prefix.
//
// CASE, IF, COALESCE and IFNULL over an integer and a string are strings
// in MySQL (the integer in its decimal digits), so they compare and sort
// as strings; SQLite keeps the integer's own type, so its side casts
// the integer to TEXT. DECIMALs are left out: MySQL writes 1.50 where
// SQLite's REAL writes 1.5.

// numberedTexts are strings with a number, part of one or none in front.
var numberedTexts = []string{"'1'", "'01'", "'2.5'", "'-1'", "'1e1'", "' 3'", "'3x'", "'.5'", "'-0'", "'1.50'",
	"'10'", "'42abc'", "'0x10'", "'abc'", "''", "'-2.25'", "'99.99'", "'7.0'", "NULL"}

// stringNumberCompare is a string op a number (either way round).
func (g *Gen) stringNumberCompare(sc *scope, d int) *Node {
	var s *Node
	if g.pct(50) {
		s = lit(TStr, g.pick(numberedTexts...))
	} else {
		s = g.strExpr(sc, d+1)
	}
	var num *Node
	if g.pct(70) || len(colsOf(sc.cols, TDec)) == 0 {
		num = g.intExpr(sc, d+1)
	} else {
		num = g.decExpr(sc, d+1)
	}
	op := g.pick("=", "<>", "<", "<=", ">", ">=", "<=>")
	liteOp := op
	if op == "<=>" {
		liteOp = "IS"
	}
	if g.pct(50) {
		return cmp(mk(TBool, "@ "+op+" @", s, num).lite("CAST(@ AS REAL) " + liteOp + " @"))
	}
	return cmp(mk(TBool, "@ "+op+" @", num, s).lite("@ " + liteOp + " CAST(@ AS REAL)"))
}

// intAsText is an integer where MySQL's type rules make it a string.
func intAsText(n *Node) *Node {
	t := mk(TStr, "@", n).lite("CAST(@ AS TEXT)")
	t.Prec, t.Pinned = precSame, true
	return t
}

// typedText is a string expression that stays a string when it is a bare
// NULL: IFNULL(1, NULL) is an INT in MySQL, IFNULL(1, CONCAT(NULL, an empty string))
// is a VARCHAR. It is pinned, so shrinking keeps it.
func typedText(n *Node) *Node {
	t := mk(TStr, "CONCAT(@, '')", n).lite("(@ || '')")
	t.Pinned = true
	return t
}

// mixedStringResult is CASE, IF, COALESCE or IFNULL over an integer and
// a string, in either order: a string.
func (g *Gen) mixedStringResult(sc *scope, d int) *Node {
	x, y := intAsText(g.intExpr(sc, d+1)), typedText(g.strExpr(sc, d+1))
	if g.pct(50) {
		x, y = y, x
	}
	switch g.r.Intn(4) {
	case 0:
		return mk(TStr, "CASE WHEN @ THEN @ ELSE @ END", g.pred(sc, d+1), x, y)
	case 1:
		return mk(TStr, "IF(@, @, @)", g.pred(sc, d+1), x, y).lite("iif(@, @, @)")
	case 2:
		return mk(TStr, "COALESCE(@, @)", x, y)
	}
	return mk(TStr, "IFNULL(@, @)", x, y)
}
