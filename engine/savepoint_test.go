package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// sessionPair opens a CPU database with table t (x INT) holding 1 and two
// connections to it, and helpers that run a statement and count t's rows.
func sessionPair(t *testing.T) (a, b *Conn, exec func(c *Conn, q string), count func(c *Conn) string) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exec = func(c *Conn, q string) {
		t.Helper()
		if _, err := c.Exec(ctx, q, ""); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	count = func(c *Conn) string {
		t.Helper()
		res, err := c.Exec(ctx, "select count(*) from t", "")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res[0].Result.Columns[0].Int64At(0))
	}
	a, b = db.Conn(), db.Conn()
	exec(a, "create table t (x int); insert into t values (1)")
	return a, b, exec, count
}

// TestAutocommitOff: under SET autocommit = 0 changes stay private until
// COMMIT, ROLLBACK undoes them, DDL and SET autocommit = 1 commit, and
// @@autocommit reads the connection's setting.
func TestAutocommitOff(t *testing.T) {
	a, b, exec, count := sessionPair(t)
	ctx := context.Background()
	autocommit := func(c *Conn) string {
		t.Helper()
		res, err := c.Exec(ctx, "select @@autocommit", "")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res[0].Result.Columns[0].Int64At(0))
	}
	exec(a, "set autocommit = 0")
	if autocommit(a) != "0" || autocommit(b) != "1" {
		t.Errorf("@@autocommit: a %s b %s, want 0 1", autocommit(a), autocommit(b))
	}
	res, err := a.Exec(ctx, "show variables like 'autocommit'", "")
	if err != nil || res[0].Result.Rows != 1 || res[0].Result.Row(0)[1] != "OFF" {
		t.Errorf("SHOW VARIABLES LIKE 'autocommit' under autocommit = 0: %v %v", res, err)
	}
	exec(a, "insert into t values (2)")
	if !a.InTransaction() || count(b) != "1" || count(a) != "2" {
		t.Errorf("uncommitted insert: in transaction %v, b sees %s, a sees %s; want true 1 2", a.InTransaction(), count(b), count(a))
	}
	exec(a, "rollback")
	exec(a, "insert into t values (3)")
	exec(a, "commit")
	if count(b) != "2" {
		t.Errorf("after ROLLBACK then INSERT, COMMIT: b sees %s rows, want 2", count(b))
	}
	exec(a, "insert into t values (4)")
	exec(a, "create table u (y int)") // DDL commits the open transaction
	if a.InTransaction() || count(b) != "3" {
		t.Errorf("DDL under autocommit = 0: in transaction %v, b sees %s rows; want false 3", a.InTransaction(), count(b))
	}
	exec(a, "delete from t where x = 4")
	exec(a, "set autocommit = ON") // commits
	if a.InTransaction() || count(b) != "2" || autocommit(a) != "1" {
		t.Errorf("SET autocommit = 1: in transaction %v, b sees %s rows, @@autocommit %s; want false 2 1", a.InTransaction(), count(b), autocommit(a))
	}
	exec(a, "insert into t values (5)")
	if a.InTransaction() || count(b) != "3" {
		t.Errorf("autocommit back on: in transaction %v, b sees %s; want false 3", a.InTransaction(), count(b))
	}
	for _, bad := range []string{"set autocommit = 2", "set autocommit = 'maybe'", "set autocommit = null"} {
		if _, err := a.Exec(ctx, bad, ""); err == nil || !strings.Contains(err.Error(), "autocommit") {
			t.Errorf("%s: %v, want an error naming autocommit", bad, err)
		}
	}
}

// TestSavepointOutsideTransaction: as in MySQL with autocommit on,
// SAVEPOINT outside a transaction does nothing and ROLLBACK TO / RELEASE
// then fail with "SAVEPOINT x does not exist"; savepoints are private to
// their connection.
func TestSavepointOutsideTransaction(t *testing.T) {
	a, b, exec, count := sessionPair(t)
	ctx := context.Background()
	exec(a, "savepoint s")
	for _, q := range []string{"rollback to savepoint s", "release savepoint s"} {
		_, err := a.Exec(ctx, q, "")
		var se *SavepointError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "SAVEPOINT s does not exist") {
			t.Errorf("%s outside a transaction: %v", q, err)
		}
	}
	exec(a, "begin; insert into t values (2); savepoint s; insert into t values (3)")
	exec(b, "begin")
	if _, err := b.Exec(ctx, "rollback to s", ""); err == nil {
		t.Errorf("another connection rolled back to a's savepoint")
	}
	exec(a, "rollback to s; commit")
	if count(b) != "1" {
		t.Errorf("b's snapshot changed under it: %s rows, want 1", count(b))
	}
	exec(b, "commit")
	if count(b) != "2" {
		t.Errorf("after a's commit: %s rows, want 2", count(b))
	}
}

// TestAutocommitOffSavepointAndPersistence: under autocommit = 0 SAVEPOINT
// opens the transaction (it is always under way), and a commit by SET
// autocommit = 1 reaches the database directory.
func TestAutocommitOffSavepointAndPersistence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE t (a INT);
		SET autocommit = 0;
		SAVEPOINT s;
		INSERT INTO t VALUES (1);
		ROLLBACK TO SAVEPOINT s;
		INSERT INTO t VALUES (2);
		SET autocommit = 1;
		SET autocommit = 0;
		INSERT INTO t VALUES (3);`)
	if err := db.Close(); err != nil { // closing drops the open transaction
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT a FROM t ORDER BY a"); got != "2" {
		t.Errorf("after reopen: %s, want 2 (3 was never committed)", got)
	}
}
