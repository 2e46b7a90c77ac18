package qgen

import "strings"

// Division with '/' and AVG: MySQL's are DECIMALs of the dividend's scale
// + 4 (div_precision_increment), printed rounded half away from zero to
// that scale, while the value underneath keeps the digits MySQL's
// decimal library computed (1/3 is 0.333333333: 9 digits, a multiple of
// its 9-digit words, cut, not rounded), so that 1/3 + 1/3 + 1/3 prints
// 1.0000, not 0.9999. SQLite divides doubles (CAST(a AS REAL) / b, NULL
// for a zero divisor, as MySQL; integers as a * 10^9 / b in integers, cut
// as MySQL cuts them) and AVG gives a double; the top level
// output of a TReal is ROUND(x, scale) there (realOutput), which agrees
// with MySQL's printed value but where MySQL's cut digits, magnified,
// reach the 4th decimal. So only an integer's quotient (cut alike in
// both) is multiplied, by small numbers (bound divisionFactor); none is
// summed or averaged over rows (the cut digits of many rows add up),
// grouped or sorted (it is a TReal), and one is compared only with a
// literal (quotientCompare). A quotient's scale (4, or 6 for a
// DECIMAL(6,2) dividend) stays within the 9 digits it is cut to.

// divisions switches quotients on (they found gpusql computing 1 / 7 * 6
// as 0.1429 * 6, where MySQL's is 0.142857142 * 6, 0.8571).
var divisions = true

// divisionFactor bounds what multiplies a quotient.
const divisionFactor = 10

// division is a / b of integers or DECIMALs. Not of another quotient:
// MySQL prints (a / b) / c to its scale (8 for integers) from the 9
// digits a / b was cut to (1 / 3 / 1 is 0.33333333, the 8th digit of
// 0.333333333000000000), which no double rounding agrees with; SLT
// records check those (testdata/slt/division_digits.test).
func (g *Gen) division(sc *scope, d int) *Node {
	a := g.exactOperand(sc, d)
	b := g.leaf(sc, TInt)
	switch c := g.r.Intn(100); {
	case c < 30:
		b = g.leaf(sc, TDec)
	case c < 50:
		b = g.intExpr(sc, d+2) // SLT's random/expr divides by expressions
	}
	n := mk(TReal, "@ / @", a, b).lite("CAST(@ AS REAL) / @")
	if a.Type == TInt && b.Type == TInt && a.Bound <= maxBound {
		// MySQL's 9 cut digits exactly: SQLite's integer division
		// truncates toward zero too (NULL for a zero divisor).
		n.lite("((@) * 1000000000 / (@) * 1.0 / 1000000000)")
	}
	n.Prec, n.Op, n.Divides = precMul, "div", true
	return n
}

// scaleOf is the scale MySQL prints an exact number node with, from the
// tree as it is now (shrinking replaces nodes): a literal's digits after
// the point, 2 for a DECIMAL(6,2) expression, 0 for an integer, and for
// TReal operators MySQL's rules (Op).
func scaleOf(n *Node) int {
	k := func(i int) int { return scaleOf(n.Kids[i]) }
	switch {
	case n.Literal:
		if _, frac, ok := strings.Cut(n.Parts[0], "."); ok {
			return len(frac)
		}
		return 0
	case n.Type == TInt:
		return 0
	case n.Type == TDec:
		return 2
	}
	switch n.Op {
	case "div", "avg":
		return min(k(0)+4, 30)
	case "mul":
		return min(k(0)+k(1), 30)
	case "add":
		return max(k(0), k(1))
	case "same":
		return k(0)
	case "scale1":
		return 1
	case "real4":
		return 4
	case "real6":
		return 6
	case "double":
		return 15 // window_dist.go
	}
	return 2
}

// quotientExpr is a TReal built on a division: the division, its
// product with a small integer, its sum with a DECIMAL, or a negation.
func (g *Gen) quotientExpr(sc *scope, d int) *Node {
	q := g.division(sc, d)
	var n *Node
	switch c := g.r.Intn(100); {
	case c < 40:
		return q
	case c < 60 && q.Kids[0].Type == TInt:
		// Of an integer's quotient only (printed with 4 digits): the cut
		// digits times f stay far below the 4th (1.50 / 31 * 88 is
		// 4.258064448 in MySQL, printed with 6: 4.258064, 4.258065 for
		// the double).
		f := g.leaf(sc, TInt)
		if f.Bound > divisionFactor || f.Bound == 0 && !f.Literal {
			f = intLit(int64(g.r.Intn(2*divisionFactor+1) - divisionFactor))
		}
		n = mk(TReal, "@ * @", q, f)
		n.Prec, n.Op = precMul, "mul"
	case c < 80:
		// Plus or minus a DECIMAL or an integer (printed with the
		// quotient's scale: 1/a + b is 2.1429), either side first.
		e := g.decExpr(sc, d+1)
		if g.pct(40) {
			e = g.intExpr(sc, d+1)
		}
		n = mk(TReal, "@ "+g.pick("+", "-")+" @", q, e)
		if g.pct(40) {
			n.Kids[0], n.Kids[1] = e, q
		}
		n.Prec, n.Op = precAdd, "add"
	case c < 88 && cutAlike(q):
		// The sum or difference of two integers' quotients: the cut
		// digits of both, which SQLite computes alike.
		r := g.division(sc, d)
		if !cutAlike(r) {
			return q
		}
		n = mk(TReal, "@ "+g.pick("+", "-")+" @", q, r)
		n.Prec, n.Op = precAdd, "add"
	default:
		n = mk(TReal, "- @", q)
		n.Prec, n.Op = precUnary, "same"
	}
	n.Divides = true
	return n
}

// exactOperand is the integer (or, 40 %, DECIMAL) expression a quotient
// or an average is taken of, built with exact scales: the scale MySQL
// prints the result with comes from it.
func (g *Gen) exactOperand(sc *scope, d int) *Node {
	was := g.exactScale
	g.exactScale = true
	x := g.intExpr(sc, d+1)
	if g.pct(40) {
		x = g.decExpr(sc, d+1)
	}
	g.exactScale = was
	return x
}

// avg is AVG([DISTINCT] x) of an integer or DECIMAL expression: MySQL's
// scale is x's + 4.
func (g *Gen) avg(arg *scope, d int) *Node {
	distinct := g.pick("", "", "DISTINCT ")
	x := g.exactOperand(arg, d)
	n := mk(TReal, "AVG("+distinct+"@)", x)
	n.Op = "avg"
	return n
}

// realOutput is a select list's TReal item as both print it: MySQL
// rounds to the item's scale, SQLite's double is rounded there too
// (Op "round": the digits are counted when it is rendered).
func realOutput(n *Node) *Node {
	out := mk(TReal, "@", n)
	out.Prec, out.Pinned, out.Op = precSame, true, "round"
	return out
}

// quotientCompare is a / b compared with a literal of at most 2 decimals,
// or AVG(x) in an aggregate scope: MySQL compares the cut quotient, SQLite
// the double, and the two only differ where the quotient is within 1e-9
// of the literal without being equal to it, which quotients of these
// small values never are (and an equal one is cut to itself).
func (g *Gen) quotientCompare(sc *scope, d int) *Node {
	var q *Node
	if sc.agg {
		q = g.avg(&scope{cols: sc.cols, rows: sc.rows}, d)
		q.Frozen = true
	} else {
		q = g.division(sc, d)
	}
	l := lit(TDec, g.pick("0", "1", "-1", "0.5", "0.25", "2.50", "0.33", "-0.75", "3"))
	return cmp(mk(TBool, "@ "+g.pick("=", "<>", "<", "<=", ">", ">=")+" @", q, l))
}

// quotientSubquery is a scalar subquery of an AVG or of the largest or
// smallest quotient of its rows: one value, printed with the scale of the
// query that reads it (gpusql carries it in the column's Shown).
func (g *Gen) quotientSubquery(sc *scope, d int) *Node {
	from, inner, rows := g.baseTable(true)
	where := g.innerWhere(inner, sc, d)
	isc := &scope{cols: inner, rows: rows}
	var item *Node
	if g.pct(50) {
		item = g.avg(isc, d+1)
	} else {
		item = mk(TReal, g.pick("MAX", "MIN")+"(@)", g.division(isc, d+1))
		item.Op = "same"
	}
	item.Pinned = true
	n := mk(TReal, "(SELECT @ FROM @@)", item, from, where)
	n.Op = "same"
	n.Lite = append([]string{"+" + n.Parts[0]}, n.Parts[1:]...)
	return n.frozen()
}

// cutAlike says whether SQLite computes division q's cut digits as MySQL
// does: an integer's quotient by an integer, in integers (division).
func cutAlike(q *Node) bool {
	return q.Kids[0].Type == TInt && q.Kids[1].Type == TInt && q.Kids[0].Bound <= maxBound
}
