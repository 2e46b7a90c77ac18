package planner

import "gpusql/sql"

// Distinct removes duplicate rows (NULLs equal each other): a group-by on
// every column without aggregates.
type Distinct struct {
	NodeProps
	Input Node
	// RowKeys describe the rows compared, for the GPU's choice of
	// algorithm (gpu_set_op.go).
	RowKeys RowKeyStats
}

func (n *Distinct) Schema() sql.Schema { return n.Input.Schema() }
func (n *Distinct) Children() []Node   { return []Node{n.Input} }
