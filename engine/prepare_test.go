package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestPreparedStatementsPerConnection: a statement PREPAREd on one
// connection is unknown on another, and EXECUTE in a read-only session
// runs a SELECT but is refused a write (the rights of the statement it
// runs, not of EXECUTE).
func TestPreparedStatementsPerConnection(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, "CREATE TABLE t (a INT); INSERT INTO t VALUES (1), (2), (3)", ""); err != nil {
		t.Fatal(err)
	}
	a, b := db.Conn(), db.Conn()
	if _, err := a.Exec(ctx, "PREPARE s FROM 'SELECT count(*) FROM t WHERE a >= ?'; SET @x = 2", ""); err != nil {
		t.Fatal(err)
	}
	res, err := a.Exec(ctx, "EXECUTE s USING @x", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := res[0].Result.Columns[0].Int64At(0); got != 2 {
		t.Errorf("EXECUTE s USING @x (= 2): count %d, want 2", got)
	}
	if _, err := b.Exec(ctx, "EXECUTE s", ""); err == nil || !strings.Contains(err.Error(), "Unknown prepared statement handler (s) given to EXECUTE") {
		t.Errorf("EXECUTE on another connection: err %v, want unknown handler", err)
	}

	ro := db.SessionConn(SessionOptions{User: "reader", ReadOnly: true})
	if _, err := ro.Exec(ctx, "PREPARE r FROM 'SELECT a FROM t'; EXECUTE r; PREPARE w FROM 'DELETE FROM t'", ""); err != nil {
		t.Fatalf("read-only session, PREPARE / EXECUTE of a SELECT: %v", err)
	}
	_, err = ro.Exec(ctx, "EXECUTE w", "")
	var pe *PrivilegeError
	if !errors.As(err, &pe) || pe.Command != "DELETE" {
		t.Errorf("read-only session, EXECUTE of a DELETE: err %v, want a DELETE privilege error", err)
	}
}

// TestPreparedColumnNames: EXECUTE names a prepared SELECT's unaliased
// items by their text at PREPARE, as MySQL does (`? + 1`, `?`), keeps
// aliases, and leaves the same text run unprepared named by its values.
func TestPreparedColumnNames(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := db.Exec(ctx, "PREPARE s FROM 'SELECT ? + 1, ? AS x, ?, ''?'''; SET @a = 1; EXECUTE s USING @a, @a, @a; SELECT 1 + 1, 1 AS x, 1, '?'", "")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"? + 1|x|?|?", "1 + 1|x|1|?"} {
		if got := strings.Join(res[len(res)-2+i].Result.Names, "|"); got != want {
			t.Errorf("statement %d: columns %s, want %s", i, got, want)
		}
	}
}
