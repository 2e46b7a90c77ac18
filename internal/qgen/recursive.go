package qgen

import "fmt"

// recursiveCTE is a WITH RECURSIVE counter: from a start (a literal, or
// the values of a small table's integer column below the limit) up by a
// step while below a limit, with the counter modulo 3 beside it; UNION
// drops the rows it has seen, in both. Its columns are x0 and x1 like any
// named SELECT's. The anchor's literal is typed BIGINT by MySQL, so the
// counter never overflows its column. A literal anchor's counter, one row
// a round, may end with a LIMIT [OFFSET] over the UNION, which stops the
// recursion in both (MySQL 8.0.19+, SQLite); a table's anchor gives
// several rows a round, in an order neither fixes, so it takes none.
func (g *Gen) recursiveCTE(name string) *cte {
	step := 1 + g.r.Intn(3)
	limit := g.r.Intn(12)
	anchor := fmt.Sprintf("SELECT %d AS x0, %d AS x1", g.r.Intn(5)-2, g.r.Intn(3))
	rows := int64(limit + 3)
	if g.pct(40) {
		t := tables[1+g.r.Intn(len(tables)-1)] // not t1: it may be big
		anchor = fmt.Sprintf("SELECT q.a AS x0, 0 AS x1 FROM %s AS q WHERE q.a BETWEEN -5 AND %d", t.name, limit)
		rows *= int64(t.maxRows)
	}
	union := g.pick("UNION ALL", "UNION ALL", "UNION")
	body := fmt.Sprintf("%s %s SELECT x0 + %d, (x0 + %d) %% 3 FROM %s WHERE x0 < %d", anchor, union, step, step, name, limit)
	if rows == int64(limit+3) && g.pct(30) {
		body += fmt.Sprintf(" LIMIT %d", g.r.Intn(6))
		if g.pct(40) {
			body += fmt.Sprintf(" OFFSET %d", g.r.Intn(3))
		}
	}
	return &cte{name: name, recursive: true, body: sel{node: txt(body), types: []Type{TInt, TInt},
		bounds: []int64{int64(limit + step + 5), 2}, rows: rows}}
}
