package engine

import (
	"context"
	"strconv"
	"testing"

	"gpusql/sql"
)

// Errors whose code only the server's text table knew get the same code
// outside it: sql.ErrorCode for the REPL and the driver, and SHOW ERRORS
// (1105 before).
func TestMessageCodesOutsideServer(t *testing.T) {
	for _, c := range []struct {
		stmt string
		code string
	}{
		{"SELECT JSON_EXTRACT('{', '$')", "3141"},  // ER_INVALID_JSON_TEXT_IN_PARAM
		{"SELECT JSON_EXTRACT('{}', 'x')", "3143"}, // ER_INVALID_JSON_PATH
	} {
		db, err := Open(Options{Executor: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		conn := db.SessionConn(SessionOptions{})
		_, err = conn.Exec(ctx, c.stmt, "")
		if code := sql.ErrorCode(err); code == 0 || c.code != strconv.Itoa(int(code)) {
			t.Errorf("%s: code %d (%v), want %s", c.stmt, code, err, c.code)
		}
		rs, err := conn.Exec(ctx, "SHOW ERRORS", "")
		if err != nil || rs[0].Result.Rows != 1 || rs[0].Result.Row(0)[1] != c.code {
			t.Errorf("%s: SHOW ERRORS %v %v, want code %s", c.stmt, rs, err, c.code)
		}
	}
}
