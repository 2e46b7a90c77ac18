package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// The plan cache's tests: every answer below is worked out by hand from
// the few rows each test inserts, and every invalidation is checked by the
// rows a query returns after it (a stale plan would read the old snapshot
// or the old dictionary) and by the cache's hit and miss counters.

// execRows runs a script on c and returns the last result's rows as text.
func execRows(t *testing.T, c *Conn, query string) [][]string {
	t.Helper()
	res, err := c.Exec(context.Background(), query, "")
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return resultRows(res[len(res)-1])
}

func resultRows(r *StatementResult) [][]string {
	out := [][]string{}
	if r.Result == nil {
		return out
	}
	for i := 0; i < r.Result.Rows; i++ {
		row := []string{}
		for _, col := range r.Result.Columns {
			c := cell(col, i)
			if c.Null {
				c.Text = "NULL"
			}
			row = append(row, c.Text)
		}
		out = append(out, row)
	}
	return out
}

// rows builds expected rows from "a b|c d" (rows split by '|', values by
// blanks).
func rows(s string) [][]string {
	out := [][]string{}
	if s == "" {
		return out
	}
	for _, r := range strings.Split(s, "|") {
		out = append(out, strings.Fields(r))
	}
	return out
}

func TestPlanCacheHit(t *testing.T) {
	db := open(t)
	c := db.conn
	mustExec(t, db, "create table t (a int, s varchar(5)); insert into t values (1, 'x'), (2, 'y'), (3, 'x')", "")
	q := "select s, sum(a) from t where s = 'x' group by s"
	first := execRows(t, c, q)
	before := db.PlanCacheStats()
	// The same statement with other blanks and a ';' around it, then
	// inside a script of two statements (looked up after parsing).
	second := execRows(t, c, "\n  "+q+" ;\n")
	third := execRows(t, c, "select 1;\n"+q)
	after := db.PlanCacheStats()
	if after.Hits != before.Hits+2 {
		t.Errorf("hits %d -> %d, want two more", before.Hits, after.Hits)
	}
	want := rows("x 4")
	for i, got := range [][][]string{first, second, third} {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("run %d: %v, want %v", i+1, got, want)
		}
	}
	res, err := c.Exec(context.Background(), "\n\n"+q, "")
	if err != nil || res[0].Line != 3 {
		t.Errorf("cached statement after two blank lines: %v, line %d, want 3", err, res[0].Line)
	}
}

// TestPlanCacheInvalidation runs a query, changes what it reads, and runs
// it again: each change must be seen.
func TestPlanCacheInvalidation(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "more.csv"), []byte("7,w\n8,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const q = "select s, count(*), sum(a) from t group by s order by s"
	cases := []struct {
		name, change, query, want string
	}{
		{"insert", "insert into t values (4, 'a')", q, "a 1 4|x 2 4|y 1 2"},
		{"insert select", "insert into t select a + 10, s from t where a = 1", q, "x 3 15|y 1 2"},
		{"update", "update t set s = 'y' where a = 1", q, "x 1 3|y 2 3"},
		{"delete", "delete from t where s = 'y'", q, "x 2 4"},
		{"load", "load data infile 'more.csv' into table t fields terminated by ','", q, "w 1 7|x 3 12|y 1 2"},
		{"truncate", "truncate table t", q, ""},
		{"replace table", "drop table t; create table t (a int, s varchar(5)); insert into t values (5, 'y')", q, "y 1 5"},
		{"rename", "create table u (a int, s varchar(5)); insert into u values (9, 'z'); rename table t to old, u to t", q, "z 1 9"},
		{"alter add column", "alter table t add column b int", "select * from t where a = 2", "2 y NULL"},
		{"alter drop column", "alter table t drop column s", "select * from t where a = 2", "2"},
		{"create table as", "drop table t; create table t as select 6 as a, 'q' as s", q, "q 1 6"},
		// A new string that sorts first renumbers the dictionary: a plan
		// that kept the old code of 'y' would match nothing, or 'x'.
		{"dictionary", "insert into t values (5, 'b')", "select a from t where s = 'y'", "2"},
		{"view", "create or replace view v as select a from t where s = 'y'", "select * from v order by a", "2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := open(t)
			mustExec(t, db, "create table t (a int, s varchar(5)); insert into t values (1, 'x'), (2, 'y'), (3, 'x');"+
				"create view v as select a from t where s = 'x'", "")
			for range 2 {
				execRows(t, db.conn, tc.query)
			}
			mustExec(t, db, tc.change, dir)
			for i := range 2 {
				if got := execRows(t, db.conn, tc.query); !reflect.DeepEqual(got, rows(tc.want)) {
					t.Errorf("run %d after %q: %v, want %v", i+1, tc.change, got, rows(tc.want))
				}
			}
		})
	}
}

// TestPlanCacheKeepsOtherTables checks that a write to a table a plan does
// not read leaves the plan cached, and that the stale plans of a written
// table leave the cache at once.
func TestPlanCacheKeepsOtherTables(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); create table u (b int); insert into t values (1), (2); insert into u values (5)", "")
	execRows(t, db.conn, "select sum(a) from t")
	execRows(t, db.conn, "select sum(b) from u")
	if n := db.PlanCacheStats().Entries; n != 2 {
		t.Fatalf("%d entries, want 2", n)
	}
	mustExec(t, db, "insert into u values (6)", "")
	if n := db.PlanCacheStats().Entries; n != 1 {
		t.Errorf("%d entries right after the write to u, want 1 (the plan over u's old snapshot is dropped)", n)
	}
	before := db.PlanCacheStats()
	if got := execRows(t, db.conn, "select sum(a) from t"); !reflect.DeepEqual(got, rows("3")) {
		t.Errorf("sum(a) %v, want 3", got)
	}
	after := db.PlanCacheStats()
	if after.Hits != before.Hits+1 {
		t.Errorf("a write to u dropped the plan over t (hits %d -> %d)", before.Hits, after.Hits)
	}
	if after.Entries != 1 {
		t.Errorf("%d entries after the write to u and a query of t, want 1", after.Entries)
	}
}

// TestPlanCacheSettings checks that each setting the binder or planner
// reads is part of the key: after SET, the statement plans anew.
func TestPlanCacheSettings(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "create table t (a int, s varchar(5)); create table d (a int, n varchar(5));"+
		"insert into t values (1, 'x'), (2, 'y'), (1, 'z'); insert into d values (1, 'one'), (2, 'two')", "")
	const q = "select d.n, count(*) from t join d on t.a = d.a group by d.n order by d.n"
	for _, set := range []string{
		"SET join_algorithm = 'merge'", "SET join_algorithm = 'hash'", "SET gpu_memory = '256MB'",
		"SET epsilon_join = 'off'", "SET memory_limit = '1GB'", "SET group_concat_max_len = 100",
		"SET cte_max_recursion_depth = 10", "SET sql_mode = 'NO_ZERO_DATE'",
	} {
		execRows(t, db.conn, q)
		mustExec(t, db, set, "")
		before := db.PlanCacheStats()
		if got := execRows(t, db.conn, q); !reflect.DeepEqual(got, rows("one 2|two 1")) {
			t.Errorf("after %s: %v", set, got)
		}
		if after := db.PlanCacheStats(); after.Hits != before.Hits {
			t.Errorf("after %s the plan made before it was reused", set)
		}
	}
	// sql_mode changes binding: a bare column is an error under
	// ONLY_FULL_GROUP_BY, whatever plan was cached before.
	bare := "select s, count(*) from t group by a order by a"
	execRows(t, db.conn, bare)
	execRows(t, db.conn, bare)
	mustExec(t, db, "SET sql_mode = 'ONLY_FULL_GROUP_BY'", "")
	if _, err := db.Exec(context.Background(), bare, ""); err == nil {
		t.Error("a bare column ran under ONLY_FULL_GROUP_BY from a cached plan")
	}
	// GROUP_CONCAT's limit is bound into the plan.
	gc := "select group_concat(s order by s) from t"
	mustExec(t, db, "SET group_concat_max_len = 100", "")
	if got := execRows(t, db.conn, gc); !reflect.DeepEqual(got, rows("x,y,z")) {
		t.Errorf("group_concat %v", got)
	}
	mustExec(t, db, "SET group_concat_max_len = 4", "")
	if got := execRows(t, db.conn, gc); !reflect.DeepEqual(got, rows("x,y,")) {
		t.Errorf("group_concat under max_len 4: %v, want x,y,", got)
	}
}

func TestPlanCacheOff(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", PlanCache: "off"})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "create table t (a int); insert into t values (1)", "")
	for range 3 {
		execRows(t, db.conn, "select a from t")
	}
	if s := db.PlanCacheStats(); s.Hits != 0 || s.Entries != 0 {
		t.Errorf("Options.PlanCache off: %+v, want no hits and no entries", s)
	}
	mustExec(t, db, "SET plan_cache = 'on'", "")
	for range 3 {
		execRows(t, db.conn, "select a from t")
	}
	if s := db.PlanCacheStats(); s.Hits != 2 {
		t.Errorf("after SET plan_cache = 'on': %d hits, want 2", s.Hits)
	}
	mustExec(t, db, "SET plan_cache = DEFAULT", "")
	execRows(t, db.conn, "select a from t")
	if s := db.PlanCacheStats(); s.Hits != 2 {
		t.Errorf("after SET plan_cache = DEFAULT (off): %d hits, want still 2", s.Hits)
	}
	if got := execRows(t, db.conn, "select @@plan_cache"); !reflect.DeepEqual(got, rows("off")) {
		t.Errorf("@@plan_cache %v, want off", got)
	}
	if _, err := db.Exec(context.Background(), "SET plan_cache = 'sometimes'", ""); err == nil || !strings.Contains(err.Error(), "'on' or 'off'") {
		t.Errorf("SET plan_cache = 'sometimes': %v", err)
	}
	if _, err := Open(Options{PlanCache: "maybe"}); err == nil {
		t.Error("Open accepted plan cache mode maybe")
	}
}

// TestPlanCacheSessions checks that SET plan_cache on one server session
// leaves the others as they are.
func TestPlanCacheSessions(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); insert into t values (1)", "")
	a, b := db.SessionConn(SessionOptions{}), db.SessionConn(SessionOptions{})
	execRows(t, a, "set plan_cache = 'off'")
	if got := execRows(t, b, "select @@plan_cache"); !reflect.DeepEqual(got, rows("on")) {
		t.Errorf("other session's @@plan_cache %v", got)
	}
	for range 2 {
		execRows(t, a, "select a from t")
	}
	if s := db.PlanCacheStats(); s.Hits != 0 || s.Entries != 0 {
		t.Errorf("session with plan_cache off: %+v", s)
	}
	for range 3 {
		execRows(t, b, "select a from t")
	}
	if s := db.PlanCacheStats(); s.Hits != 2 || s.Misses != 1 {
		t.Errorf("session with plan_cache on: %+v, want 2 hits and 1 miss", s)
	}
}

// TestPlanCacheVolatile checks that values fixed at bind time that may
// change between runs are never served from the cache.
func TestPlanCacheVolatile(t *testing.T) {
	db := open(t)
	c := db.conn
	mustExec(t, db, "create table t (a int); insert into t values (1), (2), (3)", "")
	q := "select count(*) from t where a > @x"
	for _, tc := range []struct{ x, want string }{{"0", "3"}, {"2", "1"}, {"0", "3"}} {
		mustExec(t, db, "SET @x = "+tc.x, "")
		if got := execRows(t, c, q); !reflect.DeepEqual(got, rows(tc.want)) {
			t.Errorf("@x = %s: %v, want %s", tc.x, got, tc.want)
		}
	}
	for _, v := range []string{"select now() > '2000-01-01' from t", "select @@sql_mode", "select connection_id()",
		"select table_name from information_schema.tables"} {
		before := db.PlanCacheStats().Entries
		execRows(t, c, v)
		execRows(t, c, v)
		if after := db.PlanCacheStats().Entries; after != before {
			t.Errorf("%s was cached", v)
		}
	}
	mustExec(t, db, "SET sql_mode = 'ANSI'", "")
	if got := execRows(t, c, "select @@sql_mode"); !strings.Contains(got[0][0], "ANSI") {
		t.Errorf("@@sql_mode %v after SET", got)
	}
}

// TestPlanCacheExplain checks that EXPLAIN neither reads nor fills the
// cache.
func TestPlanCacheExplain(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); insert into t values (1)", "")
	execRows(t, db.conn, "select a from t")
	before := db.PlanCacheStats()
	mustExec(t, db, "explain select a from t; explain analyze select a from t", "")
	if after := db.PlanCacheStats(); after.Hits != before.Hits || after.Entries != before.Entries {
		t.Errorf("EXPLAIN used the cache: %+v -> %+v", before, after)
	}
}

// TestPlanCachePrepared runs a prepared statement with changing and
// repeated arguments.
func TestPlanCachePrepared(t *testing.T) {
	db := open(t)
	c := db.conn
	mustExec(t, db, "create table t (a int, s varchar(5)); insert into t values (1, 'x'), (2, 'y'), (3, 'x');"+
		"prepare p from 'select count(*), sum(a) from t where s = ?'", "")
	for _, tc := range []struct{ s, want string }{{"x", "2 4"}, {"y", "1 2"}, {"x", "2 4"}, {"w", "0 NULL"}} {
		mustExec(t, db, fmt.Sprintf("SET @s = '%s'", tc.s), "")
		if got := execRows(t, c, "execute p using @s"); !reflect.DeepEqual(got, rows(tc.want)) {
			t.Errorf("EXECUTE with '%s': %v, want %s", tc.s, got, tc.want)
		}
	}
	mustExec(t, db, "insert into t values (4, 'x')", "")
	mustExec(t, db, "SET @s = 'x'", "")
	if got := execRows(t, c, "execute p using @s"); !reflect.DeepEqual(got, rows("3 8")) {
		t.Errorf("EXECUTE after an insert: %v, want 3 8", got)
	}
}

// TestPlanCacheTransactions checks that a cached plan inside a
// transaction reads the transaction's snapshot.
func TestPlanCacheTransactions(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); insert into t values (1), (2)", "")
	a, b := db.Conn(), db.Conn()
	const q = "select count(*), sum(a) from t"
	execRows(t, a, q)
	execRows(t, a, "begin")
	before := db.PlanCacheStats()
	if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("2 3")) {
		t.Errorf("in the transaction: %v", got)
	}
	if db.PlanCacheStats().Hits != before.Hits+1 {
		t.Error("the transaction did not reuse the plan of the snapshot it shares")
	}
	// Another connection commits a row and caches the plan of the new
	// snapshot; the transaction must still see its own.
	execRows(t, b, "insert into t values (10)")
	if got := execRows(t, b, q); !reflect.DeepEqual(got, rows("3 13")) {
		t.Errorf("other connection after its insert: %v", got)
	}
	execRows(t, b, q)
	for range 2 {
		if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("2 3")) {
			t.Errorf("transaction after another's commit: %v, want its snapshot 2 3", got)
		}
	}
	// Its own write is seen, and not kept in the shared cache.
	execRows(t, a, "insert into t values (100)")
	for range 2 {
		if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("3 103")) {
			t.Errorf("transaction after its own insert: %v, want 3 103", got)
		}
	}
	if got := execRows(t, b, q); !reflect.DeepEqual(got, rows("3 13")) {
		t.Errorf("other connection during the transaction: %v, want 3 13", got)
	}
	execRows(t, a, "rollback")
	if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("3 13")) {
		t.Errorf("after rollback: %v, want 3 13", got)
	}
	// autocommit = 0: a cached SELECT opens the transaction, whose
	// snapshot later SELECTs keep.
	execRows(t, a, "set autocommit = 0")
	execRows(t, a, q)
	execRows(t, b, "insert into t values (1000)")
	if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("3 13")) {
		t.Errorf("autocommit 0 after another's insert: %v, want 3 13", got)
	}
	execRows(t, a, "commit")
	if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("4 1013")) {
		t.Errorf("after commit: %v, want 4 1013", got)
	}
	// ROLLBACK TO SAVEPOINT puts back an earlier snapshot of the
	// transaction's own.
	execRows(t, a, "insert into t values (1); savepoint s; insert into t values (2)")
	for _, want := range []string{"6 1016", "6 1016"} {
		if got := execRows(t, a, q); !reflect.DeepEqual(got, rows(want)) {
			t.Errorf("before ROLLBACK TO: %v, want %s", got, want)
		}
	}
	execRows(t, a, "rollback to savepoint s")
	if got := execRows(t, a, q); !reflect.DeepEqual(got, rows("5 1014")) {
		t.Errorf("after ROLLBACK TO: %v, want 5 1014", got)
	}
	execRows(t, a, "commit")
}

// TestPlanCacheAnalyze checks that ANALYZE TABLE empties the cache.
func TestPlanCacheAnalyze(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); insert into t values (1)", "")
	execRows(t, db.conn, "select a from t")
	mustExec(t, db, "analyze table t", "")
	if s := db.PlanCacheStats(); s.Entries != 0 {
		t.Errorf("%d entries after ANALYZE", s.Entries)
	}
}

// TestPlanCacheBounded checks the entry and byte bounds.
func TestPlanCacheBounded(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int); insert into t values (1), (2), (3)", "")
	db.plans.maxEntries = 3
	for i := range 10 {
		want := fmt.Sprint(3 - min(i, 3))
		if got := execRows(t, db.conn, fmt.Sprintf("select count(*) from t where a > %d", i)); got[0][0] != want {
			t.Errorf("a > %d: %v, want %s", i, got, want)
		}
	}
	if s := db.PlanCacheStats(); s.Entries != 3 {
		t.Errorf("%d entries, want the bound 3", s.Entries)
	}
	// The most recent plans stay: the last query hits.
	before := db.PlanCacheStats().Hits
	execRows(t, db.conn, "select count(*) from t where a > 9")
	if db.PlanCacheStats().Hits != before+1 {
		t.Error("the most recent plan was evicted")
	}
	db.plans.maxEntries = planCacheEntries
	db.plans.maxBytes = db.PlanCacheStats().Bytes / 3 * 2 // room for two plans of this size
	for i := range 5 {
		execRows(t, db.conn, fmt.Sprintf("select count(*) from t where a < %d", i))
	}
	if s := db.PlanCacheStats(); s.Bytes > db.plans.maxBytes || s.Entries != 2 {
		t.Errorf("%d entries of %d bytes cached, want 2 under the bound %d", s.Entries, s.Bytes, db.plans.maxBytes)
	}
}

// TestPlanCacheConcurrent runs the same statements on many sessions at
// once while another session writes, so that cached plans run
// concurrently on both sides of invalidations; run it with -race, which
// fails on any write to a shared plan during execution.
func TestPlanCacheConcurrent(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	var ins strings.Builder
	ins.WriteString("create table d (k int, n varchar(5)); create table f (k int, v int); create table w (x int);" +
		"insert into d values (0, 'zero'), (1, 'one'), (2, 'two'), (3, 'three'); insert into f values ")
	// f holds v = 0..999 with k = v % 5: k 4 has no row in d.
	sums := map[int]int{}
	for v := range 1000 {
		if v > 0 {
			ins.WriteString(", ")
		}
		fmt.Fprintf(&ins, "(%d, %d)", v%5, v)
		sums[v%5] += v
	}
	mustExec(t, db, ins.String(), "")
	var want []string
	for _, k := range []int{1, 3, 2, 0} { // d.n order: one, three, two, zero
		want = append(want, fmt.Sprint(sums[k]))
	}
	queries := []struct{ sql, want string }{
		{"select d.n, sum(f.v) from f join d on f.k = d.k group by d.n order by d.n",
			fmt.Sprintf("one %s|three %s|two %s|zero %s", want[0], want[1], want[2], want[3])},
		{"select count(*) from f where k not in (select k from d)", "200"},
		{"select max(v) from f where v < (select 10 * count(*) from d)", "39"},
		{"select k, count(distinct v % 7) from f where k >= 3 group by k order by k", "3 7|4 7"},
	}
	const sessions, rounds = 6, 15
	errs := make(chan error, sessions+1)
	done := make(chan struct{})
	// committed is how many rows of w the writer has committed: a query
	// that starts after a commit must see its row, so a plan of an older
	// snapshot would show as a count below it.
	var committed atomic.Int64
	go func() { // the writer: each insert replaces w's snapshot
		defer close(done)
		c := db.SessionConn(SessionOptions{})
		for i := range rounds * 2 {
			if _, err := c.Exec(context.Background(), fmt.Sprintf("insert into w values (%d)", i), ""); err != nil {
				errs <- err
				return
			}
			committed.Add(1)
		}
	}()
	for s := range sessions {
		go func() {
			c := db.SessionConn(SessionOptions{})
			for r := range rounds {
				q := queries[(s+r)%len(queries)]
				if got := execRowsErr(c, q.sql); !reflect.DeepEqual(got, rows(q.want)) {
					errs <- fmt.Errorf("session %d: %s: %v, want %s", s, q.sql, got, q.want)
					return
				}
				least := int(committed.Load())
				n := 0
				if got := execRowsErr(c, "select count(*) from w"); len(got) == 1 {
					fmt.Sscan(got[0][0], &n)
				}
				if n < least {
					errs <- fmt.Errorf("session %d: w has %d rows, %d were committed before the query", s, n, least)
					return
				}
				// A transaction reads one snapshot however often the
				// writer commits meanwhile.
				if s%2 == 0 {
					in := [2][][]string{}
					execRowsErr(c, "begin")
					in[0] = execRowsErr(c, "select count(*) from w")
					in[1] = execRowsErr(c, "select count(*) from w")
					execRowsErr(c, "commit")
					if !reflect.DeepEqual(in[0], in[1]) {
						errs <- fmt.Errorf("session %d: one transaction counted %v then %v rows of w", s, in[0], in[1])
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	<-done
	if db.PlanCacheStats().Hits == 0 {
		t.Error("no session reused a plan")
	}
}

// execRowsErr is execRows for goroutines: a failure is a row of its text.
func execRowsErr(c *Conn, query string) [][]string {
	res, err := c.Exec(context.Background(), query, "")
	if err != nil {
		return [][]string{{err.Error()}}
	}
	return resultRows(res[len(res)-1])
}

// TestPlanCacheRemaps checks that a plan made before a column's remap was
// built is not reused once the GPU planner would read the remap (ANALYZE
// TABLE builds remaps and clears the cache; here the remap is built
// directly, as LOAD does under --remap load, so only the check of the
// remaps a plan looked up can tell).
func TestPlanCacheRemaps(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 5000 {
		k := i % 40
		if i%3 != 0 {
			k = 7
		}
		fmt.Fprintf(&b, "%d,%d\n", k, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100", RemapMinRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var dims strings.Builder
	dims.WriteString("create table d (k int, n int); insert into d values ")
	for k := range 40 {
		if k > 0 {
			dims.WriteString(", ")
		}
		fmt.Fprintf(&dims, "(%d, %d)", k, k%4)
	}
	mustExec(t, db, "create table f (k int, v int); load data infile 'f.csv' into table f fields terminated by ','; "+dims.String(), dir)
	const q = "select d.n, count(*) from f, d where f.k = d.k group by d.n order by d.n"
	want := execRows(t, db.conn, q)
	key := planKey{text: q, settings: db.planSettings()}
	e := db.plans.get(key, db.cat)
	if e == nil {
		t.Fatal("the plan was not cached")
	}
	looked := false
	for _, r := range e.remaps {
		looked = looked || (r.table.Name == "f" && r.remap == nil)
	}
	if !looked {
		t.Fatalf("the GPU planner looked up no remap of f (%d lookups): the test needs a plan that does", len(e.remaps))
	}
	if notes := db.buildRemaps("f"); len(notes) == 0 {
		t.Fatal("no remap built")
	}
	if db.plans.get(key, db.cat) != nil {
		t.Error("the plan made without the remap is still served")
	}
	if got := execRows(t, db.conn, q); !reflect.DeepEqual(got, want) {
		t.Errorf("after the remap: %v, want %v", got, want)
	}
	if e := db.plans.get(key, db.cat); e == nil || !slices.ContainsFunc(e.remaps, func(r remapRead) bool { return r.remap != nil }) {
		t.Error("the new plan did not read the remap")
	}
}
