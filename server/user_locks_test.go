package server

import (
	"context"
	"database/sql"
	"testing"
)

// TestMySQLUserLocks: GET_LOCK over the wire is exclusive between two
// client connections, IS_USED_LOCK names the holder's CONNECTION_ID(),
// bad names are MySQL's error 3057, and a connection's locks go when
// the client disconnects.
func TestMySQLUserLocks(t *testing.T) {
	_, addr := startServer(t, Config{}, "")
	dbA, db := open(t, addr, "admin", "secret", ""), open(t, addr, "admin", "secret", "")
	ctx := context.Background()
	a, err := dbA.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	one := func(c *sql.Conn, q string) sql.NullInt64 {
		t.Helper()
		var v sql.NullInt64
		if err := c.QueryRowContext(ctx, q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	if v := one(a, "select get_lock('job', 0)"); v.Int64 != 1 {
		t.Fatalf("a's get_lock = %v", v)
	}
	if v := one(b, "select get_lock('job', 0)"); !v.Valid || v.Int64 != 0 {
		t.Fatalf("b's get_lock of a's lock = %v, want 0", v)
	}
	if used, id := one(b, "select is_used_lock('job')"), one(a, "select connection_id()"); used != id {
		t.Errorf("is_used_lock = %v, a's connection_id() = %v", used, id)
	}
	_, err = b.ExecContext(ctx, "select get_lock('', 1)")
	if mysqlCode(err) != 3057 {
		t.Errorf("get_lock(''): %v, want error 3057", err)
	}
	// a disconnects: its lock goes with it. The server ends the session
	// when it reads the client's quit, which b's GET_LOCK waits for.
	a.Close()
	dbA.Close()
	if v := one(b, "select get_lock('job', 20)"); v.Int64 != 1 {
		t.Fatalf("b's get_lock after a disconnected = %v, want 1", v)
	}
	if v := one(b, "select release_lock('job')"); v.Int64 != 1 {
		t.Errorf("b's release_lock = %v", v)
	}
}
