package cpu_test

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// TestSSBStrategies runs the SSB queries at a small scale under every join
// and group-by strategy and checks that the results agree.
func TestSSBStrategies(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	for _, q := range ssbtest.Queries(t, cat) {
		var first string
		for i, o := range allOptions {
			p, err := planner.Plan(q.Query, o)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s %+v: %v", q.Name, o, err)
			}
			got := rowsText(formatResult(res))
			if i == 0 {
				first = got
				continue
			}
			if got != first {
				t.Errorf("%s under %+v differs:\n%s\nvs\n%s\n%s", q.Name, o, got, first, p.Explain())
			}
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
	cat := ssbtest.Catalog(b, ssbSF(), columnar.HeapAllocator)
	qs := ssbtest.Queries(b, cat)
	plans := make([]*planner.Physical, len(qs))
	for i, q := range qs {
		p, err := planner.Plan(q.Query, planner.Options{})
		if err != nil {
			b.Fatal(err)
		}
		plans[i] = p
	}
	lo, _ := cat.Table("lineorder")
	for i, q := range qs {
		b.Run(q.Name, func(b *testing.B) {
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
	cat := ssbtest.Catalog(t, ssbSF(), columnar.HeapAllocator)
	var total, totalCPU time.Duration
	for _, q := range ssbtest.Queries(t, cat) {
		p, err := planner.Plan(q.Query, planner.Options{})
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
		t.Logf("%-5s %8.1f ms wall %8.1f ms cpu  %d rows", q.Name, float64(best)/1e6, float64(bestCPU)/1e6, rows)
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
	cat := ssbtest.Catalog(t, ssbSF(), columnar.HeapAllocator)
	var plans []*planner.Physical
	for _, q := range ssbtest.Queries(t, cat) {
		if names == "all" || strings.Contains(","+names+",", ","+q.Name+",") {
			p, err := planner.Plan(q.Query, planner.Options{})
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
