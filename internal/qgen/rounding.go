package qgen

import (
	"fmt"
	"strings"
)

// ROUND and TRUNCATE. MySQL rounds an exact number half away from zero and
// truncates toward zero, exactly. SQLite's ROUND does the same on a double
// (the values here are the pool's 2-decimal values, integers and their
// sums and products, so a double lies at most a hair from a half, and a
// nudge of 1e-9 toward the value's sign puts it on MySQL's side: no true
// value lies that close to a boundary but a half itself); SQLite reads a
// negative digit count as 0 and has no TRUNCATE, so those are written as
// integer arithmetic there.

// roundWhole is ROUND(x), ROUND(x, 0, -1 or -2), TRUNCATE(x, 0, -1 or -2) of an
// integer or DECIMAL(6,2) expression: an integer node (MySQL's DECIMAL of
// scale 0 computes and prints as one; SQLite's side is CAST to INTEGER,
// so '/' there stays integer division).
func (g *Gen) roundWhole(sc *scope, d int) *Node {
	x := g.intExpr(sc, d+1)
	if g.pct(60) || x.Bound > 1<<40 {
		x = g.decExpr(sc, d+1) // a double holds such integers exactly
	}
	var n *Node
	switch g.r.Intn(7) {
	case 0:
		n = mk(TInt, "ROUND(@)", x).lite("CAST(ROUND((@) + 1e-9 * SIGN(@)) AS INTEGER)")
	case 1:
		n = mk(TInt, "ROUND(@, 0)", x).lite("CAST(ROUND((@) + 1e-9 * SIGN(@)) AS INTEGER)")
	case 2:
		n = mk(TInt, "ROUND(@, -1)", x).lite("CAST(ROUND((@) / 10.0 + 1e-9 * SIGN(@)) * 10 AS INTEGER)")
	case 3:
		n = mk(TInt, "TRUNCATE(@, 0)", x).lite("CAST((@) + 1e-9 * SIGN(@) AS INTEGER)")
	case 4:
		n = mk(TInt, "TRUNCATE(@, -1)", x).lite("(CAST((@) + 1e-9 * SIGN(@) AS INTEGER) / 10 * 10)")
	case 5:
		n = mk(TInt, "ROUND(@, -2)", x).lite("CAST(ROUND((@) / 100.0 + 1e-9 * SIGN(@)) * 100 AS INTEGER)")
	default:
		n = mk(TInt, "TRUNCATE(@, -2)", x).lite("(CAST((@) + 1e-9 * SIGN(@) AS INTEGER) / 100 * 100)")
	}
	n.Op = "repeat"
	n.Bound = max(x.Bound, g.valueBound) + 100
	return n
}

// roundFraction is ROUND(x, 1) or TRUNCATE(x, 1) of a DECIMAL expression
// or DECIMAL arithmetic (no quotient: its cut digits are not SQLite's), a
// TReal printed with one decimal.
func (g *Gen) roundFraction(sc *scope, d int) *Node {
	was := g.noDiv
	g.noDiv = true
	x := g.decExpr(sc, d+1)
	if g.pct(50) {
		x = g.realExpr(sc, d+1)
	}
	g.noDiv = was
	var n *Node
	if g.pct(60) {
		n = mk(TReal, "ROUND(@, 1)", x).lite("ROUND((@) + 1e-9 * SIGN(@), 1)")
	} else {
		n = mk(TReal, "TRUNCATE(@, 1)", x).lite("(CAST((@) * 10 + 1e-9 * SIGN(@) AS INTEGER) / 10.0)")
	}
	n.Op = "scale1"
	return n
}

// renderRepeated writes SQLite's parts of n, every placeholder its one
// kid (Op "repeat" and "scale1": the kid is written again for its SIGN),
// or its two kids in turn (Op "pair": STRCMP's comparisons).
func (n *Node) renderRepeated(b *strings.Builder, d Dialect) {
	for i, p := range n.Lite {
		b.WriteString(p)
		if i < len(n.Lite)-1 {
			k := 0
			if n.Op == "pair" {
				k = i % 2
			}
			b.WriteString("(")
			n.Kids[k].render(b, d)
			b.WriteString(")")
		}
	}
}

// lagDefault is LAG or LEAD's offset and default: none, an offset, or an
// offset and an integer default (a literal: both take any expression, but
// a row-dependent one is evaluated on different rows by the two).
func (g *Gen) lagDefault() (string, int64) {
	switch g.r.Intn(7) {
	case 0:
		return "", 0
	case 1, 2:
		return ", " + g.pick("1", "2"), 0
	}
	v := int64(g.r.Intn(21) - 5)
	if g.pct(15) {
		return ", " + g.pick("1", "2", "3") + ", NULL", 0
	}
	return fmt.Sprintf(", %s, %d", g.pick("1", "2", "3"), v), max(v, -v)
}
