package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
)

// Distinct is a hash aggregation on every column without aggregates.
func (x *executor) runDistinct(n *planner.Distinct) (*rel, error) {
	s := n.Input.Schema()
	keys := make([]sql.Expr, len(s))
	for i, c := range s {
		keys[i] = &sql.ColRef{Index: i, Col: c}
	}
	return x.aggregate(n, n.Input, keys, nil, planner.AggHash, nil)
}
