package planner

import "gpusql/sql"

// SortMergeJoin sorts both inputs on their keys (skipping inputs that arrive
// sorted) and merges them (merge-path partitioning on the GPU, Diamos et al.).
// It is chosen over HashJoin when both inputs are already sorted on the key,
// or when the build side would be very large with heavily duplicated keys, so
// that a hash table's random accesses cost more than two sorts. Same kinds and
// semantics as HashJoin; output left++right (Semi, Anti: left).
type SortMergeJoin struct {
	NodeProps
	Kind                sql.JoinKind
	Left, Right         Node
	LeftKeys, RightKeys []sql.Expr
	Residual            sql.Expr
	NullAware           bool
	// LeftSorted and RightSorted record inputs known to be ordered on the
	// keys already.
	LeftSorted, RightSorted bool
	Out                     sql.Schema
}

func (n *SortMergeJoin) Schema() sql.Schema { return n.Out }
func (n *SortMergeJoin) Children() []Node   { return []Node{n.Left, n.Right} }
