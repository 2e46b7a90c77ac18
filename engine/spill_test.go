package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"gpusql/exec"
)

// spillDB opens a CPU database spilling to its own directory, with table
// d of n rows (a power of two times 8): integers with duplicates and
// NULLs, strings, DECIMALs, doubles, dates.
func spillDB(t *testing.T, n int) (*DB, string) {
	t.Helper()
	tmp := t.TempDir()
	db, err := Open(Options{Executor: "cpu", TmpDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("create table t (x int);\ninsert into t values (1),(2),(3),(4),(5),(6),(7),(8);\n")
	for k := 8; k < n; k *= 2 {
		fmt.Fprintf(&sb, "insert into t select x + %d from t;\n", k)
	}
	sb.WriteString(`create table d as select x, x % 7 as k,
		case when x % 5 = 0 then null else x % 13 end as kn,
		concat('s', x % 97) as str,
		case when x % 11 = 0 then null else concat('v', (x * 7919) % 1000) end as strn,
		cast(x % 100 as decimal(10,2)) / 4 as dc,
		x * 1.5 - 3000 as f,
		date_add('2020-01-01', interval x % 400 day) as dt
		from t`)
	if _, err := db.Exec(context.Background(), sb.String(), ""); err != nil {
		t.Fatal(err)
	}
	return db, tmp
}

// runText runs q and returns its rows as text.
func runText(t *testing.T, db *DB, q string) (string, error) {
	t.Helper()
	res, err := db.Exec(context.Background(), q, "")
	if err != nil {
		return "", err
	}
	return rowsText(res[len(res)-1].Result), nil
}

// explainText returns EXPLAIN's text for q (the plan, its GPU plan and
// the executor it runs on).
func explainText(t *testing.T, db *DB, q string) string {
	t.Helper()
	res, err := db.Exec(context.Background(), "explain "+q, "")
	if err != nil {
		t.Fatalf("explain %s: %v", q, err)
	}
	r := res[len(res)-1]
	if r.Explain == "" && r.Result != nil {
		return rowsText(r.Result)
	}
	return r.Explain
}

// explainAnalyze returns EXPLAIN ANALYZE's text for q.
func explainAnalyze(t *testing.T, db *DB, q string) string {
	t.Helper()
	res, err := db.Exec(context.Background(), "explain analyze "+q, "")
	if err != nil {
		t.Fatalf("explain analyze %s: %v", q, err)
	}
	r := res[len(res)-1]
	if r.Result != nil {
		return rowsText(r.Result)
	}
	return r.Message
}

// checkSpilled runs each query unlimited and then under limit, where it
// must spill (EXPLAIN ANALYZE says so) and return the same rows in the
// same order.
func checkSpilled(t *testing.T, db *DB, tmp string, limit int64, queries []string) {
	t.Helper()
	for _, q := range queries {
		db.SetMemoryLimit(-1)
		want, err := runText(t, db, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		db.SetMemoryLimit(limit)
		got, err := runText(t, db, q)
		if err != nil {
			t.Errorf("%s under %d bytes: %v", q, limit, err)
			continue
		}
		if got != want {
			t.Errorf("%s: spilled result differs\n got %.300s\nwant %.300s", q, got, want)
		}
		if ex := explainAnalyze(t, db, q); !strings.Contains(ex, "spilled") {
			t.Errorf("%s under %d bytes did not spill:\n%s", q, limit, ex)
		}
		if u := db.mem.Used(); u != 0 {
			t.Errorf("%s: %d bytes still reserved", q, u)
		}
		checkNoSpillFiles(t, tmp)
	}
	db.SetMemoryLimit(-1)
}

func checkNoSpillFiles(t *testing.T, tmp string) {
	t.Helper()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("spill file left behind: %s", e.Name())
	}
}

// TestSortSpills sorts past the memory limit: the same rows in the same
// order (ties in input order) as the in-memory sort.
func TestSortSpills(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	checkSpilled(t, db, tmp, 256<<10, []string{
		"select x, k from d order by k",
		"select x, kn from d order by kn desc",
		"select kn, x from d order by kn, x desc",
		"select str, x from d order by str desc",
		"select strn, k from d order by strn, k",
		"select x, dc from d order by dc desc",
		"select x, f from d order by f",
		"select x, dt from d order by dt, x desc",
		"select strn, x from d order by concat(upper(substr(strn, 1, 1)), lower(strn)) collate utf8mb4_0900_ai_ci desc, x",
	})
	// Keys that are expressions: a projection drops them after the sort.
	checkSpilled(t, db, tmp, 400<<10, []string{
		"select x, k from d order by concat(strn, 'z')",
		"select k, x from d order by k * 2 - x % 3",
		"select x, k from d order by floor(x / 100000), k",
	})
	checkSpilled(t, db, tmp, 900<<10, []string{
		"select * from d order by k, str",
		"select * from d order by strn desc, dc",
	})
}

// TestSortSpillEmpty: an empty input never spills; a query whose output
// cannot fit still stops with the memory limit error, its files removed.
func TestSortSpillLimits(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	db.SetMemoryLimit(256 << 10)
	if got, err := runText(t, db, "select x from d where x < 0 order by k"); err != nil || got != "" {
		t.Errorf("empty sort: %q, %v", got, err)
	}
	// ORDER BY ... LIMIT keeps a bounded heap: nothing to spill. The
	// largest strn, 'v999', is x*7919 ≡ 999 (mod 1000), x ≡ 321; 2321
	// is a multiple of 11 (NULL).
	if got, err := runText(t, db, "select x from d order by strn desc, x limit 3"); err != nil || got != "321;1321;3321" {
		t.Errorf("top 3 under the limit: %q, %v", got, err)
	}
	if ex := explainAnalyze(t, db, "select x from d order by strn desc, x limit 3"); strings.Contains(ex, "spilled") {
		t.Errorf("top-N spilled:\n%s", ex)
	}
	_, err := runText(t, db, "select * from d order by str")
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.HasPrefix(me.Op, "Sort#") {
		t.Errorf("sort whose output passes the limit: %v, want the memory limit error naming the Sort", err)
	}
	checkNoSpillFiles(t, tmp)
	mustExec(t, db, "set max_spill_bytes = '64KB'", "")
	_, err = runText(t, db, "select x, k from d order by k")
	var se *exec.SpillLimitError
	if !errors.As(err, &se) || !strings.HasPrefix(se.Op, "Sort#") || !strings.Contains(err.Error(), "64 KiB") {
		t.Errorf("sort past the disk limit: %v, want the spill limit error naming the Sort", err)
	}
	checkNoSpillFiles(t, tmp)
	mustExec(t, db, "set max_spill_bytes = 0", "")
	if u := db.mem.Used(); u != 0 {
		t.Errorf("%d bytes still reserved", u)
	}
}

// checkSpilledSet is checkSpilled for results in no particular order
// (hash aggregation): the rows are compared sorted.
func checkSpilledSet(t *testing.T, db *DB, tmp string, limit int64, queries []string) {
	t.Helper()
	sorted := func(s string) string {
		rows := strings.Split(s, ";")
		sort.Strings(rows)
		return strings.Join(rows, ";")
	}
	for _, q := range queries {
		db.SetMemoryLimit(-1)
		want, err := runText(t, db, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		db.SetMemoryLimit(limit)
		got, err := runText(t, db, q)
		if err != nil {
			t.Errorf("%s under %d bytes: %v", q, limit, err)
			continue
		}
		if sorted(got) != sorted(want) {
			t.Errorf("%s: spilled result differs\n got %.300s\nwant %.300s", q, sorted(got), sorted(want))
		}
		if ex := explainAnalyze(t, db, q); !strings.Contains(ex, "spilled") {
			t.Errorf("%s under %d bytes did not spill:\n%s", q, limit, ex)
		}
		if u := db.mem.Used(); u != 0 {
			t.Errorf("%s: %d bytes still reserved", q, u)
		}
		checkNoSpillFiles(t, tmp)
	}
	db.SetMemoryLimit(-1)
}

// TestAggregateSpills groups past the memory limit by partitioning the
// input: every aggregate function, NULL keys, strings, one huge group.
func TestAggregateSpills(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	// Heavy states (value sets, strings) over few groups: what spills.
	checkSpilledSet(t, db, tmp, 256<<10, []string{
		"select x % 200 as g, count(distinct x), count(*) from d group by g",
		"select str, group_concat(strn order by strn, x), count(distinct dc) from d group by str",
		"select kn, count(distinct str), sum(distinct x), avg(dc) from d group by kn",
		// JSON_ARRAYAGG keeps no defined order (nor does MySQL's): its length.
		"select strn is null, k, length(json_arrayagg(x)), max(dt) from d group by strn is null, k",
		"select case when x < 3000 then 0 else x % 100 end as g, count(distinct x), min(str) from d group by g",
		"select dc, group_concat(str order by x), count(distinct f) from d group by dc",
	})
	checkSpilledSet(t, db, tmp, 200<<10, []string{
		"select distinct strn, k, x % 50 from d",
	})
}

// TestAggregateSpillOneHugeGroup: a group whose state alone passes the
// limit cannot be split; the query stops with the memory limit error
// naming the aggregation, and its files are removed.
func TestAggregateSpillOneHugeGroup(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	db.SetMemoryLimit(256 << 10)
	_, err := runText(t, db, "select x < 100000 as g, count(distinct x), group_concat(str order by x) from d group by g")
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.HasPrefix(me.Op, "HashAggregate#") {
		t.Errorf("one group past the limit: %v, want the memory limit error naming the HashAggregate", err)
	}
	checkNoSpillFiles(t, tmp)
	if u := db.mem.Used(); u != 0 {
		t.Errorf("%d bytes still reserved", u)
	}
}

// cancelAfter is a context cancelled once its Err has been asked n times:
// a spilling query stopped at every point of its run, deterministically.
type cancelAfter struct {
	context.Context
	n *atomic.Int64
}

func (c cancelAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestSpillCancelled cancels spilling queries at many points: each ends
// with the cancellation (or its rows), no file is left behind, no byte
// stays reserved.
func TestSpillCancelled(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	db.SetMemoryLimit(256 << 10)
	for _, q := range []string{
		"select x, k from d order by k",
		"select x % 200 as g, count(distinct x) from d group by g",
		"select count(*), sum(a.x) from d a join d b on a.strn = b.strn",
	} {
		cancelled := 0
		for n := int64(1); n < 4000; n = n*3/2 + 1 {
			ctx := cancelAfter{Context: context.Background(), n: new(atomic.Int64)}
			ctx.n.Store(n)
			_, err := db.Exec(ctx, q, "")
			if err != nil && !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "query cancelled") {
				t.Errorf("%s cancelled after %d checks: %v", q, n, err)
			}
			if err != nil {
				cancelled++
			}
			checkNoSpillFiles(t, tmp)
			if u := db.mem.Used(); u != 0 {
				t.Errorf("%s cancelled after %d checks: %d bytes still reserved", q, n, u)
			}
		}
		if cancelled == 0 {
			t.Errorf("%s: never cancelled", q)
		}
	}
}

// TestJoinSpills joins past the memory limit as a grace hash join: every
// join kind, residuals, string and DECIMAL keys, NOT IN with and without
// NULLs in the subquery.
func TestJoinSpills(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	checkSpilledSet(t, db, tmp, 64<<10, []string{
		"select count(*), sum(a.x), sum(b.k) from d a join d b on a.strn = b.strn",
		"select a.k, count(b.x), count(*) from d a left join d b on a.x = b.x * 2 group by a.k",
		"select count(*), sum(a.x) from d a join d b on a.strn = b.strn and a.x < b.x",
		"select count(*) from d a join d b on a.dc = b.dc and a.k = b.k",
		"select count(*), sum(x) from d where x in (select x * 3 from d where kn is not null)",
		"select count(*), sum(x) from d a where not exists (select 1 from d b where b.strn = a.strn and b.x > a.x + 4000)",
		"select count(*) from d where x not in (select kn * 1000 from d)",
		"select count(*), sum(x) from d where x not in (select x + 1 from d where kn is not null)",
		"select a.str, count(*), max(b.dt) from d a left join d b on a.strn = b.str group by a.str",
	})
}

// TestJoinSpillOneKey: build rows sharing one key cannot be split; the
// join stops with the memory limit error naming it, its files removed.
func TestJoinSpillOneKey(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	db.SetMemoryLimit(64 << 10)
	_, err := runText(t, db, "select count(*) from d a join d b on floor(a.x / 100000) = floor(b.x / 100000)")
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.HasPrefix(me.Op, "HashJoin#") {
		t.Errorf("one join key past the limit: %v, want the memory limit error naming the HashJoin", err)
	}
	checkNoSpillFiles(t, tmp)
	if u := db.mem.Used(); u != 0 {
		t.Errorf("%d bytes still reserved", u)
	}
}

// TestSetSpillVariables: SET tmpdir and SET max_spill_bytes, their checks
// and defaults.
func TestSetSpillVariables(t *testing.T) {
	db := open(t)
	dir := t.TempDir()
	if got, _ := runText(t, db, "select @@tmpdir, @@max_spill_bytes"); got != os.TempDir()+",0" {
		t.Errorf("defaults: %q", got)
	}
	mustExec(t, db, "set tmpdir = '"+dir+"'; set max_spill_bytes = '1GB'", "")
	if got, _ := runText(t, db, "select @@tmpdir, @@max_spill_bytes"); got != dir+",1073741824" {
		t.Errorf("after SET: %q", got)
	}
	if o := db.spillOptions(); o.Dir != dir || o.MaxBytes != 1<<30 {
		t.Errorf("spill options %+v", o)
	}
	for _, bad := range []string{"set tmpdir = '/no/such/dir'", "set tmpdir = 3", "set max_spill_bytes = -1",
		"set max_spill_bytes = '12 parsecs'", "set max_spill_bytes = null"} {
		if _, err := db.Exec(context.Background(), bad, ""); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	mustExec(t, db, "set tmpdir = default; set max_spill_bytes = default", "")
	if got, _ := runText(t, db, "select @@tmpdir, @@max_spill_bytes"); got != os.TempDir()+",0" {
		t.Errorf("after DEFAULT: %q", got)
	}
}

// TestSpillDiskLimit: aggregations and joins past max_spill_bytes stop
// with the spill limit error naming them, their files removed.
func TestSpillDiskLimit(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	mustExec(t, db, "set max_spill_bytes = '16KB'", "")
	for _, c := range []struct {
		q, op string
		limit int64
	}{
		{"select x % 200 as g, count(distinct x) from d group by g", "HashAggregate#", 256 << 10},
		{"select count(*), sum(a.x) from d a join d b on a.strn = b.strn", "HashJoin#", 64 << 10},
	} {
		db.SetMemoryLimit(c.limit)
		_, err := runText(t, db, c.q)
		var se *exec.SpillLimitError
		if !errors.As(err, &se) || !strings.HasPrefix(se.Op, c.op) {
			t.Errorf("%s past the disk limit: %v, want the spill limit error naming %s", c.q, err, c.op)
		}
		checkNoSpillFiles(t, tmp)
		if u := db.mem.Used(); u != 0 {
			t.Errorf("%s: %d bytes still reserved", c.q, u)
		}
	}
}

// TestSpillRunsInputsOnce: a query assigning user variables never runs
// an input twice (a spilling aggregation would): past the limit it stops
// with the error, and under no limit @n counts every row once.
func TestSpillRunsInputsOnce(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	const q = "set @n = 0; select x % 200 as g, count(distinct x), max(@n := @n + 1) from d group by g"
	db.SetMemoryLimit(256 << 10)
	_, err := runText(t, db, q)
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.HasPrefix(me.Op, "HashAggregate#") {
		t.Errorf("assigning aggregation past the limit: %v, want the memory limit error", err)
	}
	checkNoSpillFiles(t, tmp)
	db.SetMemoryLimit(-1)
	if _, err := runText(t, db, q); err != nil {
		t.Fatal(err)
	}
	if got, _ := runText(t, db, "select @n"); got != "8192" {
		t.Errorf("@n = %s after one run over 8192 rows", got)
	}
}

// TestSetOpSpills: UNION, INTERSECT and EXCEPT (distinct and ALL) past
// the memory limit partition both inputs by row: NULLs equal, strings,
// inputs of different types (1 and 1.0 meet).
func TestSetOpSpills(t *testing.T) {
	db, tmp := spillDB(t, 8192)
	checkSpilledSet(t, db, tmp, 256<<10, []string{
		"select strn, k from d union select str, k from d",
		"select x % 1000, k from d intersect select x % 500, k from d",
		"select x % 1000, kn from d except select x % 300, kn from d",
		"select x % 100, kn from d except all select x % 50, kn from d",
	})
	checkSpilledSet(t, db, tmp, 100<<10, []string{
		"select k, strn from d intersect all select k, strn from d where x % 2 = 0",
		"select x, str from d intersect select x * 1.0, str from d where x % 3 = 0",
	})
}

// TestSpillWarningsOnce: an aggregation that spills runs its input again;
// the input's warnings (here 1365, Division by 0) are noted once.
func TestSpillWarningsOnce(t *testing.T) {
	db, _ := spillDB(t, 8192)
	const q = "select x % 200 as g, count(distinct x), sum(x / (x % 2)) from d group by g"
	counts := map[int64]string{}
	for _, limit := range []int64{-1, 256 << 10} {
		db.SetMemoryLimit(limit)
		want, err := runText(t, db, q)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := runText(t, db, "select @@warning_count")
		counts[limit] = n + " " + fmt.Sprint(len(want))
	}
	if counts[-1] != counts[256<<10] || !strings.HasPrefix(counts[-1], "4096 ") {
		t.Errorf("warnings unlimited / spilled: %q / %q, want 4096 both", counts[-1], counts[256<<10])
	}
	if ex := explainAnalyze(t, db, q); !strings.Contains(ex, "spilled") {
		t.Errorf("did not spill:\n%s", ex)
	}
}
