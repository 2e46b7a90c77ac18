package planner

import "gpusql/sql"

// Limit skips Offset rows then returns at most Count (Count < 0: all). Without
// an order below it, which rows are returned is unspecified, so executors may
// stop reading as soon as they have enough.
type Limit struct {
	NodeProps
	Input  Node
	Offset int64
	Count  int64
}

func (n *Limit) Schema() sql.Schema { return n.Input.Schema() }
func (n *Limit) Children() []Node   { return []Node{n.Input} }
