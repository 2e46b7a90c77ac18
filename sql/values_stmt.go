package sql

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// valuesQuery is the query a VALUES statement means (MySQL 8: VALUES
// ROW(1, 'a'), ROW(2, 'b') [ORDER BY ...] [LIMIT ...]): the UNION ALL of
// one-row SELECTs, its columns named column_0, column_1, ... as MySQL
// names them, so that their types unify as a union's do.
func (b *binder) valuesQuery(s *ast.SelectStmt) (*ast.SetOprStmt, error) {
	if len(s.Lists) == 0 {
		return nil, b.errf(-1, "VALUES needs at least one ROW(...)")
	}
	width := len(s.Lists[0].Values)
	selects := make([]ast.Node, len(s.Lists))
	for i, row := range s.Lists {
		if len(row.Values) != width || width == 0 {
			return nil, b.errf(-1, "Column count doesn't match value count at row %d", i+1)
		}
		fields := make([]*ast.SelectField, width)
		for k, v := range row.Values {
			fields[k] = &ast.SelectField{Expr: v, AsName: ast.NewCIStr(fmt.Sprintf("column_%d", k))}
		}
		sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: fields}}
		if i > 0 {
			all := ast.UnionAll
			sel.AfterSetOperator = &all
		}
		selects[i] = sel
	}
	return &ast.SetOprStmt{SelectList: &ast.SetOprSelectList{Selects: selects}, OrderBy: s.OrderBy, Limit: s.Limit}, nil
}
