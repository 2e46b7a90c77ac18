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
