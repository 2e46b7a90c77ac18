package server

import (
	"testing"

	"gpusql/engine"
)

// TestMySQLPlanCache runs the same text and the same prepared statement
// (COM_STMT_EXECUTE) repeatedly over the wire, with a write between:
// repeats reuse the plan, the write makes the next run plan anew, and
// every answer is the one the rows give.
func TestMySQLPlanCache(t *testing.T) {
	db, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	_, addr := startServer(t, Config{DB: db}, `create table t (id int, name varchar(20));
		insert into t values (1, 'apple'), (2, 'pear'), (3, 'apple');`)
	conn := open(t, addr, "admin", "secret", "interpolateParams=false")
	st, err := conn.Prepare("select count(*), sum(id) from t where name = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check := func(how string, n, sum int64) {
		t.Helper()
		var gotN, gotSum int64
		for i := range 2 {
			row := conn.QueryRow("select count(*), sum(id) from t where name = 'apple'")
			if i == 1 {
				row = st.QueryRow("apple")
			}
			if err := row.Scan(&gotN, &gotSum); err != nil {
				t.Fatal(err)
			}
			if gotN != n || gotSum != sum {
				t.Errorf("%s (%s): %d rows summing to %d, want %d and %d", how, []string{"COM_QUERY", "COM_STMT_EXECUTE"}[i], gotN, gotSum, n, sum)
			}
		}
	}
	check("first", 2, 4)
	before := db.PlanCacheStats().Hits
	check("again", 2, 4)
	if db.PlanCacheStats().Hits < before+2 {
		t.Errorf("repeats did not reuse the plan: hits %d -> %d", before, db.PlanCacheStats().Hits)
	}
	if _, err := conn.Exec("insert into t values (10, 'apple')"); err != nil {
		t.Fatal(err)
	}
	check("after an insert", 3, 14)
}
