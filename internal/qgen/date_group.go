package qgen

import "fmt"

// dateGroup groups by a function of a DATE column (DATE_FORMAT, a part of
// it, date arithmetic, LAST_DAY), named again word for word in the select
// list as k0, SQLite's strftime or date() of the same text (dates.go).
func (g *Gen) dateGroup(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	dates := colsOf(cols, TDate)
	if len(dates) == 0 {
		return g.pivot(ctes)
	}
	e := dates[g.r.Intn(len(dates))].ref
	n := g.r.Intn(61) - 30
	var key *Node
	switch g.r.Intn(6) {
	case 0:
		f := g.pick("%Y-%m", "%Y", "%m/%d", "%Y%m%d")
		key = mk(TStr, "DATE_FORMAT("+e+", '"+f+"')").lite("strftime('" + f + "', " + e + ")")
	case 1:
		key = mk(TInt, "YEAR("+e+")").lite("CAST(strftime('%Y', " + e + ") AS INTEGER)")
		key.Bound = 9999
	case 2:
		key = mk(TInt, "MONTH("+e+")").lite("CAST(strftime('%m', " + e + ") AS INTEGER)")
		key.Bound = 12
	case 3:
		key = mk(TDate, fmt.Sprintf("DATE_ADD(%s, INTERVAL %d DAY)", e, n)).lite(fmt.Sprintf("date(%s, '%+d days')", e, n))
	case 4:
		key = mk(TDate, fmt.Sprintf("%s + INTERVAL %d DAY", e, n)).lite(fmt.Sprintf("date(%s, '%+d days')", e, n))
	default:
		key = mk(TDate, "LAST_DAY("+e+")").lite("date(" + e + ", 'start of month', '+1 month', '-1 day')")
	}
	key.frozen()
	asc := &scope{cols: cols, agg: true, rows: rows}
	cnt := mk(TInt, "COUNT(*)")
	cnt.Bound = rows
	items := []*Node{key, cnt}
	for k := g.r.Intn(3); k > 0; k-- {
		items = append(items, g.conditionalAgg(asc, &scope{cols: cols, rows: rows}))
	}
	out := itemsSel(items, rows)
	having := txt("")
	if g.pct(25) {
		// Whole dates against a DATE key: MySQL 8.0 refuses a string
		// that names no date there (1525 Incorrect DATE value: '2000').
		bound := g.pick("> '2000'", "< '2024-02'")
		if key.Type == TDate {
			bound = g.pick("> '2000-01-01'", "< '2024-02-01'")
		}
		having = txt(" HAVING k0 " + g.pick("IS NULL", "IS NOT NULL", bound, bound)).optional()
	}
	sc := &scope{cols: cols, rows: rows}
	list := mk(TNone, "@ AS k0, @", key, selectList(items[1:], false))
	out.node = mk(TNone, "SELECT @ FROM @@ GROUP BY @@", list, from, g.where(sc, conds), key, having)
	return out
}
