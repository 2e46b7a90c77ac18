package driver

import (
	"context"
	"database/sql"
	"testing"
)

// TestPreparedPlanCache runs a database/sql prepared statement with
// repeated and changing arguments, across a write, with the plan cache on
// and off: the arguments are substituted into the text, so each set of
// values is its own cached plan, and a write plans anew.
func TestPreparedPlanCache(t *testing.T) {
	for _, mode := range []string{"on", "off"} {
		t.Run(mode, func(t *testing.T) {
			conn, err := (&Driver{}).OpenConnector("executor=cpu;plan_cache=" + mode)
			if err != nil {
				t.Fatal(err)
			}
			db := sql.OpenDB(conn)
			defer db.Close()
			ctx := context.Background()
			if _, err := db.ExecContext(ctx, "create table t (a int, s varchar(5)); insert into t values (1, 'x'), (2, 'y'), (3, 'x')"); err != nil {
				t.Fatal(err)
			}
			st, err := db.PrepareContext(ctx, "select count(*), coalesce(sum(a), 0) from t where s = ?")
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			check := func(arg string, n, sum int64) {
				t.Helper()
				var gotN, gotSum int64
				if err := st.QueryRowContext(ctx, arg).Scan(&gotN, &gotSum); err != nil {
					t.Fatal(err)
				}
				if gotN != n || gotSum != sum {
					t.Errorf("s = %q: %d rows summing to %d, want %d and %d", arg, gotN, gotSum, n, sum)
				}
			}
			check("x", 2, 4)
			check("y", 1, 2)
			check("x", 2, 4)
			if _, err := db.ExecContext(ctx, "insert into t values (10, 'x')"); err != nil {
				t.Fatal(err)
			}
			check("x", 3, 14)
			check("z", 0, 0)
			// The repeated "x" before the write reused its plan.
			if hits := conn.(*Connector).DB().PlanCacheStats().Hits; (hits > 0) != (mode == "on") {
				t.Errorf("plan_cache=%s: %d hits", mode, hits)
			}
		})
	}
}
