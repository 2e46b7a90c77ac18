package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gpusql/catalog"
)

// TestTransactionIsolation: a transaction's changes are invisible to other
// connections until COMMIT, it does not see theirs, and of two transactions
// changing one table the second to commit fails and applies nothing.
func TestTransactionIsolation(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := db.Conn(), db.Conn()
	exec := func(c *Conn, q string) {
		t.Helper()
		if _, err := c.Exec(ctx, q, ""); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	count := func(c *Conn, table string) string {
		t.Helper()
		res, err := c.Exec(ctx, "select count(*) from "+table, "")
		if err != nil {
			t.Fatal(err)
		}
		r := res[0].Result
		return fmt.Sprint(r.Columns[0].Int64At(0))
	}
	exec(a, "create table t (x int); create table u (y int); insert into t values (1)")
	exec(a, "begin; insert into t values (2)")
	if got := count(b, "t"); got != "1" {
		t.Errorf("other connection sees uncommitted rows: count %s, want 1", got)
	}
	exec(b, "insert into u values (7)")
	if got := count(a, "u"); got != "0" {
		t.Errorf("transaction sees a change committed after it began: count %s, want 0", got)
	}
	exec(a, "commit")
	if got := count(b, "t"); got != "2" {
		t.Errorf("after commit: count %s, want 2", got)
	}
	if got := count(b, "u"); got != "1" {
		t.Errorf("commit undid another connection's change to a table it did not touch: count %s, want 1", got)
	}

	exec(a, "begin; insert into t values (3)")
	exec(b, "begin; insert into t values (4); insert into u values (8)")
	exec(a, "commit")
	_, err = b.Exec(ctx, "commit", "")
	var ce *catalog.ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "table t") {
		t.Fatalf("second commit: got %v, want a conflict on table t", err)
	}
	if b.InTransaction() {
		t.Error("a failed commit leaves the transaction open")
	}
	if got, got2 := count(b, "t"), count(b, "u"); got != "3" || got2 != "1" {
		t.Errorf("after the conflict: t has %s rows (want 3), u %s (want 1: nothing of the loser applied)", got, got2)
	}
}
