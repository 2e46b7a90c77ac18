package planner

import "gpusql/sql"

// Sort orders its input by Keys; NULLs sort first ascending and last
// descending (MySQL). Stable, so ties keep their input order.
type Sort struct {
	NodeProps
	Input Node
	Keys  []sql.SortKey
}

func (n *Sort) Schema() sql.Schema { return n.Input.Schema() }
func (n *Sort) Children() []Node   { return []Node{n.Input} }
