package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestYearPlansOnCPU: a plan that reads, filters on, groups by or returns
// a YEAR column is CPU-only and says so; one over the same table that
// leaves the YEAR column alone stays on the GPU.
func TestYearPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table d (id int, y year)", 40, func(i int) string {
		return fmt.Sprintf("%d|%d", i, 1990+i%7)
	})
	for _, q := range []string{
		"select id, y from d",
		"select count(*) from d where y = 1993",
		"select y, count(*) from d group by y",
		"select max(y) from d",
		"select sum(y + 1) from d",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, "YEAR") {
			t.Errorf("%s: CPUOnly = %q, want a YEAR reason\n%s", q, p.CPUOnly, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(id) from d where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan that does not touch the YEAR column is CPU-only: %s", p.CPUOnly)
	}
}
