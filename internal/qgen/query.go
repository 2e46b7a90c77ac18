package qgen

import (
	"fmt"
	"strconv"
	"strings"
)

// Query is one generated query.
type Query struct {
	Seed int64
	Root *Node
}

// MySQL is the query as gpusql (and MySQL) reads it.
func (q *Query) MySQL() string { return q.Root.SQL(MySQL) }

// SQLite is the query as SQLite reads it.
func (q *Query) SQLite() string { return q.Root.SQL(SQLite) }

// Ordered says whether the row order is part of the answer: the top level
// ORDER BY, when present, names every output column, so the order is total.
func (q *Query) Ordered() bool {
	found := false
	q.Root.walk(func(n *Node) bool {
		found = found || n.Tag == "order"
		return !found
	})
	return found
}

// WantErr is the text of the error MySQL refuses the query with, if it
// does (refused.go): "" for a query whose rows are compared.
func (q *Query) WantErr() string {
	want := ""
	q.Root.walk(func(n *Node) bool {
		if n.WantErr != "" {
			want = n.WantErr
		}
		return want == ""
	})
	return want
}

// Query writes the seed's query.
func Generate(seed int64) *Query {
	g := New(seed)
	return &Query{Seed: seed, Root: g.query()}
}

// sel is a SELECT (or a set operation of them) with its output columns.
type sel struct {
	node   *Node
	types  []Type
	bounds []int64
	rows   int64
	// sc is a plain or aggregate SELECT's scope, where an ORDER BY
	// expression may read its FROM's columns or aggregate them (nil for
	// set operations and with DISTINCT, which MySQL sorts by select-list
	// columns only).
	sc *scope
	// alias is the prefix of the output columns' names ("y": y0, y1,
	// ...) where a top level SELECT names them, which ORDER BY and
	// HAVING may then use (aliases.go).
	alias string
}

// cte is a WITH query the FROM clauses may read.
type cte struct {
	name      string
	body      sel
	recursive bool // it reads itself (recursive.go)
}

// query is a whole statement: WITH definitions, the query, a total ORDER
// BY by position with an optional LIMIT.
func (g *Gen) query() *Node {
	var ctes []*cte
	g.ctes = &ctes
	var s sel
	switch c := g.r.Intn(100); {
	case c < 12:
		s = g.setOp(0, &ctes, false)
	case c < 16:
		s = g.noFrom()
	case c < 20:
		return g.rollup(&ctes) // no ORDER BY: MySQL sorts the NULLs of ROLLUP rows its own way
	case c < 27:
		return g.windowQuery(&ctes) // window_multi.go
	case c < 31:
		return g.shapeQuery(&ctes) // shapes.go
	default:
		types := g.randomTypes()
		if g.pct(25) {
			types = append(types, TReal)
		}
		s = g.selectCore(0, types, false, &ctes)
	}
	n := s.node
	if g.pct(35) && !hasReal(s.types) {
		var key *Node
		if s.sc != nil && g.pct(40) {
			key = g.typed(s.sc, g.pickType(s.sc), 2)
			if key.Literal {
				key = nil // ORDER BY 3 names the third column, in both
			}
		}
		if key == nil && s.alias != "" && g.pct(40) {
			key = g.aliasKey(s) // under DISTINCT too
		}
		n = mk(TNone, "@@", n, g.orderBy(len(s.types), true, key))
		g.orderByAlias(n, s.alias)
	}
	return withClause(ctes, n)
}

// withClause puts the WITH queries the FROM clauses read before n.
func withClause(ctes []*cte, n *Node) *Node {
	if len(ctes) == 0 {
		return n
	}
	var defs []*Node
	format := "WITH "
	for _, c := range ctes {
		if c.recursive {
			format = "WITH RECURSIVE " // both read the others alike under it
		}
	}
	for i, c := range ctes {
		if i > 0 {
			format += ", "
		}
		format += c.name + " AS (@)"
		defs = append(defs, c.body.node)
	}
	return mk(TNone, format+" @", append(defs, n)...)
}

// orderBy sorts by every output column, each way round at random, so the
// order is total; a LIMIT and OFFSET then pick the same rows in both. A
// key expression (over the FROM's columns, a scalar subquery maybe) may
// come first: rows it ties are ordered by the columns, and rows whose
// columns all tie print alike. Both put NULLs first going up.
func (g *Gen) orderBy(ncols int, top bool, key *Node) *Node {
	var items []string
	for _, i := range g.r.Perm(ncols) {
		items = append(items, strconv.Itoa(i+1)+g.pick("", " DESC", " ASC"))
	}
	n := mk(TNone, " ORDER BY "+strings.Join(items, ", ")+"@", txt(""))
	if key != nil {
		n = mk(TNone, " ORDER BY @"+g.pick("", " DESC")+", "+strings.Join(items, ", ")+"@", key, txt(""))
	}
	last := len(n.Kids) - 1
	if g.pct(50) {
		limit := fmt.Sprintf(" LIMIT %d", g.r.Intn(6))
		if g.pct(40) {
			limit += fmt.Sprintf(" OFFSET %d", g.r.Intn(4))
		}
		n.Kids[last] = txt(limit).optional()
	}
	if top {
		n.Tag = "order"
	} else {
		n.Kids[last].Optional = false // no LIMIT, no ORDER BY: both may go, but not apart
	}
	return n.optional()
}

// selectCore is a plain, grouped or aggregate SELECT. want fixes the
// output types (nil: random); named gives the columns the names x0, x1,
// ... (derived tables, WITH queries).
func (g *Gen) selectCore(d int, want []Type, named bool, ctes *[]*cte) sel {
	switch c := g.r.Intn(100); {
	case c < 50:
		return g.plainSelect(d, want, named, ctes)
	case c < 80:
		return g.groupSelect(d, want, named, ctes, true)
	}
	return g.groupSelect(d, want, named, ctes, false)
}

func hasReal(types []Type) bool {
	for _, t := range types {
		if t == TReal {
			return true
		}
	}
	return false
}

// distinctUnlessReal is DISTINCT or ALL or nothing, but nothing where a
// column is a TReal.
func (g *Gen) distinctUnlessReal(types []Type) *Node {
	d := g.distinct()
	if hasReal(types) {
		return txt("")
	}
	return d
}

func (g *Gen) randomTypes() []Type {
	var out []Type
	for k := 1 + g.r.Intn(3); k > 0; k-- {
		out = append(out, []Type{TInt, TInt, TInt, TStr, TDec, TInt, TInt, TStr, TDec, TDate}[g.r.Intn(10)])
	}
	return out
}

// selectList renders items as a select list.
func selectList(items []*Node, named bool) *Node {
	if named {
		return selectListAs(items, "x")
	}
	return selectListAs(items, "")
}

// selectListAs names the items prefix0, prefix1, ... (none for "").
func selectListAs(items []*Node, prefix string) *Node {
	format := ""
	for i, it := range items {
		if it.Type == TReal {
			items[i] = realOutput(it)
		}
		if i > 0 {
			format += ", "
		}
		format += "@"
		if prefix != "" {
			format += " AS " + prefix + strconv.Itoa(i)
		}
	}
	return mk(TNone, format, items...)
}

func (g *Gen) distinct() *Node {
	switch c := g.r.Intn(100); {
	case c < 20:
		return txt("DISTINCT ").optional()
	case c < 30:
		return txt("ALL ").optional()
	}
	return txt("")
}

func (g *Gen) plainSelect(d int, want []Type, named bool, ctes *[]*cte) sel {
	from, cols, rows, conds := g.fromClause(d, ctes)
	sc := &scope{cols: cols, subq: d < 2, rows: rows, reals: g.reals}
	if want == nil {
		want = g.randomTypes()
	}
	if d == 0 && !named && len(sc.reals) > 0 && !hasReal(want) && g.pct(60) {
		want = append(append([]Type{}, want...), TReal) // a top level output only
	}
	if d == 0 && !named && len(sc.reals) == 0 && !hasReal(want) && g.pct(6) {
		want = append(append([]Type{}, want...), TReal) // distWindow's
	}
	s := sel{types: want, rows: rows}
	var items []*Node
	winDef := txt("")
	for _, t := range want {
		var e *Node
		switch {
		case t == TInt && d <= 1 && len(winDef.Parts[0]) == 0 && g.pct(3):
			e, winDef = g.namedWindow(sc) // window_named.go
		case t == TInt && d <= 1 && g.pct(15):
			e = g.window(sc)
		case t == TDec && d <= 1 && g.pct(10):
			e = g.decWindow(sc) // window_dec.go
		case t == TReal && (len(sc.reals) == 0 || g.pct(10)):
			e = g.distWindow(sc)
		case t == TReal && g.pct(35):
			e = g.avgWindow(sc)
		}
		if e == nil {
			e = g.typed(sc, t, 1)
		}
		items = append(items, e)
		s.bounds = append(s.bounds, e.Bound)
	}
	list := g.namedList(&s, items, named, d)
	if !named && d == 0 && len(sc.reals) == 0 && g.pct(8) && !strings.Contains(from.SQL(MySQL), "USING") && !strings.Contains(from.SQL(MySQL), "NATURAL") {
		// Every column, in FROM order in both (USING and NATURAL
		// JOIN, which order them differently, are left out).
		list, s.types, s.bounds, s.alias = txt("*"), nil, nil, ""
		for _, c := range cols {
			s.types = append(s.types, c.typ)
			s.bounds = append(s.bounds, c.bound)
		}
		want = s.types
	}
	dist := g.distinctUnlessReal(want)
	s.node = mk(TNone, "SELECT @@ FROM @@@", dist, list, from, g.where(sc, conds), winDef)
	if dist.Parts[0] != "DISTINCT " {
		s.sc = sc
	}
	return s
}

// noFrom is a SELECT of constant expressions or aggregates of one implicit
// row, without FROM (both give COUNT(*) 1 there).
func (g *Gen) noFrom() sel {
	sc := &scope{agg: g.pct(40), subq: true, rows: 1}
	s := sel{types: g.randomTypes(), rows: 1}
	var items []*Node
	for _, t := range s.types {
		e := g.typed(sc, t, 1)
		items = append(items, e)
		s.bounds = append(s.bounds, e.Bound)
	}
	s.node = mk(TNone, "SELECT @@", g.distinct(), selectList(items, false))
	return s
}

// where ANDs the comma joins' conditions with a random predicate.
func (g *Gen) where(sc *scope, conds []*Node) *Node {
	var p *Node
	if g.pct(75) {
		p = g.pred(sc, 1)
	}
	for _, c := range conds {
		if p == nil {
			p = c
		} else {
			p = and(c, p)
		}
	}
	if p == nil {
		return txt("")
	}
	return mk(TNone, " WHERE @", p).optional()
}

// groupKeys are the columns perm names as GROUP BY keys, an INT one
// turned into an expression of itself (keyExpr) pct percent of the time,
// and their text.
func (g *Gen) groupKeys(cols []column, perm []int, pct int) (keys []column, refs []string) {
	for _, i := range perm {
		key := cols[i]
		if key.typ == TInt && g.pct(pct) {
			key = g.keyExpr(key)
		}
		keys, refs = append(keys, key), append(refs, key.ref)
	}
	return keys, refs
}

// groupSelect is a SELECT with aggregates, grouped by one or two columns
// when grouped. Only grouped columns appear outside aggregate calls.
// HAVING without GROUP BY is fine in both, but SQLite refuses it in a
// query without aggregates (shrinking may make one: SQLite's error then
// rejects that step).
func (g *Gen) groupSelect(d int, want []Type, named bool, ctes *[]*cte, grouped bool) sel {
	from, cols, rows, conds := g.fromClause(d, ctes)
	sc := &scope{cols: cols, subq: d < 2, rows: rows}
	asc := &scope{cols: cols, agg: true, rows: rows, subq: d < 2}
	groupBy := txt("")
	if grouped {
		var refs []string
		asc.keys, refs = g.groupKeys(cols, g.r.Perm(len(cols))[:min(len(cols), 1+g.r.Intn(2))], 25)
		groupBy = txt(" GROUP BY " + strings.Join(refs, ", "))
	}
	if want == nil {
		want = g.randomTypes()
	}
	s := sel{types: want, rows: rows}
	var items []*Node
	for i, t := range want {
		var e *Node
		keys := colsOf(asc.keys, t)
		switch {
		case len(keys) > 0 && g.pct(50):
			e = colNode(keys[g.r.Intn(len(keys))])
		case i == 0 && !grouped:
			e = g.aggregate(asc, t, 1)
		case t == TInt && grouped && d <= 1 && g.pct(12):
			e = g.groupWindow(asc)
		default:
			e = g.typed(asc, t, 1)
		}
		items = append(items, e)
		s.bounds = append(s.bounds, e.Bound)
	}
	list := g.namedList(&s, items, named, d)
	having := txt("")
	if g.pct(40) {
		having = mk(TNone, " HAVING @", g.havingPred(asc, items, s.alias)).optional()
	}
	dist := g.distinctUnlessReal(want)
	s.node = mk(TNone, "SELECT @@ FROM @@@@", dist, list, from, g.where(sc, conds), groupBy, having)
	if dist.Parts[0] != "DISTINCT " {
		s.sc = asc // ORDER BY may sort by an aggregate or a GROUP BY column
	}
	return s
}

// keyExpr is a GROUP BY expression of an integer column, which the select
// list may name again word for word (MySQL matches it). Written in words
// both dialects share (no DIV).
func (g *Gen) keyExpr(c column) column {
	switch g.r.Intn(4) {
	case 0:
		c.ref = c.ref + " % 3"
		c.bound, c.prec = 2, precMul
	case 1:
		c.ref = "ABS(" + c.ref + ")"
	case 2:
		c.ref = "COALESCE(" + c.ref + ", 0)"
	default:
		c.ref = c.ref + " + 1"
		c.bound, c.prec = c.bound+1, precAdd
	}
	return c
}

// rollup is SELECT keys, aggregates FROM ... [WHERE] GROUP BY keys WITH
// ROLLUP. The select list holds the GROUP BY keys themselves and
// aggregates only: MySQL makes a rolled-up key NULL in a super-aggregate
// row, and an expression of it would need the same rewriting on SQLite's
// side. A key may be an expression of an integer column (keyExpr), which
// the select list and GROUPING() name word for word, as MySQL matches
// them. HAVING is left out. GROUPING() items may follow the keys
// (rollup.go).
func (g *Gen) rollup(ctes *[]*cte) *Node {
	from, cols, rows, conds := g.fromClause(0, ctes)
	sc := &scope{cols: cols, subq: true, rows: rows}
	_, keys := g.groupKeys(cols, g.r.Perm(len(cols))[:min(len(cols), 1+g.r.Intn(2))], 60)
	asc := &scope{cols: cols, agg: true, rows: rows}
	var items []*Node
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		if g.pct(30) {
			// The pivot idiom under ROLLUP (pivot.go).
			items = append(items, g.conditionalAgg(asc, &scope{cols: cols, rows: rows}))
			continue
		}
		items = append(items, g.aggregate(asc, []Type{TInt, TInt, TStr, TDec}[g.r.Intn(4)], 1))
	}
	keyList := strings.Join(keys, ", ")
	groupings, groupingList := g.groupings(keys)
	selected, grouped := keyList, keyList
	if g.pct(20) {
		// A key again under an alias is a rollup level of its own
		// (olap.result: SELECT a, b, a AS c ... GROUP BY a, b, c); the
		// groupings name only the first keys.
		dup := keys[g.r.Intn(len(keys))]
		selected += ", " + dup + " AS rdup"
		grouped += ", rdup"
		keys = append(keys, dup)
	}
	n := mk(TNone, "SELECT "+selected+", "+groupingList+"@ FROM @@ GROUP BY "+grouped+" WITH ROLLUP", selectList(items, false), from, g.where(sc, conds))
	n.Rollup, n.Groupings = keys, groupings
	return withClause(*ctes, n)
}

// namedList is a select list of items, named by a top level alias
// (topAlias, kept in s) when the statement gets one.
func (g *Gen) namedList(s *sel, items []*Node, named bool, d int) *Node {
	s.alias = g.topAlias(named, d)
	if s.alias != "" {
		return selectListAs(items, s.alias)
	}
	return selectList(items, named)
}
