package engine

import (
	"context"
	"reflect"
	"testing"
)

// TestRowCount: ROW_COUNT() is what the previous statement of the
// connection affected (MySQL: DML its rows, a result set -1, DDL and SET
// 0); a failed statement does not count.
func TestRowCount(t *testing.T) {
	db := open(t)
	c := db.conn
	steps := []struct{ stmt, want string }{
		{"create table t (a int)", "0"},
		{"insert into t values (1), (2), (3)", "3"},
		{"update t set a = a + 1 where a > 1", "2"},
		{"select a from t", "-1"},
		{"delete from t where a = 1", "1"},
		{"insert into nope values (1)", "-1"}, // fails: the SELECT before it counts
		{"set @x = 1", "0"},
	}
	for _, s := range steps {
		_, _ = c.Exec(context.Background(), s.stmt, "")
		if got := execRows(t, c, "select row_count()"); !reflect.DeepEqual(got, rows(s.want)) {
			t.Errorf("after %q: row_count() = %v, want %s", s.stmt, got, s.want)
		}
		// The SELECT itself returned rows.
		if got := execRows(t, c, "select row_count()"); !reflect.DeepEqual(got, rows("-1")) {
			t.Errorf("after a SELECT: row_count() = %v, want -1", got)
		}
	}
}

// TestFoundRows: FOUND_ROWS() is the row count of the last result set,
// LIMIT applied; after SQL_CALC_FOUND_ROWS the count without the LIMIT,
// as MySQL's (4 rows, one returned).
func TestFoundRows(t *testing.T) {
	db := open(t)
	c := db.conn
	mustExec(t, db, "create table t (a int); insert into t values (1), (2), (3)", "")
	if got := execRows(t, c, "select found_rows()"); !reflect.DeepEqual(got, rows("0")) {
		t.Errorf("before any result set: %v, want 0", got)
	}
	execRows(t, c, "select a from t where a > 1 limit 5")
	if got := execRows(t, c, "select found_rows()"); !reflect.DeepEqual(got, rows("2")) {
		t.Errorf("after 2 rows: %v, want 2", got)
	}
	mustExec(t, db, "insert into t values (4)", "") // no result set: kept
	if got := execRows(t, c, "select found_rows()"); !reflect.DeepEqual(got, rows("1")) {
		t.Errorf("after SELECT FOUND_ROWS() and an INSERT: %v, want 1", got)
	}
	execRows(t, c, "select sql_calc_found_rows a from t order by a limit 1")
	if got := execRows(t, c, "select found_rows()"); !reflect.DeepEqual(got, rows("4")) {
		t.Errorf("FOUND_ROWS() after SQL_CALC_FOUND_ROWS ... LIMIT 1: %v, want 4", got)
	}
	execRows(t, c, "select sql_calc_found_rows a % 2, count(*) from t group by a % 2 limit 1")
	if got := execRows(t, c, "select found_rows()"); !reflect.DeepEqual(got, rows("2")) {
		t.Errorf("FOUND_ROWS() after a grouped SQL_CALC_FOUND_ROWS: %v, want 2 groups", got)
	}
}
