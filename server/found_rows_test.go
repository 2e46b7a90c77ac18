package server

import (
	"context"
	"testing"
)

// A client that sets CLIENT_FOUND_ROWS (go-sql-driver/mysql's
// clientFoundRows=true; Connector/J by default) gets UPDATE's rows matched,
// not changed, and ON DUPLICATE KEY UPDATE counts a row updated to the
// values it had as 1, not 0 ("mysql_affected_rows()"); other clients get
// the rows changed.
func TestMySQLClientFoundRows(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table f (id int primary key, v int);
		insert into f values (1, 1), (2, 1), (3, 2)`)
	for _, c := range []struct {
		params string
		q      string
		rows   int64
	}{
		{"", "update f set v = 1", 1},
		{"clientFoundRows=true", "update f set v = 1", 3},
		{"clientFoundRows=true", "update f set v = 2 where id = 1", 1},
		{"", "insert into f values (1, 0) on duplicate key update v = 2", 0},
		{"clientFoundRows=true", "insert into f values (1, 0) on duplicate key update v = 2", 1},
		{"clientFoundRows=true", "insert into f values (1, 0), (4, 4) on duplicate key update v = 3", 3},
		{"clientFoundRows=true", "delete from f where id > 3", 1},
	} {
		db := open(t, addr, "admin", "secret", c.params)
		r, err := db.ExecContext(context.Background(), c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if n, _ := r.RowsAffected(); n != c.rows {
			t.Errorf("%s (%s): %d rows affected, want %d", c.q, c.params, n, c.rows)
		}
	}
}

// ROW_COUNT() is the count the OK packet carried (MySQL: "the value of
// mysql_affected_rows()"): rows matched for a CLIENT_FOUND_ROWS client.
func TestMySQLRowCountFoundRows(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table g (id int primary key, v int);
		insert into g values (1, 1), (2, 1), (3, 2)`)
	for _, c := range []struct {
		params string
		want   int64
	}{{"", 1}, {"clientFoundRows=true", 3}} {
		db := open(t, addr, "admin", "secret", c.params)
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(context.Background(), "update g set v = 1"); err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := conn.QueryRowContext(context.Background(), "select row_count()").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != c.want {
			t.Errorf("%s: ROW_COUNT() %d, want %d", c.params, n, c.want)
		}
		conn.Close()
		if _, err := db.ExecContext(context.Background(), "update g set v = 2 where id = 3"); err != nil {
			t.Fatal(err)
		}
	}
}
