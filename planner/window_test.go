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
// scanned, and the plan is marked CPU-only. A filter on a partition column
// goes below.
func TestWindowPlan(t *testing.T) {
	e := newEnv(t)
	e.table("create table t (a int, b int, c int, d int)", 100, func(i int) string {
		return fmt.Sprintf("%d|%d|%d|%d", i%10, i, i%3, i%7)
	})
	p := e.plan("select a, rn from (select a, row_number() over (partition by a order by b) as rn from t where c = 1) x where rn = 1", planner.Options{})
	ex := p.Explain()
	for _, want := range []string{
		"Window#", "ROW_NUMBER() OVER (PARTITION BY a ORDER BY b)", "Executor: CPU only (window functions in Window#",
		"TableScan#", "t [a, b, c]",
	} {
		if !strings.Contains(ex, want) {
			t.Errorf("plan lacks %q:\n%s", want, ex)
		}
	}
	if p.CPUOnly == "" {
		t.Error("a plan with a Window node is not CPU-only")
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
