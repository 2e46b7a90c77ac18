package qgen

import (
	"fmt"
	"strings"
)

// window is a window function call over sc's row columns, with the default
// frame (RANGE UNBOUNDED PRECEDING to CURRENT ROW, peers included, under an
// ORDER BY; the whole partition without one) in both engines, or a ROWS
// frame. Functions that tell apart rows an ORDER BY ties (ROW_NUMBER,
// NTILE, LAG, LEAD, ROWS frames) order by every column of the row, so
// rows still tied are equal in every output column, and any order among
// them gives the same multiset of rows. Two such calls could order twins
// differently, so a query has at most one.
func (g *Gen) window(sc *scope) *Node {
	arg := &scope{cols: sc.cols, rows: sc.rows}
	partition := txt(" ")
	if g.pct(60) {
		partition = txt("PARTITION BY " + g.someCols(sc.cols, 2) + " ").optional()
	}
	order := txt("ORDER BY " + g.orderItems(sc.cols, 2))
	if g.nrowNo == 0 && g.pct(35) {
		g.nrowNo++
		return g.positional(sc, arg, partition)
	}
	if g.pct(20) {
		if n := g.rangeWindow(sc, arg, partition); n != nil {
			return n
		}
	}
	var n *Node
	switch c := g.r.Intn(100); {
	case c < 30:
		n = mk(TInt, g.pick("RANK", "DENSE_RANK")+"() OVER (@@)", partition, order)
		n.Bound = sc.rows
	case c < 45:
		n = mk(TInt, "COUNT(*) OVER (@@)", partition, order.optional())
		n.Bound = sc.rows
	case c < 55:
		// The first row and the last peer under an order of every
		// column: rows that order ties are twins with equal values.
		n = mk(TInt, g.pick("FIRST_VALUE", "LAST_VALUE")+"(@) OVER (@@)", g.intExpr(arg, 2), partition, g.orderAll(sc))
		n.Bound = n.Kids[0].Bound
	default:
		fn := g.pick("SUM", "COUNT", "MIN", "MAX")
		n = mk(TInt, fn+"(@) OVER (@@)", g.intExpr(arg, 2), partition, order.optional())
		n.Bound = windowBound(fn, n.Kids[0].Bound, sc.rows)
	}
	return n.frozen()
}

// positional is a window function whose value depends on the order of
// tied rows, ordered by every column.
func (g *Gen) positional(sc, arg *scope, partition *Node) *Node {
	order := g.orderAll(sc)
	var n *Node
	switch c := g.r.Intn(100); {
	case c < 30:
		n = mk(TInt, "ROW_NUMBER() OVER (@@)", partition, order)
		n.Bound = sc.rows
	case c < 45:
		n = mk(TInt, fmt.Sprintf("NTILE(%d) OVER (@@)", 1+g.r.Intn(4)), partition, order)
		n.Bound = 4
	case c < 55:
		return g.valueInFrame(sc, arg, partition)
	case c < 75:
		offset, def := g.lagDefault()
		n = mk(TInt, g.pick("LAG", "LEAD")+"(@"+offset+") OVER (@@)", g.intExpr(arg, 2), partition, order)
		n.Bound = max(n.Kids[0].Bound, def)
	default:
		fn := g.pick("SUM", "COUNT", "MIN", "MAX")
		n = mk(TInt, fn+"(@) OVER (@@"+g.rowsFrame()+")", g.intExpr(arg, 2), partition, order)
		n.Bound = windowBound(fn, n.Kids[0].Bound, sc.rows)
	}
	return n.frozen()
}

// orderAll orders by every column of the row, each way round at random,
// quotient columns too (rows that differ only there are not twins; both
// sort them by the same digits: derived_quotient.go).
func (g *Gen) orderAll(sc *scope) *Node {
	var all []string
	for _, col := range append(append([]column{}, sc.cols...), sc.reals...) {
		all = append(all, col.ref+g.pick("", " DESC"))
	}
	return txt("ORDER BY " + strings.Join(all, ", "))
}

func windowBound(fn string, arg, rows int64) int64 {
	switch fn {
	case "SUM":
		return satMul(arg, rows)
	case "COUNT":
		return rows
	}
	return arg
}

// someCols is one to k distinct column references, comma separated.
func (g *Gen) someCols(cols []column, k int) string {
	var out []string
	for _, i := range g.r.Perm(len(cols))[:min(len(cols), 1+g.r.Intn(k))] {
		out = append(out, cols[i].ref)
	}
	return strings.Join(out, ", ")
}

// orderItems is like someCols with a random direction each.
func (g *Gen) orderItems(cols []column, k int) string {
	items := strings.Split(g.someCols(cols, k), ", ")
	for i := range items {
		items[i] += g.pick("", " DESC", " ASC")
	}
	return strings.Join(items, ", ")
}

// groupWindow is a window function over the groups of an aggregate query,
// ordered by an aggregate or a GROUP BY column; ROW_NUMBER orders by every
// GROUP BY column, which no two groups share.
func (g *Gen) groupWindow(asc *scope) *Node {
	var keyRefs []string
	for _, k := range asc.keys {
		keyRefs = append(keyRefs, k.ref)
	}
	orderTerm := func() string {
		ints := colsOf(asc.cols, TInt)
		if len(ints) == 0 || g.pct(30) {
			return keyRefs[g.r.Intn(len(keyRefs))]
		}
		c := ints[g.r.Intn(len(ints))]
		return g.pick("COUNT(*)", "SUM("+c.ref+")", "MAX("+c.ref+")", "COUNT("+c.ref+")") + g.pick("", " DESC")
	}
	partition := txt(" ")
	if len(keyRefs) > 1 && g.pct(50) {
		partition = txt("PARTITION BY " + keyRefs[0] + " ").optional()
	}
	rows := asc.rows
	var n *Node
	switch c := g.r.Intn(100); {
	case c < 20 && g.nrowNo == 0:
		g.nrowNo++
		n = mk(TInt, "ROW_NUMBER() OVER (@ORDER BY "+strings.Join(keyRefs, ", ")+")", partition)
		n.Bound = rows
	case c < 50:
		n = mk(TInt, g.pick("RANK", "DENSE_RANK")+"() OVER (@ORDER BY "+orderTerm()+")", partition)
		n.Bound = rows
	default:
		fn := g.pick("SUM", "MIN", "MAX", "COUNT")
		order := txt("ORDER BY " + orderTerm()).optional()
		n = mk(TInt, fn+"(@) OVER (@@)", g.aggregate(asc, TInt, 2), partition, order)
		n.Bound = windowBound(fn, n.Kids[0].Bound, rows)
	}
	return n.frozen()
}
