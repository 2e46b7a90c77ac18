package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// MySQL merges a derived table, WITH query or view into the query that
// reads it where it can, and materializes it otherwise: its rows are
// written to an internal temporary table whose DECIMAL columns have the
// scale the values print with, so a quotient's further digits
// (division_digits.go) are rounded away there. SELECT x * 3 FROM (SELECT
// 1/3 AS x FROM t LIMIT 9) d is 0.9999, from the 0.3333 stored; merged,
// without the LIMIT, it is 1.0000, from 0.333333333. What keeps a query
// from being merged is listed in MySQL 8.0's manual ("Optimizing Derived
// Tables, View References, and Common Table Expressions with Merging or
// Materialization"; Query_expression::is_mergeable): aggregate or window
// functions, DISTINCT, GROUP BY, HAVING, LIMIT, UNION (any set operation),
// no table to read (literal values only: SELECT 1/3 AS x), and, by
// Query_expression::merge_heuristic, a correlated subquery in the select
// list (one whose value is not constant for the execution) or an
// assignment to a user variable. A recursive WITH query is always
// materialized. gpusql binds the query in place either way (it never
// writes such a table); it rounds the columns of a query MySQL would
// materialize as it rounds the statement's own (shownDigits).

// materialized reports whether MySQL materializes the derived table,
// WITH query or view whose query is n rather than merging it.
func materialized(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.SelectStmt:
		return selectMaterialized(n)
	case *ast.SetOprStmt:
		if n.Limit != nil || n.SelectList == nil || len(n.SelectList.Selects) != 1 {
			return true
		}
		return materialized(n.SelectList.Selects[0])
	case *ast.SetOprSelectList:
		return len(n.Selects) != 1 || materialized(n.Selects[0])
	case *ast.SubqueryExpr:
		return materialized(n.Query)
	}
	return true
}

func selectMaterialized(s *ast.SelectStmt) bool {
	if s.GroupBy != nil || s.Having != nil || s.Distinct || s.Limit != nil || len(s.WindowSpecs) > 0 ||
		s.From == nil || s.From.TableRefs == nil || s.Kind != ast.SelectStmtKindSelect || s.Fields == nil {
		return true
	}
	for _, f := range s.Fields.Fields {
		if f.Expr == nil {
			continue // '*'
		}
		if hasAgg(f.Expr) || hasWindow(f.Expr) || correlatedOrAssigning(f.Expr) {
			return true
		}
	}
	return false
}

// correlatedOrAssigning reports a correlated subquery or an assignment to
// a user variable (@v := x) in e. A subquery is taken as correlated where
// it names a column qualified by a table it does not read itself.
func correlatedOrAssigning(e ast.Node) bool {
	found := false
	walkAST(e, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.SubqueryExpr:
			found = correlated(x)
			return false
		case *ast.VariableExpr:
			found = found || !x.IsSystem && x.Value != nil
		}
		return !found
	})
	return found
}

func correlated(sq *ast.SubqueryExpr) bool {
	own := map[string]bool{}
	walkAST(sq.Query, func(x ast.Node) bool {
		if ts, ok := x.(*ast.TableSource); ok {
			own[strings.ToLower(ts.AsName.O)] = true
			if t, ok := ts.Source.(*ast.TableName); ok && ts.AsName.O == "" {
				own[strings.ToLower(t.Name.O)] = true
			}
		}
		return true
	})
	outer := false
	walkAST(sq.Query, func(x ast.Node) bool {
		if c, ok := x.(*ast.ColumnNameExpr); ok && c.Name.Table.O != "" && !own[strings.ToLower(c.Name.Table.O)] {
			outer = true
		}
		return !outer
	})
	return outer
}

// storesRows says whether the query block about to be bound stores its
// rows as MySQL's temporary table would (the statement's own result, a
// set operation's arm, a materialized derived table), so its quotient
// columns are rounded to their printed scale, and clears the mark for the
// blocks inside it.
func (b *binder) storesRows(parent *scope) bool {
	store := b.queries <= 1 && parent == nil || b.storeRows
	b.storeRows = false
	return store
}
