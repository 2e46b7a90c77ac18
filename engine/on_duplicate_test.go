package engine

import (
	"context"
	"testing"
)

// TestOnDuplicateRowsAffected: MySQL counts 1 per inserted row, 2 per
// updated row whose values changed and 0 per one left as it was.
func TestOnDuplicateRowsAffected(t *testing.T) {
	db := open(t)
	mustRun(t, db, `CREATE TABLE t (id INT PRIMARY KEY, b INT); INSERT INTO t VALUES (1, 1), (2, 2)`)
	for _, c := range []struct {
		sql  string
		want int64
	}{
		{"INSERT INTO t VALUES (3, 3) ON DUPLICATE KEY UPDATE b = 0", 1},
		{"INSERT INTO t VALUES (1, 9) ON DUPLICATE KEY UPDATE b = VALUES(b)", 2},
		{"INSERT INTO t VALUES (1, 9) ON DUPLICATE KEY UPDATE b = VALUES(b)", 0},
		{"INSERT INTO t VALUES (1, 8), (2, 2), (4, 4) ON DUPLICATE KEY UPDATE b = VALUES(b)", 2 + 0 + 1},
	} {
		rs, err := db.Exec(context.Background(), c.sql, "")
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if got := rs[0].RowsAffected; got != c.want {
			t.Errorf("%s: %d rows affected, want %d", c.sql, got, c.want)
		}
	}
	if got := tableText(t, db, "SELECT id, b FROM t ORDER BY id"); got != "1|8;2|2;3|3;4|4" {
		t.Errorf("rows: %s", got)
	}
}
