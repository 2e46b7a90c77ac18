//go:build cuda

package gpu

import (
	"fmt"
	"strings"

	"gpusql/planner"
	"gpusql/sql"
)

// baseCol is a column of a table scan: the scan node (one per table
// occurrence in the query) and the index into its table's columns.
type baseCol struct {
	scan *planner.TableScan
	col  int
}

// resolve follows output column pos of n down to the scan column it passes
// through unchanged (planner.ResolveScanColumn).
func resolve(n planner.Node, pos int) (baseCol, bool) {
	b, ok := planner.ResolveScanColumn(n, pos)
	return baseCol{b.Scan, b.Col}, ok
}

// conjuncts splits e at top-level ANDs.
func conjuncts(e sql.Expr) []sql.Expr {
	if b, ok := e.(*sql.Binary); ok && b.Op == sql.OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	if e == nil {
		return nil
	}
	return []sql.Expr{e}
}

// walkExpr visits e and its sub-expressions in pre-order (subquery plans
// are not entered).
func walkExpr(e sql.Expr, fn func(sql.Expr)) { planner.WalkExpr(e, fn) }

// opName is the operator name used in "not supported" errors.
func opName(n planner.Node) string {
	s := fmt.Sprintf("%T", n)
	return strings.TrimPrefix(s, "*planner.")
}

func unsupported(n planner.Node, why string) error {
	if why == "" {
		return fmt.Errorf("gpu: operator %s %w", opName(n), ErrUnsupported)
	}
	return fmt.Errorf("gpu: operator %s %w: %s", opName(n), ErrUnsupported, why)
}
