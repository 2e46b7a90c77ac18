package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// LATERAL derived tables (MySQL 8.0.14+): FROM t, LATERAL (SELECT ...) AS
// x, where the subquery reads the columns of the tables to its left. gpusql
// binds the shapes that return exactly one row per left row, which need no
// new operator:
//
//   - a SELECT without FROM, WHERE, HAVING or LIMIT — LATERAL (SELECT t.id
//     * 2 AS dbl) — is its select list computed over the left row: a
//     projection that appends the columns;
//   - an aggregate without GROUP BY, HAVING or LIMIT — LATERAL (SELECT
//     count(*) AS n, max(u.v) AS m FROM u WHERE u.tid = t.id) — returns
//     one row per left row too (0 and NULLs over no rows): each column is
//     a correlated scalar subquery, which the binder decorrelates or nests.
//
// Both give a row for every left row, so the join with the left side is
// that projection, and ON conditions filter it (LEFT JOIN LATERAL keeps
// every row: there is always a match). A lateral subquery that can return
// several rows or none (WHERE, GROUP BY, LIMIT over a FROM) needs a
// per-row apply operator that neither executor has: it is refused.

// lateralJoin binds left JOIN LATERAL (src) AS alias.
func (b *binder) lateralJoin(n *ast.Join, ts *ast.TableSource, lp Plan, lc []scopeCol) (Plan, []scopeCol, error) {
	pos := b.lateralPos(ts)
	sel, ok := ts.Source.(*ast.SelectStmt)
	if !ok {
		return nil, nil, b.errf(pos, "unsupported: LATERAL over a UNION, INTERSECT or EXCEPT")
	}
	if ts.AsName.O == "" {
		return nil, nil, b.errf(pos, "every derived table must have its own alias")
	}
	if n.Tp == ast.RightJoin {
		return nil, nil, b.errf(pos, "a LATERAL derived table cannot be the left side of RIGHT JOIN (it must follow the tables it reads)")
	}
	ls := &scope{plan: lp, cols: lc}
	names, err := b.lateralNames(sel, ls)
	if err != nil {
		return nil, nil, err
	}
	if len(ts.ColumnNames) > 0 {
		if len(ts.ColumnNames) != len(names) {
			return nil, nil, b.errf(pos, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
		}
		for i, c := range ts.ColumnNames {
			names[i] = c.O
		}
	}
	cols, err := b.lateralColumns(sel, len(names), ls, pos)
	if err != nil {
		return nil, nil, err
	}
	// Binding may have joined decorrelated subqueries to the left side
	// (ls.plan); its first columns are still the left ones.
	base := ls.plan
	bs := base.Schema()
	exprs := make([]Expr, 0, len(lc)+len(cols))
	outNames := make([]string, 0, len(lc)+len(cols))
	for i := range lc {
		exprs = append(exprs, &ColRef{Index: i, Col: bs[i]})
		outNames = append(outNames, bs[i].Name)
	}
	exprs = append(exprs, cols...)
	outNames = append(outNames, names...)
	var p Plan = newProject(base, exprs, outNames)
	out := append(append([]scopeCol(nil), lc...), qualify(names, ts.AsName.O)...)
	if n.On == nil {
		return p, out, nil
	}
	return b.lateralOn(n, p, out, len(lc), outNames, pos)
}

// lateralColumns binds the lateral SELECT's width columns over the left
// scope ls, for the shapes that give one row per left row.
func (b *binder) lateralColumns(sel *ast.SelectStmt, width int, ls *scope, pos int) ([]Expr, error) {
	var cols []Expr
	switch {
	case sel.From == nil && sel.Where == nil && sel.Having == nil && sel.Limit == nil && sel.GroupBy == nil:
		for _, f := range sel.Fields.Fields {
			e, err := b.expr(f.Expr, ls)
			if err != nil {
				return nil, err
			}
			cols = append(cols, e)
		}
	case sel.From != nil && sel.GroupBy == nil && sel.Having == nil && sel.Limit == nil && hasAggregate(sel.Fields):
		q := &ast.SubqueryExpr{Query: sel}
		for i := 0; i < width; i++ {
			e, err := b.subqueryColumn(q, i, ls, pos)
			if err != nil {
				return nil, err
			}
			cols = append(cols, e)
		}
	default:
		return nil, b.errf(pos, "unsupported: a LATERAL derived table that may return other than one row per row to its left (gpusql binds LATERAL without FROM, or an aggregate without GROUP BY, HAVING or LIMIT); write it as a join or a correlated subquery")
	}
	return cols, nil
}

// lateralOn applies JOIN LATERAL's ON cond to p, the left columns (the
// first nleft) joined with the lateral ones: a filter, or for LEFT JOIN
// the lateral columns made NULL where cond fails (the left row stays:
// its one lateral row is its only candidate).
func (b *binder) lateralOn(n *ast.Join, p Plan, out []scopeCol, nleft int, names []string, pos int) (Plan, []scopeCol, error) {
	sc := &scope{plan: p, cols: out}
	cond, err := b.expr(n.On.Expr, sc)
	if err != nil {
		return nil, nil, err
	}
	if cond, err = b.truthy(cond, b.posOr(n.On.Expr, pos)); err != nil {
		return nil, nil, err
	}
	if n.Tp != ast.LeftJoin {
		return &Filter{Input: p, Cond: cond}, out, nil
	}
	ps := p.Schema()
	keep := make([]Expr, len(ps))
	for i := range ps {
		ref := &ColRef{Index: i, Col: ps[i]}
		keep[i] = ref
		if i >= nleft {
			keep[i] = &Case{Whens: []When{{Cond: cond, Result: ref}}, Else: nullConst(ref.Type()), T: ref.Type()}
		}
	}
	return newProject(p, keep, names), out, nil
}

// lateralNames binds the lateral SELECT once, reading the left scope, for
// its column names.
func (b *binder) lateralNames(sel *ast.SelectStmt, ls *scope) ([]string, error) {
	blk, err := b.query(sel, ls)
	if err == errNeedNested {
		blk, _, err = b.nestedBlock(sel, ls)
	}
	if err != nil {
		return nil, err
	}
	return append([]string(nil), blk.names...), nil
}

// lateralPos is where the LATERAL derived table's SELECT starts.
func (b *binder) lateralPos(ts *ast.TableSource) int {
	if sel, ok := ts.Source.(*ast.SelectStmt); ok && sel.Fields != nil && len(sel.Fields.Fields) > 0 {
		return sel.Fields.Fields[0].Offset
	}
	return -1
}

// hasAggregate reports whether a select list calls an aggregate outside
// subqueries.
func hasAggregate(fl *ast.FieldList) bool {
	if fl == nil {
		return false
	}
	v := &aggFinder{}
	for _, f := range fl.Fields {
		if f.Expr != nil {
			f.Expr.Accept(v)
		}
	}
	return v.found
}

type aggFinder struct{ found bool }

func (v *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		v.found = true
		return n, true
	case *ast.SubqueryExpr, *ast.WindowFuncExpr:
		return n, true
	}
	return n, false
}

func (v *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// isLateral reports whether n is a LATERAL derived table.
func isLateral(n ast.ResultSetNode) (*ast.TableSource, bool) {
	ts, ok := n.(*ast.TableSource)
	return ts, ok && ts.Lateral
}
