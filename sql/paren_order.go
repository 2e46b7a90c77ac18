package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// A parenthesized query with an ORDER BY or LIMIT after it, (SELECT a
// FROM t) ORDER BY t.a, is one query block in MySQL when the inner block
// can take the clauses (PT_query_expression::can_absorb_order_and_limit):
// it has neither ORDER BY nor LIMIT, or it has an ORDER BY and only a
// LIMIT follows. The clauses then name what the block's own ORDER BY
// could: t.a, or a FROM column not selected ((SELECT a FROM t) ORDER BY
// b). Otherwise, ((SELECT a FROM t ORDER BY b) ORDER BY t.a, (SELECT a
// FROM t LIMIT 2) ORDER BY a), they sort the block's result as a set
// operation's ORDER BY does: by its columns, a table's name refused with
// 1250.

// absorbedSelect is n's one SELECT with n's ORDER BY and LIMIT moved into
// it, where MySQL takes them there; ok is false otherwise.
func absorbedSelect(n *ast.SetOprStmt) (*ast.SelectStmt, bool) {
	if n.OrderBy == nil && n.Limit == nil || n.SelectList == nil || len(n.SelectList.Selects) != 1 {
		return nil, false
	}
	s, ok := singleSelect(n.SelectList.Selects[0])
	if !ok || s.With != nil && n.With != nil {
		return nil, false
	}
	switch {
	case s.OrderBy == nil && s.Limit == nil:
	case s.Limit == nil && n.OrderBy == nil: // (SELECT ... ORDER BY x) LIMIT n
	default:
		return nil, false
	}
	cp := *s // the statement may be bound again (a prepared one): the tree stays as parsed
	if n.OrderBy != nil {
		cp.OrderBy = n.OrderBy
	}
	cp.Limit = n.Limit
	return &cp, true
}

// singleSelect is the SELECT that node is, through any parentheses that
// add no clause of their own.
func singleSelect(node ast.Node) (*ast.SelectStmt, bool) {
	switch x := node.(type) {
	case *ast.SelectStmt:
		return x, x.Kind == ast.SelectStmtKindSelect
	case *ast.SetOprSelectList:
		if len(x.Selects) == 1 && x.With == nil && x.OrderBy == nil && x.Limit == nil {
			return singleSelect(x.Selects[0])
		}
	}
	return nil, false
}

// singleParenthesized reports n as one parenthesized query (no set
// operator) whose ORDER BY is the result's: its table names are 1250.
func singleParenthesized(n *ast.SetOprStmt) bool {
	return n.SelectList != nil && len(n.SelectList.Selects) == 1
}
