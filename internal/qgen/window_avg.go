package qgen

import (
	"math"
	"strings"
)

// avgWindow is AVG(x) OVER (...) of an integer expression, a top level
// TReal, now and then times a small factor. MySQL's value keeps the 9
// digits it cuts the frame's sum over its count to (AVG of 1, 1, 2 is
// 1.333333333: times 3 it prints 4.0000, not 3.9999), which SQLite
// computes alike in integers: SUM(x) * 10^9 / COUNT(x) over the same
// window, cut toward zero as MySQL cuts (NULL for an empty frame in
// both). The window is written as text, the same in both, so SQLite's
// SUM and COUNT read the frame AVG reads. nil where the sum times 10^9
// could leave the int64.
func (g *Gen) avgWindow(sc *scope) *Node {
	x := g.intExpr(&scope{cols: sc.cols, rows: sc.rows}, 2)
	if satMul(satMul(x.Bound, sc.rows), 1000000000) > math.MaxInt64/2 {
		return nil
	}
	var spec []string
	if g.pct(60) {
		spec = append(spec, "PARTITION BY "+g.someCols(sc.cols, 2))
	}
	switch {
	case g.nrowNo == 0 && g.pct(35):
		// A ROWS frame tells tied rows apart: ordered by every column
		// (window.go), once a query.
		g.nrowNo++
		spec = append(spec, g.orderAll(sc).SQL(MySQL)+g.rowsFrame())
	case g.pct(60):
		spec = append(spec, "ORDER BY "+g.orderItems(sc.cols, 2))
	}
	over := " OVER (" + strings.Join(spec, " ") + ")"
	n := mk(TReal, "AVG(@)"+over, x).lite("(SUM(@)" + over + " * 1000000000 / COUNT(@)" + over + " * 1.0 / 1000000000)")
	n.Op, n.LiteRepeat = "avg", true
	n.frozen()
	if g.pct(50) {
		n = mk(TReal, "@ * @", n, lit(TInt, g.pick("3", "7", "-6", "9")))
		n.Prec, n.Op = precMul, "mul"
	}
	return n
}
