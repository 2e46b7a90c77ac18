package driver

import (
	"context"
	"database/sql"
	"testing"
)

// TestConnectionID: each database/sql connection is its own MySQL
// connection, so CONNECTION_ID() differs between two of them, is the same
// for one connection's statements, and is never 0 (MySQL's ids start at 1).
func TestConnectionID(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	id := func(c *sql.Conn) uint64 {
		var n uint64
		if err := c.QueryRowContext(ctx, "select connection_id()").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ia, ib := id(a), id(b)
	if ia == 0 || ib == 0 || ia == ib {
		t.Errorf("CONNECTION_ID() of two connections: %d and %d, want two different ids", ia, ib)
	}
	if again := id(a); again != ia {
		t.Errorf("CONNECTION_ID() of one connection changed: %d, then %d", ia, again)
	}
	var pseudo uint64
	if err := a.QueryRowContext(ctx, "select @@pseudo_thread_id").Scan(&pseudo); err != nil || pseudo != ia {
		t.Errorf("@@pseudo_thread_id = %d (%v), want CONNECTION_ID() %d", pseudo, err, ia)
	}
}
