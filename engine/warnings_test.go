package engine

import (
	"context"
	"fmt"
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

// TestShowStatus: SHOW STATUS counts the asking connection's statements by
// kind (itself included), SHOW GLOBAL STATUS every connection's; LIKE
// filters names case-insensitively. Cached plans count too.
func TestShowStatus(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a := db.SessionConn(SessionOptions{})
	for _, q := range []string{"create table s (x int)", "insert into s values (1)", "replace into s values (2)",
		"select x from s", "select x from s", "update s set x = 3 where x = 2", "delete from s where x = 3", "set @v = 1"} {
		if _, err := a.Exec(ctx, q, ""); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustRun(t, db, "select 1")
	status := func(c *Conn, q string) map[string]string {
		t.Helper()
		rs, err := c.Exec(ctx, q, "")
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for i := 0; i < rs[0].Result.Rows; i++ {
			row := rs[0].Result.Row(i)
			m[row[0]] = row[1]
		}
		return m
	}
	own := status(a, "show status")
	want := map[string]string{"Questions": "9", "Queries": "9", "Com_select": "2", "Com_insert": "1", "Com_replace": "1",
		"Com_update": "1", "Com_delete": "1", "Com_set_option": "1", "Threads_connected": "1"}
	for k, v := range want {
		if own[k] != v {
			t.Errorf("SHOW STATUS %s = %q, want %s", k, own[k], v)
		}
	}
	if _, ok := own["Uptime"]; !ok {
		t.Errorf("SHOW STATUS has no Uptime: %v", own)
	}
	all := status(a, "show global status like 'COM_SEL%'")
	if len(all) != 1 || all["Com_select"] != "3" {
		t.Errorf("SHOW GLOBAL STATUS LIKE 'COM_SEL%%' = %v, want Com_select 3 (the other connection's SELECT 1 too)", all)
	}
}

// TestShowErrors: a statement that fails leaves its error as the list SHOW
// WARNINGS and SHOW ERRORS read (@@error_count 1, @@warning_count counting
// it too, as MySQL's); the code is the server's mapping where one is given,
// else 1105; the next statement clears it.
func TestShowErrors(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := db.SessionConn(SessionOptions{ErrorCode: func(error) uint16 { return 1146 }})
	if _, err := c.Exec(ctx, "select * from nosuch", ""); err == nil {
		t.Fatal("select from a missing table ran")
	}
	rs, err := c.Exec(ctx, "show errors", "")
	if err != nil || rs[0].Result.Rows != 1 || rs[0].Result.Row(0)[0] != "Error" || rs[0].Result.Row(0)[1] != "1146" || !strings.Contains(rs[0].Result.Row(0)[2], "nosuch") {
		t.Fatalf("SHOW ERRORS after a failed SELECT: %v %v", rs, err)
	}
	rs, err = c.Exec(ctx, "select @@error_count, @@warning_count", "")
	if err != nil || strings.Join(rs[0].Result.Row(0), "|") != "1|1" {
		t.Errorf("@@error_count, @@warning_count: %v %v, want 1|1", rs, err)
	}
	rs, err = c.Exec(ctx, "show errors", "")
	if err != nil || rs[0].Result.Rows != 0 {
		t.Errorf("SHOW ERRORS after a statement that succeeded: %v %v", rs, err)
	}
	if _, err := db.Exec(ctx, "select 1 + nosuch", ""); err == nil {
		t.Fatal("unknown column ran")
	}
	// The binder's name errors carry MySQL's number and text everywhere.
	if got := tableText(t, db, "show warnings"); got != "Error|1054|Unknown column 'nosuch' in 'field list'" {
		t.Errorf("SHOW WARNINGS after an unknown column: %q, want MySQL's 1054", got)
	}
	// A statement that does not parse is the last statement too, as in
	// MySQL's client: SHOW WARNINGS lists its 1064 after the REPL, a
	// script or the driver ran it, not the error before it.
	if _, err := db.Exec(ctx, "selec 1", ""); err == nil {
		t.Fatal("selec 1 parsed")
	}
	if got := tableText(t, db, "show warnings"); got != "Error|1064|You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'selec 1' at line 1" {
		t.Errorf("SHOW WARNINGS after a syntax error: %q, want MySQL's 1064", got)
	}
	if _, err := db.Exec(ctx, "select weight_string(1)", ""); err == nil {
		t.Fatal("WEIGHT_STRING ran")
	}
	if got := tableText(t, db, "show warnings"); !strings.HasPrefix(got, "Error|1235|") {
		t.Errorf("outside a server an unsupported feature is the server's 1235: %q", got)
	}
	if _, err := db.Exec(ctx, `select regexp_substr('aa', '(a)\\1')`, ""); err == nil {
		t.Fatal("a backreference, which RE2 lacks, ran")
	}
	if got := tableText(t, db, "show warnings"); !strings.HasPrefix(got, "Error|1105|") {
		t.Errorf("outside a server an error gpusql does not number is 1105: %q", got)
	}
}

// TestWarningPlansStayOnGPU: a division whose divisor may be 0 keeps the
// plan on the CPU only where the GPU would compute it; above the
// aggregate (a ratio of two sums) the CPU executor computes the tail, so
// the GPU runs the rest.
func TestWarningPlansStayOnGPU(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "create table f (g int, a int, b int); insert into f values (1, 2, 0), (1, 4, 2), (2, 7, 0)", "")
	explain := func(q string) string { return explainText(t, db, q) }
	if text := explain("select g, sum(a) / sum(b) from f group by g"); strings.Contains(text, "divisor may be 0") || !strings.Contains(text, "then on the CPU executor: Projection#1") {
		t.Errorf("a ratio of sums is refused on the GPU:\n%s", text)
	}
	for _, q := range []string{"select sum(a / b) from f", "select a / b as r from f order by r", "select a from f order by a / b"} {
		// Without an aggregate the GPU runs the sort and what is below it.
		if text := explain(q); !strings.Contains(text, "the divisor may be 0 (warning 1365)") {
			t.Errorf("%s: the division stays on the GPU:\n%s", q, text)
		}
	}
	rs := mustRun(t, db, "select g, sum(a) / sum(b) from f group by g order by g")
	if rs[0].Warnings != 1 {
		t.Errorf("sum(a) / sum(b) with one group's sum(b) = 0: %d warnings, want 1", rs[0].Warnings)
	}
}

// TestWarningsInRowOrder: a statement over a table of several morsels
// lists its warnings in row order, as MySQL, whichever worker finishes
// first: every row of n warns, so the 1024 kept are rows 1..1024.
func TestWarningsInRowOrder(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 140000 // three morsels of 65,536
	var b strings.Builder
	b.WriteString("create table n (s varchar(10)); insert into n values ")
	for i := 1; i <= rows; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "('%dx')", i)
	}
	mustRun(t, db, b.String())
	for _, q := range []string{"select sum(s + 0) from n", "select count(*) from n where s + 0 > 0"} {
		rs := mustRun(t, db, q)
		if rs[0].Warnings != rows {
			t.Errorf("%s: %d warnings, want %d", q, rs[0].Warnings, rows)
		}
		rs = mustRun(t, db, "show warnings")
		if rs[0].Result.Rows != 1024 {
			t.Fatalf("%s: SHOW WARNINGS kept %d rows, want 1024", q, rs[0].Result.Rows)
		}
		for i := 0; i < 1024; i++ {
			if got, want := rs[0].Result.Row(i)[2], fmt.Sprintf("Truncated incorrect DOUBLE value: '%dx'", i+1); got != want {
				t.Fatalf("%s: warning %d is %q, want %q", q, i+1, got, want)
			}
		}
	}
}
