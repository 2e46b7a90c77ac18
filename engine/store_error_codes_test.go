package engine

import (
	"context"
	"testing"

	"gpusql/sql"
)

// A value UPDATE or ON DUPLICATE KEY UPDATE cannot store fails with
// MySQL's code, naming the table's row (UPDATE) or the inserted row (ON
// DUPLICATE KEY UPDATE, whose matched row is the table's second).
func TestStoreErrorCodes(t *testing.T) {
	const setup = "CREATE TABLE e (id INT PRIMARY KEY, t TIME, y YEAR, s ENUM('a','b'));" +
		"INSERT INTO e VALUES (1, '10:00:00', 2000, 'a'), (2, '10:00:00', 2000, 'a');" +
		"CREATE TABLE e2 (id INT PRIMARY KEY); INSERT INTO e2 VALUES (1)"
	for _, c := range []struct {
		stmt string
		code uint16
		msg  string
	}{
		{"UPDATE e SET t = '900:00:00'", 1292, "Incorrect time value: '900:00:00' for column 't' at row 1"},
		{"UPDATE e SET y = 3000", 1264, "Out of range value for column 'y' at row 1"},
		{"UPDATE e SET s = 'zz'", 1265, "Data truncated for column 's' at row 1"},
		{"UPDATE e, e2 SET e.t = '900:00:00' WHERE e.id = e2.id", 1292, "Incorrect time value: '900:00:00' for column 't' at row 1"},
		{"INSERT INTO e VALUES (2, '10:00:00', 2000, 'a') ON DUPLICATE KEY UPDATE s = 'zz'", 1265, "Data truncated for column 's' at row 1"},
		{"INSERT INTO e VALUES (2, '10:00:00', 2000, 'a') ON DUPLICATE KEY UPDATE t = '900:00:00'", 1292, "Incorrect time value: '900:00:00' for column 't' at row 1"},
	} {
		db := open(t)
		mustRun(t, db, setup)
		_, err := db.Exec(context.Background(), c.stmt, "")
		if code, msg := sql.MySQLCode(err); code != c.code || msg != c.msg {
			t.Errorf("%s: %d %q (%v), want %d %q", c.stmt, code, msg, err, c.code, c.msg)
		}
	}
}
