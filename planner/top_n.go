package planner

import "gpusql/sql"

// TopN is Sort followed by Limit: it keeps only the first Offset+Count rows
// in key order (a bounded heap per worker, merged), so ORDER BY ... LIMIT k
// never sorts the whole input.
type TopN struct {
	NodeProps
	Input  Node
	Keys   []sql.SortKey
	Offset int64
	Count  int64
}

func (n *TopN) Schema() sql.Schema { return n.Input.Schema() }
func (n *TopN) Children() []Node   { return []Node{n.Input} }
