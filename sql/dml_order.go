package sql

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// dmlOrderLimit applies a single-table UPDATE's or DELETE's ORDER BY and
// LIMIT to sc (the table's columns, the row number last, already
// filtered): the statement then changes only the first LIMIT rows in that
// order. Rows that tie on the ORDER BY keys, and every row when there is
// no ORDER BY, are taken in the table's order (its row numbers: insertion
// order, with deleted rows closed up), as MySQL takes rows in scan order
// from a table without an index on the keys. The returned scope has sc's
// columns and nothing more, so the assignments bind as without the clauses.
func (b *binder) dmlOrderLimit(sc *scope, order *ast.OrderByClause, limit *ast.Limit) (*scope, error) {
	if order == nil && limit == nil {
		return sc, nil
	}
	width := len(sc.cols)
	exprs := make([]Expr, 0, width+1)
	for i := range sc.cols {
		exprs = append(exprs, sc.colRef(i))
	}
	projNames := append([]string(nil), names(sc.plan.Schema())[:width]...)
	var keys []SortKey
	if order != nil {
		for _, by := range order.Items {
			e, err := b.expr(by.Expr, sc)
			if err != nil {
				return nil, err
			}
			if isJSON(e) {
				e = orderKey(e)
			}
			keys = append(keys, SortKey{Expr: &ColRef{Index: len(exprs)}, Desc: by.Desc})
			exprs = append(exprs, e)
			projNames = append(projNames, "order_key"+strconv.Itoa(len(keys)))
		}
	}
	keys = append(keys, SortKey{Expr: &ColRef{Index: width - 1}}) // the row number breaks ties
	var plan Plan = newProject(sc.plan, exprs, projNames)
	sch := plan.Schema()
	for i := range keys {
		r := keys[i].Expr.(*ColRef)
		r.Col = sch[r.Index]
	}
	plan = &Sort{Input: plan, Keys: keys}
	if limit != nil {
		off, cnt, err := b.limit(limit)
		if err != nil {
			return nil, err
		}
		plan = &Limit{Input: plan, Offset: off, Count: cnt}
	}
	back := make([]Expr, width)
	for i := range back {
		back[i] = &ColRef{Index: i, Col: sch[i]}
	}
	return &scope{plan: newProject(plan, back, projNames[:width]), cols: sc.cols}, nil
}

// orderNode is an ORDER BY clause as an AST node for a walk (nil when
// absent, not a nil pointer that walking would dereference).
func orderNode(o *ast.OrderByClause) ast.Node {
	if o == nil {
		return nil
	}
	return o
}
