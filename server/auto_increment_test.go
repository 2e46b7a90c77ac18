package server

import (
	"context"
	"testing"
)

// The OK packet carries the first AUTO_INCREMENT value an INSERT generated,
// else the explicit value it stored (mysql_insert_id; what
// go-sql-driver/mysql's LastInsertId returns), and errors 1075 and 1467
// have MySQL's codes.
func TestMySQLLastInsertID(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (id int auto_increment primary key, v int);
		create table b (id bigint auto_increment primary key, v int)`)
	// One connection: LAST_INSERT_ID() is the connection's own.
	db, err := open(t, addr, "admin", "secret", "").Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		q        string
		id, rows int64
	}{
		{"insert into t (v) values (1), (2), (3)", 1, 3},
		{"insert into t values (null, 4)", 4, 1},
		{"insert into t values (10, 5)", 10, 1}, // explicit: the value stored
		{"insert into t (v) select v from t where v <= 2", 11, 2},
		{"update t set v = last_insert_id(v + 100) where id = 1", 101, 1},
	} {
		r, err := db.ExecContext(context.Background(), c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		id, _ := r.LastInsertId()
		n, _ := r.RowsAffected()
		if id != c.id || n != c.rows {
			t.Errorf("%s: last insert id %d, rows %d; want %d, %d", c.q, id, n, c.id, c.rows)
		}
	}
	var last int64
	if err := db.QueryRowContext(context.Background(), "select last_insert_id()").Scan(&last); err != nil || last != 101 {
		t.Errorf("LAST_INSERT_ID() = %d, %v; want 101", last, err)
	}
	if _, err := db.ExecContext(context.Background(), "insert into b values (9223372036854775807, 1)"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"create table bad (id int auto_increment, v int)", 1075},
		{"insert into b (v) values (2)", 1467},
		{"insert into t values (null, 1), (1, 1)", 1062},
	} {
		_, err := db.ExecContext(context.Background(), c.q)
		if got := mysqlCode(err); got != c.code {
			t.Errorf("%s: error %v (code %d), want code %d", c.q, err, got, c.code)
		}
	}
}
