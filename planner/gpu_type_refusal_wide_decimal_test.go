package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestWideDecimalPlansOnCPU: a plan that reads, computes or returns a
// DECIMAL of more than 18 digits is CPU-only and names it; one that
// leaves the wide column alone, or computes narrow decimals, stays on the
// GPU.
func TestWideDecimalPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table w (id int, d decimal(12,2), big decimal(30,4))", 40, func(i int) string {
		return fmt.Sprintf("%d|%d.25|12345678901234567890.%04d", i, i, i)
	})
	for _, q := range []string{
		"select big from w",
		"select count(*) from w where big > 5",
		"select sum(big) from w",
		"select id, d * 12345678901234567890 from w",
		"select sum(id) from w where d < 12345678901234567890.5",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, "DECIMAL(") {
			t.Errorf("%s: CPUOnly = %q, want a wide DECIMAL reason\n%s", q, p.CPUOnly, p.Explain())
		}
	}
	for _, q := range []string{"select count(*), sum(id), sum(d) from w where id > 3", "select d * 2 from w"} {
		if p := e.plan(q, planner.Options{}); p.CPUOnly != "" {
			t.Errorf("%s: a plan without wide decimals is CPU-only: %s", q, p.CPUOnly)
		}
	}
}
