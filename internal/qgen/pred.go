package qgen

import "fmt"

// pred is a predicate. Both engines follow SQL's three-valued logic for
// comparisons, IN lists, NOT IN over NULLs, BETWEEN and the connectives,
// and both give 1 and 0 for true and false. LIKE patterns are lower case
// without escapes (MySQL's default collation ignores case, SQLite's LIKE
// ignores ASCII case). ANY / ALL subqueries are spelled out for SQLite
// (quantified.go).
func (g *Gen) pred(sc *scope, d int) *Node {
	if d >= maxDepth {
		return g.compare(sc, d)
	}
	p := func() *Node { return g.pred(sc, d+1) }
	switch c := g.r.Intn(100); {
	case c < 30:
		if g.pct(10) {
			return g.stringNumberCompare(sc, d) // mixed_string.go
		}
		return g.compare(sc, d)
	case c < 38:
		return cmp(mk(TBool, "@ IS "+g.pick("", "NOT ")+"NULL", g.typed(sc, g.pickType(sc), d+1)))
	case c < 46:
		if g.pct(25) {
			return g.mixedNumeric(sc, d) // mixed_numeric.go
		}
		if g.pct(25) {
			return g.betweenNull(sc, d) // between_null.go
		}
		if g.pct(15) {
			if n := g.mixedTypeBetween(sc, d); n != nil { // mixed_in.go
				return n
			}
		}
		t := g.pickType(sc)
		return cmp(mk(TBool, "@ "+g.pick("", "NOT ")+"BETWEEN @ AND @", g.typed(sc, t, d+1), g.typed(sc, t, d+1), g.typed(sc, t, d+1)))
	case c < 55:
		if g.pct(15) {
			if n := g.mixedTypeIn(sc, d); n != nil { // mixed_in.go
				return n
			}
		}
		return g.inList(sc, d)
	case c < 61:
		n := mk(TBool, "NOT @", p())
		n.Prec = precNot
		return n
	case c < 75:
		if g.pct(50) {
			return and(p(), p())
		}
		n := mk(TBool, "@ OR @", p(), p())
		n.Prec = precOr
		return n
	case c < 79:
		if g.pct(30) {
			return g.likeEscape(sc, d)
		}
		if g.pct(15) {
			return g.likeMultibyte(sc, d) // like_multibyte.go
		}
		return cmp(mk(TBool, fmt.Sprintf("@ %sLIKE '%s'", g.pick("", "NOT "), g.pick("a%", "%b%", "_", "%a", "h_llo", "%")), g.strExpr(sc, d+1)))
	case c < 82:
		// An integer as a truth value: true when not zero, in both.
		// Its value is the integer's (under (@) in intExpr too).
		n := mk(TBool, "@", g.intExpr(sc, d+1))
		n.Prec, n.Bound = precSame, n.Kids[0].Bound
		return n
	case c < 85:
		return cmp(mk(TBool, "@ IS "+g.pick("", "NOT ")+g.pick("TRUE", "FALSE"), p()))
	case c < 86:
		// MySQL's XOR (NULL with a NULL operand), SQLite has none.
		return mk(TBool, "((@) XOR (@))", p(), p()).lite("(((@) <> 0) <> ((@) <> 0))")
	case c < 87:
		n := mk(TBool, "@ && @", p(), p()).lite("@ AND @")
		n.Prec = precAnd
		return n
	case c < 88 && sc.subq:
		return g.existsSubquery(sc, d)
	case c < 93 && sc.subq:
		return g.inSubquery(sc, d)
	case c < 96 && sc.subq && !sc.agg:
		// Not over aggregates: SQLite's side reads x in a derived
		// table, where an aggregate would be that table's own.
		return g.quantifiedSubquery(sc, d)
	case c < 98 && !sc.agg:
		// Not over aggregates: SQLite 3.40 to 3.49 answer (-5, 1) NOT IN
		// ((SUM(1), NULL)) over no rows TRUE, where SUM(1) is NULL and
		// the answer NULL, as for NOT IN ((NULL, NULL)).
		return g.rowCompare(sc, d)
	case c < 100 && divisions && g.valueBound == valueBound:
		// Not over wide data: MySQL cuts 1 / 2147483647 to 0.000000000,
		// so 1 / a > 0 is false there, true for SQLite's double.
		return g.quotientCompare(sc, d)
	}
	return g.compare(sc, d)
}

// rowCompare compares two-value rows: (a, b) op (c, d), (a, b) [NOT] IN
// ((c, d), ...), or (a, b) [NOT] IN (SELECT x, y ...). Both engines compare
// rows left to right, the first unequal pair deciding and a NULL where it
// is unknown, as MySQL's manual spells out: (a, b) < (c, d) is a < c OR
// (a = c AND b < d).
func (g *Gen) rowCompare(sc *scope, d int) *Node {
	t1, t2 := g.pickType(sc), g.pickType(sc)
	row := func() *Node { return mk(TNone, "(@, @)", g.typed(sc, t1, d+1), g.typed(sc, t2, d+1)) }
	switch c := g.r.Intn(3); {
	case c == 0:
		return cmp(mk(TBool, "@ "+g.pick("=", "<>", "<", "<=", ">", ">=")+" @", row(), row()))
	case c == 1 || !sc.subq:
		format, kids := "@ "+g.pick("", "NOT ")+"IN (@", []*Node{row(), row()}
		for k := g.r.Intn(3); k > 0; k-- {
			kids = append(kids, mk(TNone, ", @", row()).optional())
			format += "@"
		}
		return cmp(mk(TBool, format+")", kids...))
	}
	from, inner, rows := g.baseTable(true)
	isc := &scope{cols: inner, rows: rows}
	return cmp(mk(TBool, "@ "+g.pick("", "NOT ")+"IN (SELECT @, @ FROM @@)", row(), g.typed(isc, t1, d+2), g.typed(isc, t2, d+2),
		from, g.innerWhere(inner, sc, d))).frozen()
}

func (g *Gen) compare(sc *scope, d int) *Node {
	t := g.pickType(sc)
	op := g.pick("=", "<>", "<", "<=", ">", ">=", "!=", "<=>")
	n := cmp(mk(TBool, "@ "+op+" @", g.typed(sc, t, d+1), g.typed(sc, t, d+1)))
	if op == "<=>" {
		n.lite("@ IS @") // NULL-safe equality in SQLite's words
	}
	return n
}

// inList is [NOT] IN over a list of one to four expressions of one type,
// or now and then of many literals (a NULL among them at times), which an
// engine may test with a hash set rather than comparison by comparison.
func (g *Gen) inList(sc *scope, d int) *Node {
	t := g.pickType(sc)
	if g.pct(12) && (t == TInt || t == TStr) {
		return g.longInList(sc, t, d)
	}
	kids := []*Node{g.typed(sc, t, d+1), g.typed(sc, t, d+1)}
	format := "@ " + g.pick("", "NOT ") + "IN (@"
	for k := g.r.Intn(4); k > 0; k-- {
		kids = append(kids, mk(TNone, ", @", g.typed(sc, t, d+1)).optional())
		format += "@"
	}
	return cmp(mk(TBool, format+")", kids...))
}

// cmp marks a comparison-like predicate's precedence.
func cmp(n *Node) *Node {
	n.Prec = precCmp
	return n
}

// and is a AND b.
func and(a, b *Node) *Node {
	n := mk(TBool, "@ AND @", a, b)
	n.Prec = precAnd
	return n
}

func (g *Gen) longInList(sc *scope, t Type, d int) *Node {
	format := "@ " + g.pick("", "NOT ") + "IN ("
	for k := 8 + g.r.Intn(30); k > 0; k-- {
		v := fmt.Sprint(g.r.Intn(2*valueBound+1) - valueBound)
		if t == TStr {
			v = strPool[1+g.r.Intn(len(strPool)-1)]
		}
		if g.pct(3) {
			v = "NULL"
		}
		format += v
		if k > 1 {
			format += ", "
		}
	}
	return cmp(mk(TBool, format+")", g.typed(sc, t, d+1)))
}
