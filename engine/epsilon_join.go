package engine

import (
	"fmt"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SET epsilon_join = 'on' | 'off' | 'noreorder,nosortidu,noshortc,nobatching,k=N'
// switches the ε-similarity join (planner.EpsilonJoin) and each of its
// optimizations for the session's later queries, so that a benchmark or a
// test can measure what each buys, or compare with the nested loop.

// epsilonOptions are the session's ε-join options (all on by default).
func (db *DB) epsilonOptions() planner.EpsilonOptions {
	if v, ok := db.session.Variable("epsilon_join"); ok && !v.Null {
		if o, err := planner.ParseEpsilonOptions(v.S); err == nil {
			return o
		}
	}
	return planner.EpsilonOptions{}
}

// setEpsilonJoin applies SET epsilon_join = '...'.
func (db *DB) setEpsilonJoin(v *sql.Const) error {
	if v.Null || v.T.ID != columnar.String {
		return fmt.Errorf("variable 'epsilon_join' takes a string ('on', 'off' or options such as 'noreorder,k=2'), got %s", v)
	}
	o, err := planner.ParseEpsilonOptions(v.S)
	if err != nil {
		return fmt.Errorf("variable 'epsilon_join': %w", err)
	}
	db.session.SetEngineVariable("epsilon_join", &sql.Const{T: columnar.TString, S: o.String()})
	return nil
}
