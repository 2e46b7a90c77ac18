package engine

import (
	"fmt"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// joinAlgorithms are the names --join, the DSN's join= and SET
// join_algorithm take: "auto" (or "") lets the planner choose by cost; the
// others force one algorithm on every equi-join so that tests can run the
// whole corpus under each (EXPLAIN says where one does not apply).
var joinAlgorithms = []string{"auto", "hash", "merge", "bitmap", "twopass"}

// checkJoinAlgorithm refuses a name that is not a join algorithm.
func checkJoinAlgorithm(name string) error {
	if name == "" {
		return nil
	}
	for _, a := range joinAlgorithms {
		if strings.EqualFold(name, a) {
			return nil
		}
	}
	return fmt.Errorf("unknown join algorithm %q (want %s)", name, strings.Join(joinAlgorithms, ", "))
}

// plannerJoin is the planner's name for a join algorithm ("" for auto).
func plannerJoin(name string) string {
	name = strings.ToLower(name)
	if name == "auto" {
		return ""
	}
	return name
}

// joinAlgorithm is the algorithm the session's queries are planned with:
// SET join_algorithm where the session set it, the database's option
// otherwise.
func (db *DB) joinAlgorithm() string {
	if v, ok := db.session.Variable("join_algorithm"); ok && !v.Null {
		return plannerJoin(v.S)
	}
	return plannerJoin(db.opts.Join)
}

// setJoinAlgorithm applies SET join_algorithm = 'name'.
func (db *DB) setJoinAlgorithm(v *sql.Const) error {
	if v.Null || v.T.ID != columnar.String {
		return fmt.Errorf("variable 'join_algorithm' takes a string (%s), got %s", strings.Join(joinAlgorithms, ", "), v)
	}
	if err := checkJoinAlgorithm(v.S); err != nil {
		return fmt.Errorf("variable 'join_algorithm': %w", err)
	}
	db.session.SetEngineVariable("join_algorithm", &sql.Const{T: columnar.TString, S: strings.ToLower(v.S)})
	return nil
}

// defaultJoinAlgorithm is what SET join_algorithm = DEFAULT restores: the
// database's option.
func defaultJoinAlgorithm(opt string) string {
	if opt == "" {
		return "auto"
	}
	return strings.ToLower(opt)
}
