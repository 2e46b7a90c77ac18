package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gpusql/catalog"
)

// A locking read (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) inside a
// transaction makes its COMMIT fail if another session changed a table it
// read since the transaction began, though the transaction did not change
// that table: the classic read-then-write (read a balance FOR UPDATE,
// write the transfer elsewhere) cannot commit on a stale read. A plain
// read under the same interleaving commits (snapshot isolation), and
// outside a transaction a locking read is a plain read.
func TestLockingReadConflicts(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := db.Conn(), db.Conn()
	exec := func(c *Conn, q string) error {
		t.Helper()
		_, err := c.Exec(ctx, q, "")
		return err
	}
	must := func(c *Conn, q string) {
		t.Helper()
		if err := exec(c, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must(a, "create table acct (id int, bal int); create table log (id int, amt int); insert into acct values (1, 100)")
	count := func(table string) string {
		t.Helper()
		res, err := a.Exec(ctx, "select count(*) from "+table, "")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res[0].Result.Columns[0].Int64At(0))
	}
	for _, lock := range []string{"for update", "for share", "lock in share mode", "for update nowait", "for update skip locked"} {
		before := count("log")
		must(a, "begin")
		must(a, "select bal from acct where id = 1 "+lock)
		must(b, "update acct set bal = bal - 70 where id = 1")
		must(a, "insert into log values (1, 60)")
		err := exec(a, "commit")
		var ce *catalog.ConflictError
		if !errors.As(err, &ce) || ce.Table != "acct" || !strings.Contains(err.Error(), "FOR UPDATE or FOR SHARE") {
			t.Errorf("%s: commit after another session changed the read table: %v, want a conflict on acct", lock, err)
		}
		if got := count("log"); got != before {
			t.Errorf("%s: the failed commit wrote log (%s rows, want %s)", lock, got, before)
		}
		must(b, "update acct set bal = 100")
	}

	must(a, "begin")
	must(a, "select bal from acct where id = 1")
	must(b, "update acct set bal = bal - 70 where id = 1")
	must(a, "insert into log values (1, 60)")
	if err := exec(a, "commit"); err != nil {
		t.Errorf("plain read: %v, want the commit to succeed (snapshot isolation)", err)
	}
	must(a, "select bal from acct for update")
	must(b, "update acct set bal = 5")
	if a.InTransaction() {
		t.Error("a locking read outside a transaction opened one")
	}
}
