package planner

import "gpusql/storage/columnar"

// Subquery replaces sql.ScalarSubquery in physical plans: an uncorrelated
// subquery planned on its own, which executors run once before the operator
// whose expression holds it (an error if it returns more than one row, NULL
// if none).
type Subquery struct {
	Root Node
	T    columnar.Type
}

func (e *Subquery) Type() columnar.Type { return e.T }
func (e *Subquery) String() string      { return "(subquery)" }
