package planner

import "gpusql/sql"

// Values is a constant relation; every expression is evaluated once.
type Values struct {
	NodeProps
	Rows [][]sql.Expr
	Out  sql.Schema
}

func (n *Values) Schema() sql.Schema { return n.Out }
func (n *Values) Children() []Node   { return nil }
