package server

import (
	"reflect"
	"testing"
)

// TestMySQLPreparedColumnNames: a server-side prepared SELECT names its
// unaliased items by their text as written, placeholders and all, as
// MySQL does (SELECT ? + 1 is column `? + 1`, not `1 + 1`); aliases and
// column names are kept.
func TestMySQLPreparedColumnNames(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int primary key, n int);
		insert into w values (1, 10);`)
	db := open(t, addr, "admin", "secret", "interpolateParams=false")
	rows, err := db.Query("select ? + 1, ? as x, n, ?, concat(?, 'b') from w where id = ?", 1, 2, "s", "a", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"? + 1", "x", "n", "?", "concat(?, 'b')"}
	if !reflect.DeepEqual(cols, want) {
		t.Fatalf("columns %q, want %q", cols, want)
	}
}
