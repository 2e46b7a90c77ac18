package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
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
