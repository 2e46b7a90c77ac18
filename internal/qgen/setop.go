package qgen

import (
	"strconv"
	"strings"
)

// setOp is two or three SELECTs joined by UNION [ALL], EXCEPT or INTERSECT.
// MySQL binds INTERSECT tighter than UNION and EXCEPT, SQLite binds all
// alike from the left, and SQLite allows no parentheses around a SELECT:
// INTERSECT only joins the first two bare arms, where both read it alike.
// An arm may be parenthesized (setOpArm): its own ORDER BY and LIMIT, or
// a set operation nested in it, which SQLite reads from a derived table.
// INTERSECT ALL and EXCEPT ALL join two arms alone (setOpAll).
func (g *Gen) setOp(d int, ctes *[]*cte, named bool) sel {
	if d == 0 && !named && g.pct(15) {
		return g.setOpMixed() // setop_mixed.go
	}
	types := []Type{TInt}
	if g.pct(40) {
		types = append(types, []Type{TInt, TStr}[g.r.Intn(2)])
	}
	return g.setOpOf(d, types, ctes, named)
}

// setOpOf is setOp of output types types.
func (g *Gen) setOpOf(d int, types []Type, ctes *[]*cte, named bool) sel {
	if g.pct(12) {
		return g.setOpAll(d, types, ctes, named)
	}
	arms := 2 + g.r.Intn(2)
	first := g.setOpArm(d, types, named, ctes)
	s := sel{types: types, bounds: append([]int64{}, first.bounds...), rows: first.rows}
	kids := []*Node{first.node}
	format := "@"
	for i := 1; i < arms; i++ {
		ops := []string{"UNION", "UNION ALL", "EXCEPT"}
		if i == 1 {
			ops = append(ops, "INTERSECT")
		}
		arm := g.setOpArm(d, types, false, ctes)
		format += " " + ops[g.r.Intn(len(ops))] + " @"
		kids = append(kids, arm.node)
		s.rows += arm.rows
		for j := range s.bounds {
			s.bounds[j] = max(s.bounds[j], arm.bounds[j])
		}
	}
	s.node = mk(TNone, format, kids...)
	return s
}

// setOpArm is one SELECT of a set operation, or now and then one in
// parentheses: with ORDER BY every column and a LIMIT (so the rows it
// keeps are the same in both), or a set operation nested in it (d bounds
// the nesting). SQLite's side is SELECT * FROM (...), whose column names
// are the arm's.
func (g *Gen) setOpArm(d int, types []Type, named bool, ctes *[]*cte) sel {
	switch c := g.r.Intn(100); {
	case c < 15:
		arm := g.selectCore(d+1, types, named, ctes)
		order := g.orderBy(len(types), false, nil)
		arm.node = mk(TNone, "(@@)", arm.node, order).lite("SELECT * FROM (@@)")
		return arm
	case c < 25 && d < 1:
		arm := g.setOpOf(d+1, types, ctes, named)
		arm.node = mk(TNone, "(@)", arm.node).lite("SELECT * FROM (@)")
		return arm
	}
	return g.selectCore(d+1, types, named, ctes)
}

// setOpAll is A INTERSECT ALL B or A EXCEPT ALL B, which keep a row as
// many times as it is in A, at most (INTERSECT) or less (EXCEPT) as many
// times as in B. SQLite has neither: its side numbers the copies of each
// row in A and in B (ROW_NUMBER over a partition by every column, NULLs
// alike) and takes INTERSECT or EXCEPT of the numbered rows.
func (g *Gen) setOpAll(d int, types []Type, ctes *[]*cte, named bool) sel {
	a := g.setOpArm(d, types, named, ctes)
	b := g.setOpArm(d, types, false, ctes)
	op := g.pick("INTERSECT", "EXCEPT")
	var cols, outCols []string
	for i := range types {
		c := "c" + strconv.Itoa(i)
		cols = append(cols, c)
		if named {
			c += " AS x" + strconv.Itoa(i)
		}
		outCols = append(outCols, c)
	}
	list := strings.Join(cols, ", ")
	numbered := "SELECT " + list + ", ROW_NUMBER() OVER (PARTITION BY " + list + ") AS rn FROM "
	lite := "SELECT " + strings.Join(outCols, ", ") + " FROM (WITH la(" + list + ") AS (@), lb(" + list + ") AS (@) " +
		numbered + "la " + op + " " + numbered + "lb)"
	s := sel{types: types, bounds: append([]int64{}, a.bounds...), rows: a.rows + b.rows}
	for j := range s.bounds {
		s.bounds[j] = max(s.bounds[j], b.bounds[j])
	}
	s.node = mk(TNone, "@ "+op+" ALL @", a.node, b.node).lite(lite)
	return s
}
