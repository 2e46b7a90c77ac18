package qgen

import "strings"

// window is a window function call over sc's row columns, with the default
// frame (RANGE UNBOUNDED PRECEDING to CURRENT ROW, peers included, under an
// ORDER BY; the whole partition without one) in both engines. ROW_NUMBER
// numbers tied rows in an unspecified order, so its ORDER BY lists every
// column of the row: rows it still ties are equal in every output column.
// A second ROW_NUMBER could number such twins the other way round, so a
// query has at most one.
func (g *Gen) window(sc *scope) *Node {
	arg := &scope{cols: sc.cols, rows: sc.rows}
	partition := txt(" ")
	if g.pct(60) {
		partition = txt("PARTITION BY " + g.someCols(sc.cols, 2) + " ").optional()
	}
	order := txt("ORDER BY " + g.orderItems(sc.cols, 2))
	var n *Node
	switch c := g.r.Intn(100); {
	case c < 20 && g.nrowNo == 0:
		g.nrowNo++
		var all []string
		for _, col := range sc.cols {
			all = append(all, col.ref)
		}
		n = mk(TInt, "ROW_NUMBER() OVER (@@)", partition, txt("ORDER BY "+strings.Join(all, ", ")))
		n.Bound = sc.rows
	case c < 40:
		n = mk(TInt, g.pick("RANK", "DENSE_RANK")+"() OVER (@@)", partition, order)
		n.Bound = sc.rows
	case c < 55:
		n = mk(TInt, "COUNT(*) OVER (@@)", partition, order.optional())
		n.Bound = sc.rows
	default:
		fn := g.pick("SUM", "COUNT", "MIN", "MAX")
		n = mk(TInt, fn+"(@) OVER (@@)", g.intExpr(arg, 2), partition, order.optional())
		n.Bound = n.Kids[0].Bound
		if fn == "SUM" {
			n.Bound *= sc.rows
		}
		if fn == "COUNT" {
			n.Bound = sc.rows
		}
	}
	return n.frozen()
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
