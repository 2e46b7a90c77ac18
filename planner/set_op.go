package planner

import "gpusql/sql"

// SetOp is UNION, INTERSECT or EXCEPT of two inputs of equal arity and column
// types. Without All the result is distinct; with All, bag semantics (UNION
// ALL concatenates; INTERSECT ALL keeps min(m, n) copies of a row, EXCEPT ALL
// max(m-n, 0)).
type SetOp struct {
	NodeProps
	Kind        sql.SetOpKind
	All         bool
	Left, Right Node
	Out         sql.Schema
	// RowKeys describe the rows of both inputs, for the GPU's choice of
	// algorithm (gpu_set_op.go).
	RowKeys RowKeyStats
}

func (n *SetOp) Schema() sql.Schema { return n.Out }
func (n *SetOp) Children() []Node   { return []Node{n.Left, n.Right} }
