package qgen

// IN lists and BETWEEN over strings and numbers mixed, where MySQL's
// comparison types decide the answer (mixed_string.go has the rules).
//
// x IN (...) with items of other types than x compares x with each item
// by that pair's type (Item_func_in: no one comparison type for the
// list): a string with a number as two DOUBLEs, two strings as strings.
// BETWEEN takes one type for all three operands, DOUBLE when strings and
// numbers meet, so a string is read as a number even against a string
// bound. SQLite's side spells IN as the ORed equalities (the same answer
// in three-valued logic, NOT IN included) and casts to REAL the strings
// that MySQL reads as numbers.

// mixedTypeIn is x [NOT] IN over integers and strings, x an integer or
// string column; nil where the scope has neither.
func (g *Gen) mixedTypeIn(sc *scope, d int) *Node {
	x, ok := g.mixedColumn(sc)
	if !ok {
		return nil
	}
	not := g.pick("", "NOT ")
	format, lite := x.ref+" "+not+"IN (", not+"("
	var kids []*Node
	for k := 2 + g.r.Intn(3); k > 0; k-- {
		item, t := g.mixedOperand(sc, d)
		kids = append(kids, item)
		sep := ", "
		if k == 1 {
			sep = ""
		}
		format += "@" + sep
		switch {
		case t == x.typ:
			lite += x.ref + " = @"
		case t == TStr:
			lite += x.ref + " = CAST(@ AS REAL)"
		default:
			lite += "CAST(" + x.ref + " AS REAL) = @"
		}
		if k > 1 {
			lite += " OR "
		}
	}
	return cmp(mk(TBool, format+")", kids...).lite(lite + ")"))
}

// mixedTypeBetween is x [NOT] BETWEEN two bounds, x an integer or string
// column, the three not all of one type: compared as DOUBLEs.
func (g *Gen) mixedTypeBetween(sc *scope, d int) *Node {
	x, ok := g.mixedColumn(sc)
	if !ok {
		return nil
	}
	lo, tl := g.mixedOperand(sc, d)
	hi, th := g.mixedOperand(sc, d)
	if tl == x.typ && th == x.typ {
		return nil
	}
	real := func(t Type) string {
		if t == TStr {
			return "CAST(@ AS REAL)"
		}
		return "@"
	}
	xl := x.ref
	if x.typ == TStr {
		xl = "CAST(" + x.ref + " AS REAL)"
	}
	not := g.pick("", "NOT ")
	return cmp(mk(TBool, x.ref+" "+not+"BETWEEN @ AND @", lo, hi).
		lite(xl + " " + not + "BETWEEN " + real(tl) + " AND " + real(th)))
}

// mixedColumn is an integer or string column the scope shows.
func (g *Gen) mixedColumn(sc *scope) (column, bool) {
	cols := append(colsOf(sc.visible(), TInt), colsOf(sc.visible(), TStr)...)
	if len(cols) == 0 {
		return column{}, false
	}
	return cols[g.r.Intn(len(cols))], true
}

// mixedOperand is an integer expression or a string literal (a pool
// string or one with a number in front), and its type.
func (g *Gen) mixedOperand(sc *scope, d int) (*Node, Type) {
	switch {
	case g.pct(40):
		n := g.intExpr(sc, d+1)
		if n.Literal && n.Parts[0] == "NULL" {
			// A bare NULL has no type in MySQL: s BETWEEN NULL AND 'b'
			// compares strings (betweenNull), not DOUBLEs (seed 24509).
			n = intLit(1)
		}
		return n, TInt
	case g.pct(50):
		return lit(TStr, g.pick(numberedTexts...)), TStr
	}
	return lit(TStr, strPool[g.r.Intn(len(strPool))]), TStr
}
