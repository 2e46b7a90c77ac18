package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestTimeYearPlansOnCPU: a plan that reads, filters on, groups by or
// returns a TIME or YEAR column, or computes a TIME, is CPU-only and says
// so; one over the same table that leaves those columns alone stays on
// the GPU.
func TestTimeYearPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table d (id int, y year, t time)", 40, func(i int) string {
		return fmt.Sprintf("%d|%d|%02d:30:00", i, 1990+i%7, i%24)
	})
	for q, kind := range map[string]string{
		"select id, y from d":                         "YEAR",
		"select count(*) from d where y = 1993":       "YEAR",
		"select y, count(*) from d group by y":        "YEAR",
		"select max(y) from d":                        "YEAR",
		"select sum(y + 1) from d":                    "YEAR",
		"select id, t from d":                         "TIME",
		"select count(*) from d where t > '10:00:00'": "TIME",
		"select max(t) from d":                        "TIME",
		"select sum(t + 0) from d":                    "TIME",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, kind) {
			t.Errorf("%s: CPUOnly = %q, want a %s reason\n%s", q, p.CPUOnly, kind, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(id) from d where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan that does not touch the YEAR column is CPU-only: %s", p.CPUOnly)
	}
}
