package server

import (
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"
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

// TestMySQLPreparedLimitString: a server-side prepared LIMIT ? takes a
// string of digits as its number (drivers such as PHP's send strings), and
// anything that is no row count is MySQL's 1210 Incorrect arguments to
// mysqld_stmt_execute, not a syntax error.
func TestMySQLPreparedLimitString(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int primary key);
		insert into w values (1), (2), (3);`)
	db := open(t, addr, "admin", "secret", "interpolateParams=false")
	var n int
	if err := db.QueryRow("select count(*) from (select id from w order by id limit ?, ?) d", "1", "5").Scan(&n); err != nil || n != 2 {
		t.Fatalf("LIMIT '1', '5': %d rows, %v; want 2", n, err)
	}
	for _, arg := range []any{"abc", -1, 1.5} {
		_, err := db.Query("select id from w limit ?", arg)
		if mysqlCode(err) != 1210 || mysqlState(err) != "HY000" || err.(*mysql.MySQLError).Message != "Incorrect arguments to mysqld_stmt_execute" {
			t.Errorf("LIMIT %#v: %v, want 1210 (HY000) Incorrect arguments to mysqld_stmt_execute", arg, err)
		}
	}
}
