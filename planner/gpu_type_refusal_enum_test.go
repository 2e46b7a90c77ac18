package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestEnumSetPlansOnCPU: a plan that reads, filters on, groups or orders
// by an ENUM or SET column is CPU-only and says so; one that leaves them
// alone stays on the GPU.
func TestEnumSetPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table d (id int, e enum('a','b','c'), s set('x','y'))", 40, func(i int) string {
		return fmt.Sprintf("%d|%c|%s", i, 'a'+i%3, []string{"x", "y", "x,y"}[i%3])
	})
	for q, kind := range map[string]string{
		"select id, e from d":                    "ENUM",
		"select count(*) from d where e = 'b'":   "ENUM",
		"select e, count(*) from d group by e":   "ENUM",
		"select id from d order by e":            "ENUM",
		"select sum(e + 0) from d":               "ENUM",
		"select id, s from d":                    "SET",
		"select count(*) from d where s = 'x,y'": "SET",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, kind) {
			t.Errorf("%s: CPUOnly = %q, want a %s reason\n%s", q, p.CPUOnly, kind, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(id) from d where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan that does not touch the ENUM column is CPU-only: %s", p.CPUOnly)
	}
}
