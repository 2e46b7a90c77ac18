package engine

import (
	"context"
	"strings"
	"testing"
)

// TestWarningCount: SELECT @@warning_count reads the previous statement's
// count and then, as every statement but SHOW WARNINGS, starts a new
// list; the count is every warning noted, the list keeps the first 1024
// (@@max_error_count); a statement's result carries its count (the OK
// packet's), and warnings belong to their connection.
func TestWarningCount(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustRun(t, db, "set cte_max_recursion_depth = 5000; create table n as with recursive r(seq) as (select 1 union all select seq + 1 from r where seq < 1500) select concat(seq, 'x') as s from r")
	rs := mustRun(t, db, "select sum(s + 0) from n")
	if rs[0].Warnings != 1500 {
		t.Errorf("1500 truncated strings: the result says %d warnings", rs[0].Warnings)
	}
	if got := tableText(t, db, "show count(*) warnings"); got != "1500" {
		t.Errorf("SHOW COUNT(*) WARNINGS = %s, want 1500", got)
	}
	if rs := mustRun(t, db, "show warnings"); rs[0].Result.Rows != 1024 || !strings.HasPrefix(rs[0].Result.Row(1023)[2], "Truncated incorrect DOUBLE value: '") {
		t.Errorf("SHOW WARNINGS kept %d rows, want the first 1024", rs[0].Result.Rows)
	}
	if got := tableText(t, db, "select @@warning_count"); got != "1500" {
		t.Errorf("@@warning_count after SHOW WARNINGS = %s, want 1500", got)
	}
	if got := tableText(t, db, "select @@warning_count"); got != "0" {
		t.Errorf("@@warning_count after SELECT @@warning_count = %s, want 0", got)
	}
	other := db.SessionConn(SessionOptions{})
	mustRun(t, db, "select 1/0")
	rs, err = other.Exec(ctx, "show warnings", "")
	if err != nil || rs[0].Result.Rows != 0 {
		t.Errorf("another connection sees this one's warnings: %v %v", rs, err)
	}
	if got := tableText(t, db, "show warnings"); !strings.Contains(got, "1365|Division by 0") {
		t.Errorf("SHOW WARNINGS after 1/0: %q", got)
	}
}
