package qgen

import (
	"fmt"
	"strings"
)

// windowQuery is a whole statement of several window calls, each with its
// own PARTITION BY and ORDER BY (columns or expressions of them: a % 3,
// s IS NULL, CASE), over the rows of a FROM clause (joins too) or over
// the groups of a GROUP BY. Now and then an outer query filters the
// window columns (WHERE x1 <= 2), or the ORDER BY sorts by a window call
// before every output column, maybe with a LIMIT. Tie rules are
// window.go's: the query's one positional call (ROW_NUMBER, a ROWS frame)
// orders by every column, the others read whole peer groups.
func (g *Gen) windowQuery(ctes *[]*cte) *Node {
	var s sel
	var wins []int
	var key func() *Node
	if g.pct(30) {
		s, wins, key = g.groupWindows(ctes)
	} else {
		s, wins, key = g.rowWindows(ctes)
	}
	n := s.node
	if g.pct(35) {
		n = g.filterWindows(s, wins)
		key = nil // the outer query has no window to sort by
	}
	if g.pct(50) {
		var k *Node
		if key != nil && g.pct(50) {
			k = key()
		}
		n = mk(TNone, "@@", n, g.orderBy(len(s.types), true, k))
	}
	return withClause(*ctes, n)
}

// rowWindows is SELECT cols, window calls FROM ... [WHERE ...]; wins are
// the window items' positions; key writes another call over the rows.
func (g *Gen) rowWindows(ctes *[]*cte) (sel, []int, func() *Node) {
	from, cols, rows, conds := g.fromClause(0, ctes)
	sc := &scope{cols: cols, rows: rows, reals: g.reals}
	var items []*Node
	var wins []int
	for k := g.r.Intn(3); k > 0; k-- {
		items = append(items, colNode(cols[g.r.Intn(len(cols))]))
	}
	var last [2]string
	for k := 2 + g.r.Intn(3); k > 0; k-- {
		wins = append(wins, len(items))
		items = append(items, g.rowWindow(sc, &last))
	}
	s := sel{rows: rows}
	for _, it := range items {
		s.types, s.bounds = append(s.types, it.Type), append(s.bounds, it.Bound)
	}
	s.node = mk(TNone, "SELECT @ FROM @@", selectListAs(items, "x"), from, g.where(sc, conds))
	return s, wins, func() *Node { return g.rowWindow(sc, &last) }
}

// rowWindow is one window call over sc's rows. Now and then it takes
// the partition of the call before it (*last) and that call's order keys
// turned the other way, so that calls whose windows differ only there
// meet in one query.
func (g *Gen) rowWindow(sc *scope, last *[2]string) *Node {
	arg := &scope{cols: sc.cols, rows: sc.rows}
	part := g.windowPartition(sc.cols)
	order := "ORDER BY " + g.windowOrder(sc.cols)
	if last[1] != "" && g.pct(35) {
		part, order = last[0], flipOrder(last[1])
	}
	if g.nrowNo == 0 && g.pct(25) {
		g.nrowNo++
		all := g.orderAll(sc).SQL(MySQL)
		if g.pct(50) {
			n := mk(TInt, "ROW_NUMBER() OVER ("+part+all+")")
			n.Bound = sc.rows
			return n.frozen()
		}
		fn := g.pick("SUM", "COUNT", "MIN", "MAX")
		n := mk(TInt, fn+"(@) OVER ("+part+all+" ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", g.intExpr(arg, 2))
		n.Bound = g.windowAggBound(n, fn, sc.rows)
		return n.frozen()
	}
	*last = [2]string{part, order}
	var n *Node
	switch c := g.r.Intn(100); {
	case c < 35:
		n = mk(TInt, g.pick("RANK", "DENSE_RANK")+"() OVER ("+part+order+")")
		n.Bound = sc.rows
	case c < 50:
		n = mk(TInt, "COUNT(*) OVER ("+part+g.peerFrame(order)+")")
		n.Bound = sc.rows
	default:
		fn := g.pick("SUM", "COUNT", "MIN", "MAX")
		n = mk(TInt, fn+"(@) OVER ("+part+g.peerFrame(order)+")", g.intExpr(arg, 2))
		n.Bound = g.windowAggBound(n, fn, sc.rows)
	}
	n.frozen()
	if g.pct(15) {
		// A window call inside an expression: the select item is
		// computed after the window, from its value.
		i := g.r.Intn(4)
		b := n.Bound
		n = mk(TInt, []string{"@ + 1", "@ * 2", "- @", "COALESCE(@, -1)"}[i], n)
		n.Bound, n.Prec = satAdd(satMul(b, 2), 1), []int{precAdd, precMul, precUnary, 0}[i]
	}
	return n
}

// flipOrder turns each key of an ORDER BY the other way round.
func flipOrder(order string) string {
	keys := splitTop(strings.TrimPrefix(order, "ORDER BY "))
	for i, k := range keys {
		switch {
		case strings.HasSuffix(k, " DESC"):
			keys[i] = strings.TrimSuffix(k, " DESC")
		case strings.HasSuffix(k, " ASC"):
			keys[i] = strings.TrimSuffix(k, " ASC") + " DESC"
		default:
			keys[i] = k + " DESC"
		}
	}
	return "ORDER BY " + strings.Join(keys, ", ")
}

// splitTop splits a list at the commas outside parentheses.
func splitTop(list string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range list {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			out = append(out, list[start:i])
			start = i + 2 // ", "
		}
	}
	return append(out, list[start:])
}

// peerFrame is an ORDER BY with a frame whose rows do not depend on how
// its ties are ordered, or no ORDER BY (the whole partition).
func (g *Gen) peerFrame(order string) string {
	switch g.r.Intn(5) {
	case 0:
		return ""
	case 1:
		return order + " RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
	case 2:
		return order + " RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
	case 3:
		return order + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
	}
	return order
}

// windowPartition is "" or PARTITION BY one or two keys and a space.
func (g *Gen) windowPartition(cols []column) string {
	if g.pct(30) {
		return ""
	}
	var keys []string
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		keys = append(keys, g.windowKey(cols))
	}
	return "PARTITION BY " + strings.Join(keys, ", ") + " "
}

// windowOrder is one or two keys, each ASC, DESC or neither: NULLs come
// first going up and last going down, in both.
func (g *Gen) windowOrder(cols []column) string {
	var keys []string
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		keys = append(keys, g.windowKey(cols)+g.pick("", " DESC", " ASC"))
	}
	return strings.Join(keys, ", ")
}

// windowKey is a column or an expression of one, whose values both
// engines compute alike (% keeps the dividend's sign in both).
func (g *Gen) windowKey(cols []column) string {
	c := cols[g.r.Intn(len(cols))]
	ints, strs := colsOf(cols, TInt), colsOf(cols, TStr)
	switch g.r.Intn(8) {
	case 0:
		if len(ints) > 0 {
			return ints[g.r.Intn(len(ints))].ref + " % 3"
		}
	case 1:
		if len(strs) > 0 {
			return strs[g.r.Intn(len(strs))].ref + g.pick(" IS NULL", " IS NOT NULL")
		}
	case 2:
		if len(ints) > 0 {
			i := ints[g.r.Intn(len(ints))].ref
			return fmt.Sprintf("CASE WHEN %s > %d THEN 'p' WHEN %s IS NULL THEN 'n' ELSE 'q' END", i, g.r.Intn(5)-1, i)
		}
	case 3:
		if len(ints) > 0 {
			return "COALESCE(" + ints[g.r.Intn(len(ints))].ref + ", -1)"
		}
	case 4:
		if len(strs) > 0 {
			return "CASE " + strs[g.r.Intn(len(strs))].ref + " WHEN '' THEN 0 WHEN 'a' THEN 1 ELSE 2 END"
		}
	}
	return c.ref
}

// filterWindows reads s as a derived table and keeps the rows whose
// window column passes a test (the top-N per group idiom).
func (g *Gen) filterWindows(s sel, wins []int) *Node {
	a := g.alias()
	col := fmt.Sprintf("%s.x%d", a, wins[g.r.Intn(len(wins))])
	cond := g.pick(col+" <= ", col+" = ", col+" > ", col+" < ") + fmt.Sprint(1+g.r.Intn(3))
	if g.pct(20) {
		cond += fmt.Sprintf(" AND %s.x%d IS NOT NULL", a, wins[g.r.Intn(len(wins))])
	}
	return mk(TNone, "SELECT * FROM (@) AS "+a+"@", s.node, txt(" WHERE "+cond).optional())
}

// windowAggBound is the bound of n, fn(x) OVER (...), over at most rows
// rows; a SUM that could pass sumBound becomes MAX, as agg.go's does.
func (g *Gen) windowAggBound(n *Node, fn string, rows int64) int64 {
	b := windowBound(fn, n.Kids[0].Bound, rows)
	if fn == "SUM" && b > g.sumBound {
		n.Parts[0] = "MAX" + strings.TrimPrefix(n.Parts[0], "SUM")
		return n.Kids[0].Bound
	}
	return b
}
