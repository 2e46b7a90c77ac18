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
// through unchanged, across filters, column-reference projections and inner
// and semi joins.
func resolve(n planner.Node, pos int) (baseCol, bool) {
	switch x := n.(type) {
	case *planner.TableScan:
		if pos < 0 || pos >= len(x.Columns) {
			return baseCol{}, false
		}
		return baseCol{x, x.Columns[pos]}, true
	case *planner.Filter:
		return resolve(x.Input, pos)
	case *planner.Projection:
		if pos >= 0 && pos < len(x.Exprs) {
			if r, ok := x.Exprs[pos].(*sql.ColRef); ok {
				return resolve(x.Input, r.Index)
			}
		}
	case *planner.HashJoin:
		nl := len(x.Left.Schema())
		if pos < nl {
			return resolve(x.Left, pos)
		}
		if x.Kind == sql.JoinInner {
			return resolve(x.Right, pos-nl)
		}
	}
	return baseCol{}, false
}

// columnsOf returns the distinct scan columns e reads (e over n's output),
// or ok=false when some reference does not resolve to a scan column.
func columnsOf(e sql.Expr, n planner.Node) (cols []baseCol, ok bool) {
	ok = true
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			b, found := resolve(n, r.Index)
			if !found {
				ok = false
				return
			}
			for _, c := range cols {
				if c == b {
					return
				}
			}
			cols = append(cols, b)
		case *planner.Subquery:
			ok = false
		}
	})
	return cols, ok
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
