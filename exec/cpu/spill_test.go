package cpu_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
)

// spillFixture is a table of 20000 rows: a skewed integer with NULLs, a
// wide integer, strings, decimals and doubles, in the catalog and SQLite.
func spillFixture(t *testing.T) *testDB {
	d := newTestDB(t, true)
	r := rand.New(rand.NewSource(7))
	null := func(s string) string {
		if r.Intn(20) == 0 {
			return `\N`
		}
		return s
	}
	words := []string{"apple", "banana", "cherry", "date", "elder", "fig", "grape", "x", "", "zeta"}
	d.create("create table big (a int, b int, s varchar(10), d decimal(10,2), f double)")
	var lines []string
	for i := 0; i < 20000; i++ {
		a := r.Intn(50)
		if r.Intn(3) == 0 {
			a = 7 // skew
		}
		lines = append(lines, strings.Join([]string{
			null(fmt.Sprint(a)),
			null(fmt.Sprint(r.Intn(2000) - 1000)),
			null(words[r.Intn(len(words))]),
			null(fmt.Sprintf("%d.%02d", r.Intn(2000)-1000, r.Intn(100))),
			null(fmt.Sprintf("%.3f", r.Float64()*100)),
		}, "|"))
	}
	d.load("big", lines)
	// SQLite joins by nested loops without them: seconds per join.
	for _, ix := range []string{"create index big_b on big(b)", "create index big_d on big(d)"} {
		if _, err := d.oracle.Exec(ix); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// runLimited runs q under a memory limit, spilling to dir, and returns
// its rows and the files its operators spilled.
func (d *testDB) runLimited(q string, opts planner.Options, limit int64, dir string) ([][]string, int64) {
	d.t.Helper()
	p := d.plan(q, opts)
	mem := exec.NewMemory(limit, nil)
	ctx := exec.WithSpillOptions(exec.WithMemory(context.Background(), mem), exec.SpillOptions{Dir: dir})
	res, st, err := cpu.RunAnalyze(ctx, p)
	if err != nil {
		d.t.Fatalf("run %q under %d bytes: %v\n%s", q, limit, err, p.Explain())
	}
	mem.Close()
	var files int64
	for _, o := range st.Ops {
		files += o.SpillRuns
	}
	return formatResult(res), files
}

// TestSpillMatchesSQLite sorts and aggregates past the memory limit with
// the smallest fan-in and fan-out (multi-pass merges, re-partitioning):
// the rows equal SQLite's and the unlimited run's, and no file is left.
func TestSpillMatchesSQLite(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	cases := []struct {
		q       string
		limit   int64
		ordered bool
		// minFiles is the least files a run must spill: more than the
		// first pass makes means runs merged into runs, partitions
		// partitioned again.
		minFiles int64
		opts     planner.Options
	}{
		{"select a, b from big order by a, b", 400 << 10, true, 4, planner.Options{}},
		{"select s, d from big order by s desc, d", 450 << 10, true, 4, planner.Options{}},
		{"select f, a from big order by f desc, a", 500 << 10, true, 4, planner.Options{}},
		{"select a, count(*), sum(b), count(distinct s), count(distinct b) from big group by a", 400 << 10, false, 3, planner.Options{}},
		{"select b, count(distinct s), min(d), max(f) from big group by b", 512 << 10, false, 2, planner.Options{}},
		{"select distinct s, b from big", 300 << 10, false, 3, planner.Options{}},
		// Grace hash joins, partitions partitioned again.
		{"select count(*), sum(x.a), sum(y.f) from big x join big y on x.b = y.b", 128 << 10, false, 5, planner.Options{}},
		{"select x.a, count(y.b), count(*) from big x left join big y on y.b = x.b + 500 and y.s < x.s group by x.a", 128 << 10, false, 5, planner.Options{}},
		{"select count(*), sum(b) from big where b in (select b * 2 from big where s = 'fig')", 16 << 10, false, 3, planner.Options{}},
		{"select count(*), sum(b) from big where b not in (select b * 3 from big where b is not null)", 96 << 10, false, 3, planner.Options{}},
		{"select count(*) from big where b not in (select a from big)", 96 << 10, false, 1, planner.Options{}},
		{"select count(*), sum(x.b) from big x where not exists (select 1 from big y where y.d = x.d and y.a > x.a)", 128 << 10, false, 5, planner.Options{}},
		// Set operations partition both inputs by row.
		{"select a, s from big union select b % 50, s from big", 700 << 10, false, 2, planner.Options{}},
		{"select a, s from big intersect select b % 60, s from big", 700 << 10, false, 2, planner.Options{}},
		{"select a, s from big except select b % 30, s from big", 700 << 10, false, 2, planner.Options{}},
		// Blocking joins (sort-merge, two-pass) past the limit run again
		// as hash joins, here grace hash joins; their output is whole in
		// memory, so these keep few rows.
		{"select b, s from big where b in (select b + 1500 from big)", 256 << 10, false, 5, planner.Options{Join: "merge"}},
		{"select x.b, x.d from big x where not exists (select 1 from big y where y.b = x.b and y.d <> x.d)", 256 << 10, false, 5, planner.Options{Join: "merge"}},
		{"select x.a, y.f from big x join big y on x.b = y.b + 1990 and x.s = y.s", 256 << 10, false, 5, planner.Options{Join: "merge"}},
		{"select b, s from big where b in (select b + 1500 from big)", 256 << 10, false, 5, planner.Options{Join: "twopass"}},
		// ... and feeding an aggregation, they stream into it: 200 K
		// pairs never materialized.
		{"select count(*), sum(x.a), sum(y.f) from big x join big y on x.b = y.b", 128 << 10, false, 5, planner.Options{Join: "merge"}},
		{"select x.a, count(y.b), count(*) from big x left join big y on y.b = x.b + 500 and y.s < x.s group by x.a", 128 << 10, false, 5, planner.Options{Join: "twopass"}},
		{"select x.a, y.f from big x join big y on x.b = y.b + 1990 and x.s = y.s", 256 << 10, false, 5, planner.Options{Join: "twopass"}},
	}
	for _, c := range cases {
		want := d.run(c.q, c.opts)
		got, files := d.runLimited(c.q, c.opts, c.limit, dir)
		if files < c.minFiles {
			t.Errorf("%s under %d bytes spilled %d files, want at least %d", c.q, c.limit, files, c.minFiles)
		}
		oracle := d.oracleRows(c.q)
		if c.ordered {
			if rowsText(got) != rowsText(want) {
				t.Errorf("%s: spilled rows differ from the unlimited run's", c.q)
			}
			if rowsText(normalize(got)) != rowsText(normalize(oracle)) {
				t.Errorf("%s: spilled rows differ from SQLite's", c.q)
			}
		} else {
			g, w, o := sortedRows(got), sortedRows(want), sortedRows(normalize(oracle))
			if strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("%s: spilled rows differ from the unlimited run's", c.q)
			}
			if strings.Join(sortedRows(normalize(got)), "\n") != strings.Join(o, "\n") {
				t.Errorf("%s: spilled rows differ from SQLite's", c.q)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}

// TestSpillCorpus runs the oracle and expected corpora under every
// strategy with small memory limits and the smallest fans: each query
// either returns the unlimited run's rows (spilling where it must) or
// stops with the memory limit error (its output, or one group or key,
// does not fit), and leaves no file behind.
func TestSpillCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus under small limits takes a while")
	}
	defer cpu.SetSpillFans(2, 2)()
	d := fixtureDB(t)
	dir := t.TempDir()
	blocks := append(readBlocks(t, "testdata/oracle.sql"), readBlocks(t, "testdata/expected.test")...)
	var ran, spilled, stopped int
	for _, b := range blocks {
		for _, o := range allOptions {
			want := d.run(b.sql, o)
			for _, limit := range []int64{16 << 10, 64 << 10, 512 << 10} {
				got, files, err := d.tryLimited(b.sql, o, limit, dir)
				ran++
				if ents, _ := os.ReadDir(dir); len(ents) > 0 {
					t.Errorf("%s under %+v, %d bytes: %d spill entries left behind", b.sql, o, limit, len(ents))
				}
				var me *exec.MemoryLimitError
				switch {
				case errors.As(err, &me):
					stopped++
					if os.Getenv("SPILL_LOG") != "" {
						t.Logf("%d bytes %+v stopped: %v: %s", limit, o, me.Op, strings.ReplaceAll(b.sql, "\n", " "))
					}
					continue
				case err != nil:
					t.Errorf("%s under %+v, %d bytes: %v", b.sql, o, limit, err)
					continue
				}
				if files > 0 {
					spilled++
				}
				g, w := strings.Join(sortedRows(got), "\n"), strings.Join(sortedRows(want), "\n")
				if strings.Contains(b.flags, "ordered") {
					g, w = rowsText(got), rowsText(want)
				}
				if g != w {
					t.Errorf("%s under %+v, %d bytes (%d files spilled): rows differ from the unlimited run's\ngot\n%s\nwant\n%s",
						b.sql, o, limit, files, head(g), head(w))
				}
			}
		}
	}
	t.Logf("%d runs: %d spilled, %d stopped at the limit", ran, spilled, stopped)
}

// tryLimited is runLimited returning the error.
func (d *testDB) tryLimited(q string, opts planner.Options, limit int64, dir string) ([][]string, int64, error) {
	p := d.plan(q, opts)
	mem := exec.NewMemory(limit, nil)
	defer mem.Close()
	ctx := exec.WithSpillOptions(exec.WithMemory(context.Background(), mem), exec.SpillOptions{Dir: dir})
	res, st, err := cpu.RunAnalyze(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	if u := mem.Used(); u > limit {
		d.t.Errorf("%s: %d bytes reserved after the run, past the limit %d", q, u, limit)
	}
	var files int64
	for _, o := range st.Ops {
		files += o.SpillRuns
	}
	return formatResult(res), files, nil
}

// TestSetOpRepartition: UNION, INTERSECT and EXCEPT whose first partitions
// do not fit partition them again (more files than the first level's
// four); the rows equal SQLite's and the unlimited run's.
func TestSetOpRepartition(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	for _, q := range []string{
		"select a, s from big union select b % 50, s from big",
		"select a, b, s from big intersect select b % 50, a, s from big",
		"select a, s from big intersect all select b % 50, s from big", // SQLite has no ALL form
		"select b, s from big except select b + 1, s from big where a < 30",
	} {
		want := strings.Join(sortedRows(d.run(q, planner.Options{})), "\n")
		got, files := d.runLimited(q, planner.Options{}, 256<<10, dir)
		if files <= 4 {
			t.Errorf("%s spilled %d files, want partitions partitioned again", q, files)
		}
		if g := strings.Join(sortedRows(got), "\n"); g != want {
			t.Errorf("%s: spilled rows differ from the unlimited run's", q)
		}
		if !strings.Contains(q, " all ") {
			if o := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n"); strings.Join(sortedRows(normalize(got)), "\n") != o {
				t.Errorf("%s: spilled rows differ from SQLite's", q)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", q, len(ents))
		}
	}
}
