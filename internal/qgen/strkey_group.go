package qgen

import "fmt"

// strKeyGroup groups by a string function of a string column, named
// again word for word in the select list: NULL and ” are different
// groups, and functions of them (SUBSTR of ”, CONCAT with NULL,
// NULLIF(s, ”), COALESCE(s, ”)) may merge or split them.
func (g *Gen) strKeyGroup(ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(0, ctes)
	strs := colsOf(cols, TStr)
	if len(strs) == 0 {
		return g.groupScalar(ctes)
	}
	s := strs[g.r.Intn(len(strs))].ref
	keys := []string{
		"NULLIF(" + s + ", '')", "COALESCE(" + s + ", '')", "IFNULL(" + s + ", 'null')",
		fmt.Sprintf("SUBSTR(%s, %d, %d)", s, 1+g.r.Intn(3), g.r.Intn(3)),
		"CONCAT(" + s + ", 'x')", "CONCAT_WS('-', " + s + ", " + s + ")", "REPLACE(" + s + ", 'a', '')",
		"TRIM(" + s + ")", "LEFT(" + s + ", 1)", "REPEAT(" + s + ", 2)", "LOWER(" + s + ")",
	}
	lite := map[int]string{4: "(" + s + " || 'x')", 8: "SUBSTR(" + s + ", 1, 1)", 9: "(" + s + " || " + s + ")"}
	i := g.r.Intn(len(keys))
	key := mk(TStr, keys[i])
	if l, ok := lite[i]; ok {
		key.lite(l)
	}
	key.frozen()
	asc := &scope{cols: cols, agg: true, rows: rows}
	items := []*Node{key}
	cnt := mk(TInt, "COUNT(*)")
	cnt.Bound = rows
	items = append(items, cnt)
	if g.pct(60) {
		items = append(items, g.aggregate(asc, TInt, 1))
	}
	if g.pct(40) {
		lk := mk(TInt, "LENGTH(@)", key)
		lk.Bound = 20
		items = append(items, lk)
	}
	out := itemsSel(items, rows)
	having := txt("")
	if g.pct(25) {
		// By the key's alias: MySQL's HAVING sees the select list and
		// GROUP BY columns, not the column under a GROUP BY expression
		// (1054 Unknown column 'q1.s' in 'having clause').
		having = txt(" HAVING k0 " + g.pick("IS NULL", "IS NOT NULL", "= ''", "<> ''")).optional()
	}
	sc := &scope{cols: cols, rows: rows}
	list := mk(TNone, "@ AS k0, @", key, selectList(items[1:], false))
	out.node = mk(TNone, "SELECT @ FROM @@ GROUP BY @@", list, from, g.where(sc, conds), key, having)
	return out
}
