package qgen

import "strconv"

// setOpMixed is three one-column SELECTs, an integer, a DECIMAL(6,2) and a
// string in random order, joined by UNION or UNION ALL. MySQL takes the
// column's type over all three at once (a string) and converts each
// SELECT's values from their own type: the integer 7 is '7' and the
// DECIMAL 1.50 is '1.50', whatever SELECT comes first. SQLite keeps each
// value's own type, so its side writes them as that text: CAST AS TEXT
// for the integers, printf('%.2f') for the DECIMALs (NULL kept NULL).
// Pool strings are letters, never the text of a number, so both
// deduplicate alike.
func (g *Gen) setOpMixed() sel {
	arms := []*Node{g.mixedIntArm(), g.mixedDecArm(), g.mixedStrArm()}
	g.r.Shuffle(len(arms), func(i, j int) { arms[i], arms[j] = arms[j], arms[i] })
	format := "@"
	for range arms[1:] {
		format += " " + g.pick("UNION", "UNION ALL") + " @"
	}
	return sel{node: mk(TNone, format, arms...), types: []Type{TStr}, bounds: []int64{0}, rows: 24 + 10 + 16}
}

// mixedArm is SELECT col FROM table, maybe WHERE filter (optional).
func (g *Gen) mixedArm(mysqlCol, liteCol, table, filter string) *Node {
	where := txt("")
	if filter != "" && g.pct(50) {
		where = txt(" WHERE " + filter).optional()
	}
	return mk(TNone, "SELECT "+mysqlCol+" FROM "+table+"@", where).lite("SELECT " + liteCol + " FROM " + table + "@")
}

func (g *Gen) mixedIntArm() *Node {
	col := g.pick("a", "b", "c", "a + 1", "c * 2", "-a")
	k := strconv.Itoa(g.r.Intn(5) - 1)
	return g.mixedArm(col, "CAST("+col+" AS TEXT)", "t1", "a > "+k)
}

func (g *Gen) mixedDecArm() *Node {
	col := g.pick("d", "d", "d * 2", "d + 1")
	table := g.pick("t1", "t3")
	lite := "CASE WHEN " + col + " IS NULL THEN NULL ELSE printf('%.2f', " + col + ") END"
	return g.mixedArm(col, lite, table, "c < "+strconv.Itoa(g.r.Intn(10)))
}

func (g *Gen) mixedStrArm() *Node {
	table := g.pick("t1", "t2")
	return g.mixedArm("s", "s", table, "s <> 'a'")
}
