package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// ScanColumn is a column of a table scan: the scan node (one per table
// occurrence in the query) and the index into its table's columns.
type ScanColumn struct {
	Scan *TableScan
	Col  int
}

// ResolveScanColumn follows output column pos of n down to the scan column
// it passes through unchanged, across filters, column-reference
// projections and inner and semi hash joins.
func ResolveScanColumn(n Node, pos int) (ScanColumn, bool) {
	switch x := n.(type) {
	case *TableScan:
		if pos < 0 || pos >= len(x.Columns) {
			return ScanColumn{}, false
		}
		return ScanColumn{x, x.Columns[pos]}, true
	case *Filter:
		return ResolveScanColumn(x.Input, pos)
	case *Projection:
		if pos >= 0 && pos < len(x.Exprs) {
			if r, ok := x.Exprs[pos].(*sql.ColRef); ok {
				return ResolveScanColumn(x.Input, r.Index)
			}
		}
	case *HashJoin:
		nl := len(x.Left.Schema())
		if pos < nl {
			return ResolveScanColumn(x.Left, pos)
		}
		if x.Kind == sql.JoinInner {
			return ResolveScanColumn(x.Right, pos-nl)
		}
	}
	return ScanColumn{}, false
}

// ScanColumnsOf returns the distinct scan columns e reads (e over n's
// output), or ok=false when some reference does not resolve to a scan
// column or e holds a subquery.
func ScanColumnsOf(e sql.Expr, n Node) (cols []ScanColumn, ok bool) {
	ok = true
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			b, found := ResolveScanColumn(n, r.Index)
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
		case *Subquery:
			ok = false
		}
	})
	return cols, ok
}

// ScanExpr is an expression over Node's output whose every column is a
// column of Scan.
type ScanExpr struct {
	E    sql.Expr
	Node Node
	Scan *TableScan
}

// ColOf maps the expression's column references to the scan's table
// columns (what the GPU's expression VM compiler reads).
func (x ScanExpr) ColOf(idx int) (*columnar.Column, bool) {
	b, ok := ResolveScanColumn(x.Node, idx)
	if !ok || b.Scan != x.Scan {
		return nil, false
	}
	return x.Scan.Table.Columns[b.Col], true
}

// ColRefUnder returns the column e reads when e is a column reference under
// value-preserving casts.
func ColRefUnder(e sql.Expr) (*sql.ColRef, bool) {
	for {
		switch x := e.(type) {
		case *sql.ColRef:
			return x, true
		case *sql.Cast:
			if !ValuePreservingCast(x.E.Type(), x.T) {
				return nil, false
			}
			e = x.E
		default:
			return nil, false
		}
	}
}

// ValuePreservingCast reports whether casting from → to keeps every value
// (and its physical representation), so the cast can be read through.
func ValuePreservingCast(from, to columnar.Type) bool {
	switch to.ID {
	case columnar.Int32, columnar.Int64:
		return from.ID == columnar.Int32 || from.ID == columnar.Int64 || from.ID == columnar.Bool
	case columnar.Decimal:
		return (from.ID == columnar.Int32 || from.ID == columnar.Int64) && to.Scale == 0 ||
			from.ID == columnar.Decimal && from.Scale == to.Scale
	case columnar.Float64:
		return from.ID == columnar.Float64
	case columnar.Datetime, columnar.Time:
		// A smaller fsp rounds.
		return from.ID == to.ID && to.Scale >= from.Scale
	}
	return from.ID == to.ID
}
