package cpu_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

const ssbDir = "/work/shared/ssb"

var ssbCache sync.Map // sf → *catalog.Catalog

// ssbCatalog generates SSB data at scale factor sf (once, into a folder
// under the system temp dir, reused across runs) and loads it.
func ssbCatalog(tb testing.TB, sf float64) *catalog.Catalog {
	tb.Helper()
	if c, ok := ssbCache.Load(sf); ok {
		return c.(*catalog.Catalog)
	}
	dir := filepath.Join(os.TempDir(), "gpusql-ssb-sf"+strconv.FormatFloat(sf, 'f', -1, 64))
	if err := ensureSSB(dir, sf); err != nil {
		tb.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join(ssbDir, "schema.sql"))
	if err != nil {
		tb.Fatal(err)
	}
	ps, err := sql.Parse(string(schema))
	if err != nil {
		tb.Fatal(err)
	}
	cat := catalog.New()
	for _, p := range ps {
		st, err := sql.Bind(cat, p)
		if err != nil {
			tb.Fatal(err)
		}
		switch st := st.(type) {
		case *sql.CreateTable:
			if err := cat.Create(st.Name, st.Fields, false); err != nil {
				tb.Fatal(err)
			}
		case *sql.Load:
			err := cat.Update(st.Table, func(old *columnar.Table) (*columnar.Table, error) {
				nt, err := columnar.LoadDelimited(old, filepath.Join(dir, st.Path),
					columnar.DelimitedOptions{Delimiter: st.Delimiter, Enclosure: st.Enclosure})
				if err != nil {
					return nil, err
				}
				columnar.ComputeStats(nt)
				return nt, nil
			})
			if err != nil {
				tb.Fatal(err)
			}
		}
	}
	ssbCache.Store(sf, cat)
	return cat
}

type ssbQuery struct {
	name string
	q    *sql.Query
}

// ssbQueries binds the 13 SSB queries against cat.
func ssbQueries(tb testing.TB, cat *catalog.Catalog) []ssbQuery {
	tb.Helper()
	text, err := os.ReadFile(filepath.Join(ssbDir, "queries.sql"))
	if err != nil {
		tb.Fatal(err)
	}
	ps, err := sql.Parse(string(text))
	if err != nil {
		tb.Fatal(err)
	}
	var out []ssbQuery
	for _, p := range ps {
		st, err := sql.Bind(cat, p)
		if err != nil {
			tb.Fatal(err)
		}
		name := fmt.Sprintf("Q%d", len(out)+1)
		lines := strings.Split(string(text), "\n")
		if p.Line >= 2 && strings.HasPrefix(lines[p.Line-2], "-- ") {
			name = strings.TrimPrefix(lines[p.Line-2], "-- ")
		}
		out = append(out, ssbQuery{name: name, q: st.(*sql.Query)})
	}
	return out
}

// TestSSBStrategies runs the SSB queries at a small scale under every join
// and group-by strategy and checks that the results agree.
func TestSSBStrategies(t *testing.T) {
	cat := ssbCatalog(t, 0.01)
	for _, q := range ssbQueries(t, cat) {
		var first string
		for i, o := range allOptions {
			p, err := planner.Plan(q.q, o)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s %+v: %v", q.name, o, err)
			}
			got := rowsText(formatResult(res))
			if i == 0 {
				first = got
				continue
			}
			if got != first {
				t.Errorf("%s under %+v differs:\n%s\nvs\n%s\n%s", q.name, o, got, first, p.Explain())
			}
		}
	}
}

// TestSSBOracle compares the SSB queries at a small scale with SQLite.
func TestSSBOracle(t *testing.T) {
	cat := ssbCatalog(t, 0.01)
	db := oracleFromCatalog(t, cat)
	text, err := os.ReadFile(filepath.Join(ssbDir, "queries.sql"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := sql.Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range ssbQueries(t, cat) {
		p, err := planner.Plan(q.q, planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got := normalize(formatResult(res))
		want := normalize(db.oracleRows(ps[i].Text))
		if rowsText(got) != rowsText(want) {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", q.name, rowsText(got), rowsText(want))
		}
	}
}

func ssbSF() float64 {
	if s := os.Getenv("GPUSQL_SSB_SF"); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return 1
}

// BenchmarkSSB runs each SSB query (planned once) on the CPU executor at
// scale factor GPUSQL_SSB_SF (default 1); "all" runs the 13 in a row.
func BenchmarkSSB(b *testing.B) {
	cat := ssbCatalog(b, ssbSF())
	qs := ssbQueries(b, cat)
	plans := make([]*planner.Physical, len(qs))
	for i, q := range qs {
		p, err := planner.Plan(q.q, planner.Options{})
		if err != nil {
			b.Fatal(err)
		}
		plans[i] = p
	}
	lo, _ := cat.Table("lineorder")
	for i, q := range qs {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := cpu.Run(context.Background(), plans[i]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lo.Rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			for _, p := range plans {
				if _, err := cpu.Run(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// TestSSBTimes prints per-query times at GPUSQL_SSB_SF when GPUSQL_SSB_TIMES
// is set (a quick report; benchmarks are the measurement).
func TestSSBTimes(t *testing.T) {
	if os.Getenv("GPUSQL_SSB_TIMES") == "" {
		t.Skip("set GPUSQL_SSB_TIMES=1")
	}
	cat := ssbCatalog(t, ssbSF())
	var total, totalCPU time.Duration
	for _, q := range ssbQueries(t, cat) {
		p, err := planner.Plan(q.q, planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		best, bestCPU := time.Hour, time.Hour
		var rows int
		for i := 0; i < 5; i++ {
			c0 := cpuTime()
			start := time.Now()
			res, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
			bestCPU = min(bestCPU, cpuTime()-c0)
			rows = res.Rows
		}
		total += best
		totalCPU += bestCPU
		t.Logf("%-5s %8.1f ms wall %8.1f ms cpu  %d rows", q.name, float64(best)/1e6, float64(bestCPU)/1e6, rows)
		if os.Getenv("GPUSQL_SSB_EXPLAIN") != "" {
			_, st, _ := cpu.RunAnalyze(context.Background(), p)
			t.Log("\n" + planner.ExplainAnalyze(p, st))
		}
	}
	t.Logf("total %.1f ms wall, %.1f ms cpu (%d cores)", float64(total)/1e6, float64(totalCPU)/1e6, runtime.NumCPU())
}

// TestSSBProfile writes a CPU profile of GPUSQL_SSB_PROFILE_RUNS runs of the
// queries named in GPUSQL_SSB_PROFILE (comma-separated, or "all") to
// /tmp/ssb.prof, data loading excluded.
func TestSSBProfile(t *testing.T) {
	names := os.Getenv("GPUSQL_SSB_PROFILE")
	if names == "" {
		t.Skip("set GPUSQL_SSB_PROFILE=Q1.1,... or all")
	}
	cat := ssbCatalog(t, ssbSF())
	var plans []*planner.Physical
	for _, q := range ssbQueries(t, cat) {
		if names == "all" || strings.Contains(","+names+",", ","+q.name+",") {
			p, err := planner.Plan(q.q, planner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			plans = append(plans, p)
		}
	}
	runs := 20
	if s := os.Getenv("GPUSQL_SSB_PROFILE_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	f, err := os.Create("/tmp/ssb.prof")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	pprof.StartCPUProfile(f)
	start := time.Now()
	for i := 0; i < runs; i++ {
		for _, p := range plans {
			if _, err := cpu.Run(context.Background(), p); err != nil {
				t.Fatal(err)
			}
		}
	}
	pprof.StopCPUProfile()
	t.Logf("%.1f ms per round", float64(time.Since(start))/1e6/float64(runs))
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ensureSSB generates SSB data at sf into dir unless it is there: into a
// fresh folder renamed into place, so an interrupted or concurrent run never
// leaves a partial one.
func ensureSSB(dir string, sf float64) error {
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := ssbgen.Generate(ssbgen.Options{SF: sf, Out: tmp, Format: ssbgen.FormatTbl}); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "done"), nil, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "done")); serr == nil {
			return nil // another run got there first
		}
		return err
	}
	return nil
}
