package engine

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// TestPlanCacheVolatileFuncs: statements calling RAND, UUID, UUID_SHORT or
// RANDOM_BYTES are never cached, each run draws new values, and RAND(N)
// restarts its sequence per run (as MySQL seeds it per statement).
func TestPlanCacheVolatileFuncs(t *testing.T) {
	db := open(t)
	c := db.conn
	mustExec(t, db, "create table t (a int); insert into t values (1), (2), (3)", "")
	for _, q := range []string{"select a, rand() from t", "select a, uuid() from t", "select uuid_short() from t",
		"select hex(random_bytes(8)) from t", "select a, rand(a) from t"} {
		before := db.PlanCacheStats().Entries
		first := execRows(t, c, q)
		second := execRows(t, c, q)
		if after := db.PlanCacheStats().Entries; after != before {
			t.Errorf("%s was cached", q)
		}
		if q != "select a, rand(a) from t" && reflect.DeepEqual(first, second) {
			t.Errorf("%s: two runs gave the same rows %v", q, first)
		}
	}
	q := "select rand(3) from t where a = 1"
	if a, b := execRows(t, c, q), execRows(t, c, q); !reflect.DeepEqual(a, b) || a[0][0] != "0.9057697559760601" {
		t.Errorf("RAND(3) per run: %v then %v, want 0.9057697559760601 both times", a, b)
	}
}

// TestSleepCancelled: SLEEP waits per row, and a cancelled query stops
// waiting at once (it does not sleep out the rows left).
func TestSleepCancelled(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); insert into t values (1), (2), (3)", "")
	if got := execRows(t, db.conn, "select sum(sleep(0.001)) from t"); !reflect.DeepEqual(got, rows("0")) {
		t.Errorf("sum(sleep(0.001)) = %v, want 0", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := db.conn.Exec(ctx, "select sleep(100) from t", "")
	if err == nil || time.Since(start) > 20*time.Second {
		t.Errorf("a cancelled SLEEP(100) returned %v after %v", err, time.Since(start))
	}
}
