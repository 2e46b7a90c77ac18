package planner

import "gpusql/sql"

// NestedLoopJoin tests Cond (over left++right; nil: every pair) on every pair
// of rows. The planner uses it only for joins without an equality between the
// two sides (cross products, theta joins). Kinds as HashJoin plus Cross; for
// Anti with NullAware a left row is dropped when Cond is TRUE or NULL for some
// right row.
type NestedLoopJoin struct {
	NodeProps
	Kind        sql.JoinKind
	Left, Right Node
	Cond        sql.Expr
	NullAware   bool
	Out         sql.Schema
}

func (n *NestedLoopJoin) Schema() sql.Schema { return n.Out }
func (n *NestedLoopJoin) Children() []Node   { return []Node{n.Left, n.Right} }
