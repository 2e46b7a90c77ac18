package engine

import (
	"context"
	"testing"

	"gpusql/sql"
)

// Errors the server already sent with MySQL's code carry it for the REPL
// and the driver too (sql.MySQLCode), with MySQL's text as the message.
func TestErrorCodesOutsideServer(t *testing.T) {
	const autoKey = "Incorrect table definition; there can be only one auto column and it must be defined as a key"
	for _, c := range []struct {
		setup, stmt string
		code        uint16
		msg         string
	}{
		{"CREATE TABLE t (a INT NOT NULL AUTO_INCREMENT PRIMARY KEY)", "DROP INDEX `PRIMARY` ON t", 1075, autoKey},
		{"", "CREATE TABLE t (a INT AUTO_INCREMENT)", 1075, autoKey},
		{"", "CREATE TABLE t (a INT AUTO_INCREMENT, b INT AUTO_INCREMENT, KEY (a))", 1075, autoKey},
		{"CREATE TABLE t (a INT, b INT NOT NULL AUTO_INCREMENT, KEY (b))", "ALTER TABLE t MODIFY a INT AUTO_INCREMENT", 1075, autoKey},
		{"", "CREATE TABLE t (a INT, c TEXT, KEY (c))", 1170, "BLOB/TEXT column 'c' used in key specification without a key length"},
	} {
		db := open(t)
		if c.setup != "" {
			mustRun(t, db, c.setup)
		}
		_, err := db.Exec(context.Background(), c.stmt, "")
		if code, msg := sql.MySQLCode(err); code != c.code || msg != c.msg {
			t.Errorf("%s: %d %q (%v), want %d %q", c.stmt, code, msg, err, c.code, c.msg)
		}
	}
}
