package qgen

import (
	"strconv"
	"strings"
)

// passThrough is a derived table that only renames the columns of a base
// table, or of another such derived table, in a shuffled order, with a
// WHERE now and then. MySQL merges it into the outer query, so what the
// binder says of a column (its name in an error, its type, its origin for
// a plan) must see through it to the table's; SQLite reads it as any
// subquery, and the answers must agree.
func (g *Gen) passThrough(depth int) (*Node, []column, int64) {
	item, cols, rows := g.baseTable(false)
	if depth > 0 && g.pct(40) {
		item, cols, rows = g.passThrough(depth - 1)
	}
	a := g.alias()
	list := make([]string, len(cols))
	out := make([]column, len(cols))
	for i, j := range g.r.Perm(len(cols)) {
		x := "x" + strconv.Itoa(i)
		list[i] = cols[j].ref + " AS " + x
		out[i] = cols[j]
		out[i].ref = a + "." + x
	}
	body := "SELECT " + strings.Join(list, ", ") + " FROM @"
	kids := []*Node{item}
	if g.pct(40) {
		body += " WHERE @"
		kids = append(kids, g.pred(&scope{cols: cols, rows: rows}, 1))
	}
	return mk(TNone, "("+body+") AS "+a, kids...), out, rows
}
