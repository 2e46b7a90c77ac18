package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestConformancePlansOnCPU: a plan computing a DOUBLE of fixed decimals
// (PI(), printed with 6) or reading a number as a date (MONTH(n): NULL
// and warning 1292 when n is no date) is CPU-only and says so; the same
// table's plain aggregates stay on the GPU.
func TestConformancePlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table m (id int, d int, x double)", 40, func(i int) string {
		return fmt.Sprintf("%d|%d|%d.5", i, 20240101+i%28, i)
	})
	for q, why := range map[string]string{
		"select id * pi() from m":                       "fixed decimals",
		"select sum(x) from m where x > pi()":           "fixed decimals",
		"select month(d), count(*) from m group by 1":   "no date",
		"select count(*) from m where dayofweek(d) = 1": "no date",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, why) {
			t.Errorf("%s: CPUOnly = %q, want a reason with %q\n%s", q, p.CPUOnly, why, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(x) from m where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan with neither is CPU-only: %s", p.CPUOnly)
	}
}
