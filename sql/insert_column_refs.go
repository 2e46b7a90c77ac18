package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// valuesColumnRefs rewrites the target's column names in one row of
// INSERT ... VALUES (and INSERT ... SET, which the parser gives as VALUES)
// as MySQL reads them: a column set earlier in the row is the value it was
// set to, any other column its default, which is what MySQL's row buffer
// holds there (INSERT INTO t (a, b) VALUES (1, a + 1) stores b = 2; the
// manual: "an expression can refer to any column that was set earlier in a
// value list"). A subquery's names are left to its own FROM.
func valuesColumnRefs(t *columnar.Table, targets []int, list []ast.ExprNode) {
	v := &valuesColumns{table: t.Name, cols: make(map[string]ast.ExprNode, len(t.Fields))}
	for _, f := range t.Fields {
		v.cols[strings.ToLower(f.Name)] = defaultOfColumn(f.Name)
	}
	for i, e := range list {
		name := t.Fields[targets[i]].Name
		if _, ok := e.(*ast.DefaultExpr); ok {
			v.cols[strings.ToLower(name)] = defaultOfColumn(name)
			continue
		}
		if n, ok := e.Accept(v); ok {
			list[i] = n.(ast.ExprNode)
		}
		v.cols[strings.ToLower(name)] = list[i]
	}
}

// defaultOfColumn is DEFAULT(name).
func defaultOfColumn(name string) *ast.DefaultExpr {
	return &ast.DefaultExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(name)}}
}

// valuesColumns is the ast.Visitor of valuesColumnRefs.
type valuesColumns struct {
	table string
	cols  map[string]ast.ExprNode // lower-case name: its value in the row so far
}

func (v *valuesColumns) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr:
		return n, true
	}
	return n, false
}

func (v *valuesColumns) Leave(n ast.Node) (ast.Node, bool) {
	c, ok := n.(*ast.ColumnNameExpr)
	if !ok || c.Name.Table.L != "" && c.Name.Table.L != strings.ToLower(v.table) {
		return n, true
	}
	if e, ok := v.cols[c.Name.Name.L]; ok {
		return e, true
	}
	return n, true
}
