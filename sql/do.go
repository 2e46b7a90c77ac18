package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// DO expr [, expr] ... evaluates the expressions and returns no result
// ("DO Statement" in the MySQL 8.0 manual): DO SLEEP(1), DO GET_LOCK('l',
// 10), DO @n := @n + 1. It binds as SELECT expr, ... whose rows the engine
// drops.
func (b *binder) doStmt(n *ast.DoStmt) (Statement, error) {
	fields := make([]*ast.SelectField, len(n.Exprs))
	for i, e := range n.Exprs {
		fields[i] = &ast.SelectField{Expr: e}
	}
	sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: fields}}
	q, err := b.topQuery(sel)
	if err != nil {
		return nil, err
	}
	q.Discard = true
	return q, nil
}
