package qgen

import (
	"strconv"
	"strings"
)

// fromClause is one to three tables (base tables, derived tables, WITH
// queries) joined all by commas, with their join conditions returned for
// the WHERE, or all by explicit joins: MySQL binds a comma looser than
// JOIN and SQLite does not, so an ON naming a table left of a comma means
// different things (or an error) in the two. Every column is named with
// its table's alias. FULL JOIN is left out (MySQL has none).
func (g *Gen) fromClause(d int, ctes *[]*cte) (*Node, []column, int64, []*Node) {
	n := 1
	if c := g.r.Intn(100); c < 45 {
		n = 2
	} else if c < 65 && d == 0 && !g.big {
		n = 3
	} else if c < 70 && d == 0 && !g.big {
		n = 4
	}
	var cols, reals []column
	var conds []*Node
	rows := int64(1)
	var from *Node
	comma := g.pct(50)
	defer func() { g.reals = reals }()
	for i := 0; i < n; i++ {
		item, icols, irows := g.fromItem(d, ctes)
		all := icols
		icols, r := takeReals(icols)
		reals = append(reals, r...)
		if i > 0 && g.big && g.joinEquality(cols, icols) == nil {
			break // no cross product of big tables
		}
		rows *= max(irows, 1)
		switch {
		case i == 0:
			from = item
		case comma:
			from = mk(TNone, "@, @", from, item)
			if c := g.joinEquality(cols, icols); c != nil && (g.pct(70) || g.big) {
				conds = append(conds, c)
			}
		default:
			join := g.pick("JOIN", "INNER JOIN", "LEFT JOIN", "LEFT JOIN", "RIGHT JOIN", "CROSS JOIN")
			eq := g.joinEquality(cols, icols)
			if g.big && eq != nil {
				join = g.pick("JOIN", "LEFT JOIN", "RIGHT JOIN")
			}
			if join == "CROSS JOIN" {
				from = mk(TNone, "@ CROSS JOIN @", from, item)
				break
			}
			if using := g.using(append(cols, reals...), all); i == 1 && using != "" && g.pct(20) {
				join = strings.TrimPrefix(join, "INNER ")
				if using == "NATURAL" {
					from = mk(TNone, "@ NATURAL "+join+" @", from, item)
				} else {
					from = mk(TNone, "@ "+join+" @ "+using, from, item)
				}
				break
			}
			on := g.pred(&scope{cols: append(append([]column{}, cols...), icols...), rows: rows, subq: d == 0 && !g.big}, 2)
			if c := eq; c != nil && (g.pct(75) || g.big) {
				on = c
				if g.pct(30) {
					on = and(c, g.pred(&scope{cols: append(append([]column{}, cols...), icols...), rows: rows}, 2))
				}
			}
			from = mk(TNone, "@ "+join+" @ ON @", from, item, on)
		}
		cols = append(cols, icols...)
	}
	return from, cols, rows, conds
}

// using is "USING (x)" for an integer column name x both sides have,
// "NATURAL" where every name both have is of one type on both sides (a
// NATURAL JOIN of columns of two types compares them across types, where
// MySQL and SQLite convert differently), "" when neither fits. Only the
// first join takes them: a name on two tables left of a later USING is
// resolved differently. Columns stay named by alias, which both allow.
func (g *Gen) using(left, right []column) string {
	name := func(c column) string { return c.ref[strings.IndexByte(c.ref, '.')+1:] }
	var common []string
	sameTypes := true
	for _, l := range left {
		for _, r := range right {
			if name(l) == name(r) {
				sameTypes = sameTypes && l.typ == r.typ && l.typ != TReal && !strings.ContainsAny(l.ref+r.ref, " (")
				if l.typ == TInt {
					common = append(common, name(l))
				}
			}
		}
	}
	switch {
	case len(common) == 0 || !sameTypes:
		return ""
	case g.pct(25):
		return "NATURAL"
	}
	return "USING (" + common[g.r.Intn(len(common))] + ")"
}

// joinEquality is left.x = right.y on integer columns, or nil; now and
// then on string columns (whose dictionaries differ between tables) or
// DATE columns where both sides have them, or with left.x masked
// unsigned, or NULL-safe (<=>).
func (g *Gen) joinEquality(left, right []column) *Node {
	t := TInt
	if g.pct(25) {
		t = g.pick2(TStr, TDate)
		if len(colsOf(left, t)) == 0 || len(colsOf(right, t)) == 0 {
			t = TInt
		}
	}
	l, r := colsOf(left, t), colsOf(right, t)
	if len(l) == 0 || len(r) == 0 {
		return nil
	}
	lk := colNode(l[g.r.Intn(len(l))])
	if t == TInt && g.pct(10) {
		// BIGINT UNSIGNED (a masked bit) against a signed column: MySQL
		// compares the two as DECIMAL(20,0), a key of more than 18 digits
		// that the bitmap and direct-array joins cannot index.
		lk = mk(TInt, "((@) & 1023)", lk)
	}
	eq := cmp(mk(TBool, "@ = @", lk, colNode(r[g.r.Intn(len(r))])))
	if g.pct(12) {
		// NULL-safe equality: a NULL key joins the other side's NULLs,
		// which a hash join must not drop as it drops them for '='.
		eq = cmp(mk(TBool, "@ <=> @", lk, eq.Kids[1]).lite("@ IS @"))
	}
	if l2, r2 := colsOf(left, TInt), colsOf(right, TInt); g.pct(20) && len(l2) > 0 && len(r2) > 0 {
		// A key of two columns (the second maybe the same pair again).
		eq = and(eq, cmp(mk(TBool, "@ = @", colNode(l2[g.r.Intn(len(l2))]), colNode(r2[g.r.Intn(len(r2))]))))
	}
	return eq
}

// fromItem is a base table, a derived table or a WITH query (where ctes
// is not nil), under a fresh alias.
func (g *Gen) fromItem(d int, ctes *[]*cte) (*Node, []column, int64) {
	if d == 0 && g.pct(6) {
		return g.quotientDerived()
	}
	if d <= 1 && g.pct(5) {
		return g.passThrough(1)
	}
	switch c := g.r.Intn(100); {
	case c < 12 && d == 0 || c < 5 && d == 1:
		var body sel
		if g.pct(20) {
			body = g.setOp(d+1, ctes, true)
		} else {
			body = g.selectCore(d+1, nil, true, ctes)
		}
		if g.pct(20) {
			// A LIMIT under an ORDER BY of every column picks the
			// same rows in both.
			body.node = mk(TNone, "@@", body.node, g.orderBy(len(body.types), false, nil))
		}
		a := g.alias()
		return mk(TNone, "(@) AS "+a, body.node), outputCols(a, body), body.rows
	case c < 24 && ctes != nil && (len(*ctes) > 0 || !g.inCTE):
		var q *cte
		if len(*ctes) > 0 && (g.pct(40) || g.inCTE) {
			q = (*ctes)[g.r.Intn(len(*ctes))]
		} else if g.pct(25) {
			q = g.recursiveCTE("w" + strconv.Itoa(len(*ctes)+1))
			*ctes = append(*ctes, q)
		} else {
			// A WITH query's body may read the WITH queries before it
			// (a copy of the list, which it cannot add to: inCTE), so
			// it never names a later one.
			q = &cte{name: "w" + strconv.Itoa(len(*ctes)+1)}
			before := append([]*cte{}, (*ctes)...)
			g.inCTE = true
			q.body = g.selectCore(1, nil, true, &before)
			g.inCTE = false
			*ctes = append(*ctes, q)
		}
		a := g.alias()
		return txt(q.name + " AS " + a), outputCols(a, q.body), q.body.rows
	}
	return g.baseTable(false)
}

// outputCols are the columns x0, x1, ... of a named SELECT under alias a.
func outputCols(a string, s sel) []column {
	var cols []column
	for i, t := range s.types {
		cols = append(cols, column{ref: a + ".x" + strconv.Itoa(i), typ: t, bound: s.bounds[i]})
	}
	return cols
}
