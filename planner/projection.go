package planner

import "gpusql/sql"

// Projection computes Exprs over its input. A projection of plain column
// references only renames and reorders; executors pass the vectors through.
type Projection struct {
	NodeProps
	Input Node
	Exprs []sql.Expr
	Out   sql.Schema
	// Needed[i] is true when output column i is read above; executors need
	// not compute the others (nil: all are needed).
	Needed []bool
}

func (n *Projection) Schema() sql.Schema { return n.Out }
func (n *Projection) Children() []Node   { return []Node{n.Input} }

// IsPassThrough reports whether every expression is a column reference.
func (n *Projection) IsPassThrough() bool {
	for _, e := range n.Exprs {
		if _, ok := e.(*sql.ColRef); !ok {
			return false
		}
	}
	return true
}
