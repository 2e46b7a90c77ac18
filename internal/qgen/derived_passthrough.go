package qgen

import (
	"strconv"
	"strings"
)

// passThrough is a derived table that renames the columns of a base
// table, or of another such derived table, in a shuffled order, with a
// WHERE now and then, and now and then computes an integer one (c + k,
// c * k, kept far from overflow). MySQL merges it into the outer query,
// so what the binder says of a column (its name in an error: the column
// or the expression under it, its type, its origin for a plan) must see
// through it to the table's; SQLite reads it as any subquery, and the
// answers must agree.
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
		out[i] = cols[j]
		out[i].ref = a + "." + x
		list[i] = cols[j].ref + " AS " + x
		if c := cols[j]; c.typ == TInt && c.bound < 1<<40 && g.pct(20) {
			k := int64(1 + g.r.Intn(9))
			op := g.pick("+", "*")
			list[i] = "(" + c.ref + " " + op + " " + strconv.FormatInt(k, 10) + ") AS " + x
			out[i].bound = c.bound + k
			if op == "*" {
				out[i].bound = c.bound * k
			}
		}
	}
	body := "SELECT " + strings.Join(list, ", ") + " FROM @"
	kids := []*Node{item}
	if g.pct(40) {
		body += " WHERE @"
		kids = append(kids, g.pred(&scope{cols: cols, rows: rows}, 1))
	}
	return mk(TNone, "("+body+") AS "+a, kids...), out, rows
}
