package driver

import (
	"context"
	"database/sql"
	"testing"
)

// Result.LastInsertId is the first AUTO_INCREMENT value the INSERT
// generated, else the explicit value it stored, as MySQL drivers report
// it; LAST_INSERT_ID() counts generated values only.
func TestLastInsertID(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "CREATE TABLE t (id BIGINT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5))"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		q        string
		args     []any
		id, rows int64
	}{
		{"INSERT INTO t (v) VALUES (?), (?)", []any{"a", "b"}, 1, 2},
		{"INSERT INTO t VALUES (?, ?)", []any{nil, "c"}, 3, 1},
		{"INSERT INTO t VALUES (?, ?)", []any{int64(7), "d"}, 7, 1}, // explicit: the value stored
		{"INSERT INTO t (v) VALUES (?)", []any{"e"}, 8, 1},
	} {
		r, err := c.ExecContext(ctx, s.q, s.args...)
		if err != nil {
			t.Fatalf("%s: %v", s.q, err)
		}
		id, err := r.LastInsertId()
		n, _ := r.RowsAffected()
		if err != nil || id != s.id || n != s.rows {
			t.Errorf("%s: LastInsertId %d (%v), RowsAffected %d; want %d, %d", s.q, id, err, n, s.id, s.rows)
		}
	}
	var last int64
	if err := c.QueryRowContext(ctx, "SELECT LAST_INSERT_ID()").Scan(&last); err != nil || last != 8 {
		t.Errorf("LAST_INSERT_ID() = %d, %v; want 8", last, err)
	}
}
