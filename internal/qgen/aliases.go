package qgen

import (
	"strconv"
	"strings"
)

// Select-list aliases (y0, y1, ...: no FROM column has such a name, so
// neither engine can read one as a column) named by ORDER BY and HAVING,
// which both resolve to the select item. GROUP BY is left out: MySQL
// looks a GROUP BY name up among the FROM columns first, and a derived
// table's columns may be named like an alias elsewhere.

// orderByAlias names, in the ORDER BY n (g.orderBy's), some of the
// output columns by their alias rather than their position.
func (g *Gen) orderByAlias(n *Node, alias string) {
	if alias == "" {
		return
	}
	p := &n.Parts[0]
	if len(n.Kids) == 2 {
		p = &n.Parts[1] // after the key expression
	}
	items := strings.Split(*p, ", ")
	for i, it := range items {
		head, _, _ := strings.Cut(strings.TrimPrefix(it, " ORDER BY "), " ")
		if k, err := strconv.Atoi(head); err == nil && g.pct(50) {
			items[i] = strings.Replace(it, head, alias+strconv.Itoa(k-1), 1)
		}
	}
	*p = strings.Join(items, ", ")
}

// havingPred is a HAVING predicate: a random one over the aggregate scope,
// or now and then a comparison of an aliased select item (not a window
// function: HAVING comes before windows) with a literal.
func (g *Gen) havingPred(asc *scope, items []*Node, alias string) *Node {
	asc = havingScope(asc)
	if alias == "" || !g.pct(40) {
		return g.pred(asc, 1)
	}
	i := g.r.Intn(len(items))
	it := items[i]
	if it.Type == TReal || it.Type == TNone || strings.Contains(it.SQL(MySQL), " OVER (") {
		return g.pred(asc, 1)
	}
	var l *Node
	switch it.Type {
	case TStr:
		l = lit(TStr, strPool[1+g.r.Intn(len(strPool)-1)])
	case TDec:
		l = lit(TDec, decPool[1+g.r.Intn(len(decPool)-1)])
	case TDate:
		l = lit(TDate, datePool[1+g.r.Intn(len(datePool)-1)])
	default:
		l = intLit(int64(g.r.Intn(21) - 5))
	}
	ref := mk(it.Type, alias+strconv.Itoa(i))
	return cmp(mk(TBool, "@ "+g.pick("=", "<>", "<", ">=")+" @", ref, l))
}

// topAlias is "y" for a top level SELECT whose columns are named (one in
// five), "" otherwise.
func (g *Gen) topAlias(named bool, d int) string {
	if !named && d == 0 && g.pct(20) {
		return "y"
	}
	return ""
}

// aliasKey is an ORDER BY expression over an output column's alias (-y0,
// y1 % 3, LENGTH(y2)), which both take under SELECT DISTINCT too: its
// value is one per output row. nil where no column is an integer or a
// string.
func (g *Gen) aliasKey(s sel) *Node {
	var ints, strs []string
	for i, t := range s.types {
		switch name := s.alias + strconv.Itoa(i); t {
		case TInt:
			ints = append(ints, name)
		case TStr:
			strs = append(strs, name)
		}
	}
	switch {
	case len(ints) > 0 && (len(strs) == 0 || g.pct(75)):
		y := ints[g.r.Intn(len(ints))]
		return mk(TInt, g.pick("-"+y, y+" % 3", "ABS("+y+" - 2)", y+" + "+ints[g.r.Intn(len(ints))]))
	case len(strs) > 0:
		return mk(TInt, "LENGTH("+strs[g.r.Intn(len(strs))]+")")
	}
	return nil
}

// havingScope is asc as HAVING may read it: MySQL looks a name outside
// an aggregate's arguments up in the select list and among the GROUP BY
// columns only (never the FROM), so a key that is an expression
// (ABS(q1.b), keyExpr) cannot be written there again: GROUP BY ABS(q1.b)
// HAVING ABS(q1.b) > 1 is 1054 "Unknown column 'q1.b' in 'having
// clause'" (sql/having_names.go).
func havingScope(asc *scope) *scope {
	h := *asc
	h.keys = nil
	for _, k := range asc.keys {
		if !strings.ContainsAny(k.ref, " (") {
			h.keys = append(h.keys, k)
		}
	}
	return &h
}
