package gpu

import (
	"strings"

	"gpusql/planner"
	"gpusql/sql"
)

// sameEveryRun reports whether e's text determines its value on a row:
// no subquery (its value is computed when the query runs and prints as
// "(subquery)"), no parameter, no function of the clock or of chance.
func sameEveryRun(e sql.Expr) bool {
	same := true
	sql.WalkExpr(e, func(x sql.Expr) bool {
		switch x := x.(type) {
		case *planner.Subquery, *planner.NestedSubquery, *sql.ScalarSubquery, *sql.NestedSubquery, *sql.Param:
			same = false
		case *sql.Func:
			switch strings.ToLower(x.Name) {
			case "rand", "uuid", "uuid_short", "now", "sysdate", "current_timestamp", "localtime", "localtimestamp",
				"utc_timestamp", "curdate", "current_date", "curtime", "current_time", "utc_date", "utc_time",
				"unix_timestamp", "connection_id", "last_insert_id", "database", "user", "current_user":
				same = false
			}
		}
		return same
	})
	return same
}
