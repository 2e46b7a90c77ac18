package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestWindowPlan: the Window node sits above the filters of its block, a
// filter on a window column stays above it (filtering first would change
// the rows the function numbers), only the columns the functions read are
// scanned, and the plan may run on the GPU (ROW_NUMBER is one of the
// functions gpu_window.go takes). A filter on a partition column goes below.
func TestWindowPlan(t *testing.T) {
	e := newEnv(t)
	e.table("create table t (a int, b int, c int, d int)", 100, func(i int) string {
		return fmt.Sprintf("%d|%d|%d|%d", i%10, i, i%3, i%7)
	})
	p := e.plan("select a, rn from (select a, row_number() over (partition by a order by b) as rn from t where c = 1) x where rn = 1", planner.Options{})
	ex := p.Explain()
	for _, want := range []string{
		"Window#", "ROW_NUMBER() OVER (PARTITION BY a ORDER BY b)",
		"TableScan#", "t [a, b, c]",
	} {
		if !strings.Contains(ex, want) {
			t.Errorf("plan lacks %q:\n%s", want, ex)
		}
	}
	if p.CPUOnly != "" {
		t.Errorf("ROW_NUMBER kept on the CPU: %s", p.CPUOnly)
	}
	lines := strings.Split(ex, "\n")
	win, rnFilter, cFilter := -1, -1, -1
	for i, l := range lines {
		if strings.HasPrefix(l, "Pipelines") {
			break
		}
		switch {
		case strings.Contains(l, "Window#"):
			win = i
		case strings.Contains(l, "Filter#") && strings.Contains(l, " c = 1"):
			cFilter = i
		case strings.Contains(l, "Filter#") && strings.Contains(l, "ROW_NUMBER"):
			rnFilter = i
		}
	}
	if !(rnFilter >= 0 && rnFilter < win && win < cFilter) {
		t.Errorf("want the ROW_NUMBER filter above the Window and the c filter below it:\n%s", ex)
	}
}

func TestWindowPartitionFilterPushdown(t *testing.T) {
	e := newEnv(t)
	e.table("create table t (a int, b int)", 10, func(i int) string { return fmt.Sprintf("%d|%d", i%3, i) })
	ex := e.plan("select * from (select a, b, sum(b) over (partition by a) s from t) x where a = 1 and b > 2", planner.Options{}).Explain()
	win := strings.Index(ex, "Window#")
	if pa, pb := strings.Index(ex, "a = 1"), strings.Index(ex, "b > 2"); !(pb < win && win < pa) {
		t.Errorf("want b > 2 above the Window and a = 1 below it:\n%s", ex)
	}
}

// TestWindowGPURefusals: the window functions and frames the GPU does not
// compute keep the plan on the CPU, naming the function; those it does
// leave it free.
func TestWindowGPURefusals(t *testing.T) {
	e := newEnv(t)
	e.table("create table t (a int, b int, f double, s varchar(10), d date)", 10, func(i int) string {
		return fmt.Sprintf("%d|%d|%d.5|x%d|2024-01-%02d", i%3, i, i, i, i+1)
	})
	for _, c := range []struct{ fn, why string }{
		{"rank() over (partition by a order by b)", ""},
		{"dense_rank() over (order by s desc)", ""},
		{"count(*) over ()", ""},
		{"sum(b) over (partition by a order by b rows between unbounded preceding and current row)", ""},
		{"min(f) over (partition by a order by b)", ""},
		{"max(b) over (partition by a order by b range between unbounded preceding and unbounded following)", ""},
		{"lag(b) over (order by b)", ""},
		{"lead(s, 2) over (partition by a order by b)", ""},
		{"lag(b, 1, 0) over (order by b)", ""},
		{"lag(s, 1, 'none') over (order by b)", "a string default of LAG / LEAD"},
		{"percent_rank() over (partition by a order by b), cume_dist() over (order by f), ntile(3) over (order by b)", ""},
		{"first_value(f) over (partition by a order by b), last_value(s) over (order by b rows unbounded preceding), nth_value(b, 2) over (order by b)", ""},
		{"last_value(b) over (order by b rows between current row and 1 following)", ""},
		{"first_value(b) over (order by b range between current row and unbounded following)", ""},
		{"sum(b) over (order by b rows between 1 preceding and current row)", ""},
		{"count(f) over (partition by a order by b rows between 2 following and unbounded following)", ""},
		{"sum(b) over (order by b range between 1 preceding and current row)", ""},
		{"count(*) over (order by f desc range between 0.5 preceding and 2 following), sum(b) over (order by b range between 1.5 preceding and current row)", ""},
		{"count(*) over (order by d range between interval 7 day preceding and current row)", ""},
		{"count(*) over (order by d range between interval 1 month preceding and current row)", "INTERVAL in MONTHS (calendar arithmetic)"},
		{"min(b) over (order by b rows between 1 preceding and current row), max(f) over (order by b range between current row and 2 following)", ""},
		{"sum(f) over (partition by a), avg(f) over (order by b rows between 2 preceding and 1 following)", ""},
		{"min(s) over (partition by a)", "MIN / MAX of VARCHAR"},
		{"avg(b) over (partition by a order by b rows between 2 preceding and current row)", ""},
		{"var_pop(b) over (partition by a)", "over a window is computed on the CPU"},
	} {
		p := e.plan("select a, "+c.fn+" from t", planner.Options{})
		switch {
		case c.why == "" && p.CPUOnly != "":
			t.Errorf("%s: kept on the CPU: %s", c.fn, p.CPUOnly)
		case c.why != "" && !strings.Contains(p.CPUOnly, c.why):
			t.Errorf("%s: CPU-only reason %q, want one with %q", c.fn, p.CPUOnly, c.why)
		}
	}
}

// TestWindowGPUFrameHow: EXPLAIN names the GPU's work for frames a running
// value cannot give, and only for them.
func TestWindowGPUFrameHow(t *testing.T) {
	e := newEnv(t)
	e.table("create table t (a int, b int, f double, d date)", 10, func(i int) string {
		return fmt.Sprintf("%d|%d|%d.5|2024-01-%02d", i%3, i, i, i+1)
	})
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fn           string
		search, tree bool
	}{
		{"sum(b) over (partition by a order by b)", false, false},
		{"sum(b) over (order by b rows between 2 preceding and current row)", false, false},
		{"sum(f) over (order by b rows between 2 preceding and current row)", false, true},
		{"min(b) over (order by b rows between current row and 1 following)", false, true},
		{"count(*) over (order by d range between interval 7 day preceding and current row)", true, false},
	} {
		ex := e.plan("select a, "+c.fn+" from t", planner.Options{GPU: prof}).Explain()
		if got := strings.Contains(ex, "a binary search per row for RANGE offsets"); got != c.search {
			t.Errorf("%s: binary search named %v, want %v:\n%s", c.fn, got, c.search, ex)
		}
		if got := strings.Contains(ex, "segment trees"); got != c.tree {
			t.Errorf("%s: segment trees named %v, want %v:\n%s", c.fn, got, c.tree, ex)
		}
	}
}
