package qgen

import "strings"

// BIGINT arithmetic at its edges. MySQL computes an integer +, - or * in
// BIGINT and stops the statement with error 1690 ("BIGINT value is out of
// range in ...") where the result leaves it; SQLite turns the result into
// a REAL instead. The expressions here add and take away (or multiply and
// divide by) one large constant, so a result that stays in range is the
// inner value again and prints alike in both. Where it leaves the range,
// SQLite's side calls ABS(-2^63), SQLite's "integer overflow" error, and
// the differential test then wants MySQL's 1690 from gpusql
// (overflowMarker). The inner value goes through CAST(... AS SIGNED), so
// MySQL does the arithmetic in BIGINT even where the value is a DECIMAL
// (a SUM read from a derived table).

// overflowMarker is SQLite's text for an overflow (ABS of -2^63 fails).
const overflowMarker = "abs(-9223372036854775807 - 1)"

// overflowEdges are the MySQL forms around one inner value: (C + v) - C
// overflows for v > MAX - C, (v - C) + C for v < MIN + C, and v * C DIV C
// for |v * C| past the range (v = -2 with 2^62 just fits: -2^63).
var overflowEdges = []string{
	"(9223372036854775807 + @) - 9223372036854775807",
	"(9223372036854775800 + @) - 9223372036854775800",
	"(@ - 9223372036854775807) + 9223372036854775807",
	"(@ - 9223372036854775800) + 9223372036854775800",
	"(-9223372036854775807 + @) + 9223372036854775807",
	"(@ * 4611686018427387904) DIV 4611686018427387904",
	"(@ * 3074457345618258602) DIV 3074457345618258602",
	"(@ * -4611686018427387904) DIV -4611686018427387904",
}

// bigintEdge is one of overflowEdges over an integer column (a constant
// one either engine may fold before reading a row, and overflow there).
func (g *Gen) bigintEdge(sc *scope, d int) *Node {
	cs := colsOf(sc.visible(), TInt)
	if len(cs) == 0 {
		return g.leaf(sc, TInt)
	}
	inner := mk(TInt, "CAST(@ AS SIGNED)", colNode(cs[g.r.Intn(len(cs))])).lite("CAST(@ AS INTEGER)")
	inner.Bound = inner.Kids[0].Bound
	form := strings.ReplaceAll(g.pick(overflowEdges...), "@", "(@)")
	lite := strings.ReplaceAll(form, "DIV", "/")
	n := mk(TInt, "("+form+")", inner)
	n.Lite = strings.Split("iif(typeof("+lite+") = 'real', "+overflowMarker+", "+lite+")", placeholder)
	n.LiteRepeat, n.Bound = true, inner.Bound
	return n
}
