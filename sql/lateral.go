package sql

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// LATERAL derived tables (MySQL 8.0.14+): FROM t, LATERAL (SELECT ...) AS
// x, where the subquery reads the columns of the tables to its left. gpusql
// binds them without a per-row apply operator, in three shapes:
//
//   - a SELECT without FROM, WHERE, HAVING or LIMIT — LATERAL (SELECT t.id
//     * 2 AS dbl) — is its select list computed over the left row: a
//     projection that appends the columns;
//   - an aggregate without GROUP BY, HAVING or LIMIT — LATERAL (SELECT
//     count(*) AS n, max(u.v) AS m FROM u WHERE u.tid = t.id) — returns
//     one row per left row too (0 and NULLs over no rows): each column is
//     a correlated scalar subquery, which the binder decorrelates or nests;
//   - a SELECT whose rows are its FROM's rows filtered row by row — no
//     aggregate, DISTINCT, LIMIT or set operation — is a join of the left
//     side with that FROM on the WHERE conjuncts that read the left row
//     (lateralRows).
//
// The first two give a row for every left row, so ON filters their
// projection and LEFT JOIN LATERAL keeps every row. A lateral table that
// reads nothing to its left is an ordinary derived table. Other shapes
// (top-N per left row: ORDER BY ... LIMIT) need an apply operator that
// neither executor has and are refused.

// lateralJoin binds left JOIN LATERAL (src) AS alias.
func (b *binder) lateralJoin(n *ast.Join, ts *ast.TableSource, lp Plan, lc []scopeCol) (Plan, []scopeCol, error) {
	pos := b.lateralPos(ts)
	sel, ok := ts.Source.(*ast.SelectStmt)
	if !ok {
		return nil, nil, b.errf(pos, "unsupported: LATERAL over a UNION, INTERSECT or EXCEPT")
	}
	if ts.AsName.O == "" {
		return nil, nil, b.errCode(pos, ErDerivedMustHaveAlias, "Every derived table must have its own alias")
	}
	if n.Tp == ast.RightJoin {
		return nil, nil, b.errf(pos, "a LATERAL derived table cannot be the left side of RIGHT JOIN (it must follow the tables it reads)")
	}
	ls := &scope{plan: lp, cols: lc}
	names, err := b.lateralNames(sel, ls)
	if err != nil {
		return nil, nil, err
	}
	if len(ts.ColumnNames) == 0 { // the list cut out before parsing (derived_columns.go)
		if names, err = b.derivedNames(ts.AsName.O, names); err != nil {
			return nil, nil, err
		}
	} else {
		if len(ts.ColumnNames) != len(names) {
			return nil, nil, b.errCode(pos, ErViewWrongList, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
		}
		for i, c := range ts.ColumnNames {
			names[i] = c.O
		}
	}
	if err := b.uniqueDerivedNames(ts.AsName.O, names); err != nil {
		return nil, nil, err
	}
	if !oneRowLateral(sel) {
		return b.lateralRows(n, ts, sel, names, ls, pos)
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

// oneRowLateral reports whether the lateral SELECT gives exactly one row
// per left row: no FROM (and nothing that could drop the row), or an
// aggregate without GROUP BY, HAVING or LIMIT.
func oneRowLateral(sel *ast.SelectStmt) bool {
	if sel.From == nil {
		return sel.Where == nil && sel.Having == nil && sel.Limit == nil && sel.GroupBy == nil
	}
	return sel.GroupBy == nil && sel.Having == nil && sel.Limit == nil && hasAggregate(sel.Fields)
}

// lateralColumns binds the lateral SELECT's width columns over the left
// scope ls, for the shapes that give one row per left row.
func (b *binder) lateralColumns(sel *ast.SelectStmt, width int, ls *scope, pos int) ([]Expr, error) {
	var cols []Expr
	switch {
	case sel.From == nil:
		for _, f := range sel.Fields.Fields {
			e, err := b.expr(f.Expr, ls)
			if err != nil {
				return nil, err
			}
			cols = append(cols, e)
		}
	default:
		q := &ast.SubqueryExpr{Query: sel}
		for i := 0; i < width; i++ {
			e, err := b.subqueryColumn(q, i, ls, pos)
			if err != nil {
				return nil, err
			}
			cols = append(cols, e)
		}
	}
	return cols, nil
}

// errUncorrelatedLateral says a LATERAL derived table reads nothing to
// its left: it is joined as any derived table.
var errUncorrelatedLateral = errors.New("LATERAL derived table without correlation")

// lateralRows binds a lateral SELECT that returns any number of rows per
// left row as a join: its FROM (filtered by its uncorrelated WHERE
// conjuncts) is the right input, the conjuncts that read the left side
// join the two (equalities as keys, the rest as the residual), and its
// select list, which may read the left row too, is computed over the
// join. That is the lateral join's meaning whenever the subquery's rows
// are its input's rows filtered row by row — no aggregate, DISTINCT,
// LIMIT or set operation, the left side read only in WHERE and the select
// list — and such a lateral table is refused otherwise. LEFT JOIN keeps a
// left row without lateral rows (NULL-extended) when its ON is absent or
// TRUE.
func (b *binder) lateralRows(n *ast.Join, ts *ast.TableSource, sel *ast.SelectStmt, names []string, ls *scope, pos int) (Plan, []scopeCol, error) {
	blk, err := b.query(sel, ls)
	if err != nil && !errors.Is(err, errNeedNested) {
		return nil, nil, err
	}
	if err == nil && !blk.corrUsed && !blk.forceNested {
		return nil, nil, errUncorrelatedLateral
	}
	if err != nil || sel.Distinct || sel.Limit != nil || sel.GroupBy != nil || sel.Having != nil || !semiJoinable(blk) || planHasOuterRef(blk.input) {
		return nil, nil, b.errf(pos, "unsupported: this LATERAL derived table (gpusql joins a lateral SELECT whose rows are its FROM's rows filtered by WHERE: no aggregate with GROUP BY, DISTINCT, LIMIT or UNION, the left tables read only in WHERE and the select list); write it as a join or a correlated subquery")
	}
	kind := JoinInner
	if n.Tp == ast.LeftJoin {
		if n.On != nil && !isTrueLiteral(n.On.Expr) {
			return nil, nil, b.errf(pos, "unsupported: LEFT JOIN LATERAL ... ON a condition over a lateral table of several rows (write the condition in the lateral WHERE and ON TRUE)")
		}
		kind = JoinLeft
	}
	lp := ls.plan
	leftLen := len(lp.Schema())
	right := blk.input
	if kind == JoinLeft {
		right = withMatchMarker(right)
	}
	j := &Join{Kind: kind, Left: lp, Right: right}
	j.Out = joinSchema(lp.Schema(), right.Schema(), kind)
	b.attachCorrelation(j, blk.corr, true)
	if kind == JoinInner && len(j.LeftKeys) == 0 && j.Residual == nil {
		j.Kind = JoinCross
	}
	exprs := make([]Expr, 0, leftLen+len(blk.exprs))
	outNames := make([]string, 0, leftLen+len(blk.exprs))
	for i, c := range j.Out[:leftLen] {
		exprs = append(exprs, &ColRef{Index: i, Col: c})
		outNames = append(outNames, c.Name)
	}
	for i, e := range blk.exprs {
		e = outerToLeft(e, leftLen)
		if ref, ok := e.(*ColRef); kind == JoinLeft && !(ok && ref.Index >= leftLen) {
			// A left row without lateral rows gets NULL in every lateral
			// column, also one computed from the left row, a constant or
			// COALESCE(u.v, 0): the marker tells the rows apart.
			last := len(j.Out) - 1
			matched := &IsNull{E: &ColRef{Index: last, Col: j.Out[last]}, Negated: true}
			e = &Case{Whens: []When{{Cond: matched, Result: e}}, Else: nullConst(e.Type()), T: e.Type()}
		}
		exprs = append(exprs, e)
		outNames = append(outNames, names[i])
	}
	var p Plan = newProject(j, exprs, outNames)
	out := append(append([]scopeCol(nil), ls.cols...), qualify(names, ts.AsName.O)...)
	if n.On == nil || kind == JoinLeft {
		return p, out, nil
	}
	return b.lateralOn(n, p, out, leftLen, outNames, pos)
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

// isTrueLiteral reports whether n is TRUE or a non-zero integer literal
// (LEFT JOIN LATERAL ... ON TRUE).
func isTrueLiteral(n ast.ExprNode) bool {
	v, ok := unparen(n).(*driver.ValueExpr)
	if !ok {
		return false
	}
	switch v.Kind() {
	case driver.KindInt64:
		return v.GetInt64() != 0
	case driver.KindUint64:
		return v.GetUint64() != 0
	}
	return false
}

// withMatchMarker is p with a last column that is 1 on every row: after a
// LEFT JOIN it is NULL exactly on the rows without a match.
func withMatchMarker(p Plan) Plan {
	ps := p.Schema()
	exprs := make([]Expr, 0, len(ps)+1)
	names := make([]string, 0, len(ps)+1)
	for i, c := range ps {
		exprs = append(exprs, &ColRef{Index: i, Col: c})
		names = append(names, c.Name)
	}
	exprs = append(exprs, &Const{T: columnar.TInt32, I: 1})
	names = append(names, "lateral_match")
	return newProject(p, exprs, names)
}
