package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// MySQL's refusals of a set operation's clauses that gpusql's parser
// accepts.

// memberClauses is MySQL's error 1221 for ORDER BY or LIMIT written on a
// SELECT of a set operation without parentheses (SELECT a FROM t ORDER BY
// a UNION SELECT b FROM u): MySQL takes those clauses only inside
// parentheses, where they apply to that SELECT, or after the last SELECT,
// where they apply to the whole result. Ignoring them, as the parser's
// tree would, answers a query MySQL refuses.
func (b *binder) memberClauses(s *ast.SelectStmt) error {
	if s.IsInBraces {
		return nil
	}
	clause := ""
	switch {
	case s.OrderBy != nil:
		clause = "ORDER BY"
	case s.Limit != nil:
		clause = "LIMIT"
	default:
		return nil
	}
	return b.errCode(b.posOr(s, -1), ErWrongUsage, "Incorrect usage of UNION and %s", clause)
}

// globalOrderTable is MySQL's error 1250 for a column qualified by a table
// in the ORDER BY of a set operation (SELECT a FROM t UNION SELECT b FROM
// u ORDER BY t.a): that ORDER BY sorts the result's columns, which belong
// to no table. A subquery in the key keeps its own tables.
func (b *binder) globalOrderTable(n ast.ExprNode) error {
	var bad *ast.ColumnNameExpr
	walkAST(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
			return false
		case *ast.ColumnNameExpr:
			if bad == nil && x.Name.Table.O != "" {
				bad = x
			}
		}
		return bad == nil
	})
	if bad == nil {
		return nil
	}
	return b.errCode(b.posOr(bad, -1), ErTablenameNotAllowedHere, "Table '%s' from one of the SELECTs cannot be used in global ORDER clause", bad.Name.Table.O)
}
