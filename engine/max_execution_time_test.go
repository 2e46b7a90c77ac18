package engine

import (
	"context"
	"strings"
	"testing"
)

// @@max_execution_time and the MAX_EXECUTION_TIME(N) hint stop a SELECT
// that runs longer with MySQL's error 3024, through a fresh plan and a
// cached one; 0 (the default) bounds nothing; the hint overrides the
// variable.
func TestMaxExecutionTime(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	mustExec(t, db, "create table d (n int); insert into d values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9); "+
		"create table a as select d1.n * 1000 + d2.n * 100 + d3.n * 10 + d4.n as x from d d1, d d2, d d3, d d4 where d1.n < 3; create table b as select x as y from a", "")
	const slow = "select count(*) from a, b where a.x * 7 + b.y = 12345"
	if got := execRows(t, db.conn, "select @@max_execution_time"); got[0][0] != "0" {
		t.Errorf("@@max_execution_time default %v, want 0", got)
	}
	timedOut := func(q string) bool {
		t.Helper()
		_, err := db.Exec(ctx, q, "")
		if err != nil && !strings.Contains(err.Error(), "maximum statement execution time exceeded") {
			t.Fatalf("%s: %v", q, err)
		}
		return err != nil
	}
	if timedOut(slow) {
		t.Error("timed out with no limit")
	}
	mustExec(t, db, "set max_execution_time = 1", "")
	for i := range 2 { // the second run comes from the plan cache
		if !timedOut(slow) {
			t.Errorf("run %d: not stopped after 1 ms", i)
		}
	}
	if timedOut("select /*+ MAX_EXECUTION_TIME(100000) */ count(*) from a, b where a.x * 7 + b.y = 12345") {
		t.Error("the hint's 100 s did not override the variable's 1 ms")
	}
	mustExec(t, db, "set max_execution_time = default", "")
	if !timedOut("select /*+ MAX_EXECUTION_TIME(1) */ count(*) from a, b where a.x * 7 + b.y = 12345") {
		t.Error("the hint's 1 ms did not stop the query")
	}
	// 7x + y = 12345 over x, y in 0..2999: x from 1336 to 1763.
	if got := execRows(t, db.conn, slow); got[0][0] != "428" {
		t.Errorf("after SET DEFAULT: %v, want 428", got)
	}
}
