package planner

import "gpusql/sql"

// Filter keeps the rows where Cond is true (not false, not NULL). Predicate
// pushdown places filters directly above the scans they test where it can,
// so a pipeline's filters run before its hash probes.
type Filter struct {
	NodeProps
	Input Node
	Cond  sql.Expr
}

func (n *Filter) Schema() sql.Schema { return n.Input.Schema() }
func (n *Filter) Children() []Node   { return []Node{n.Input} }
