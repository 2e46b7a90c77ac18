package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestJSONPlansOnCPU: a plan that reads, computes or returns a JSON value
// (->> reads the column too) is CPU-only and names the operator; one over
// the same table that leaves the JSON column alone stays on the GPU. The
// rows are loaded through the delimited loader, so a JSON column's
// values pass its check.
func TestJSONPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table d (id int, j json)", 40, func(i int) string {
		return fmt.Sprintf(`%d|{"k": %d}`, i, i%5)
	})
	for _, q := range []string{
		"select id, j from d",
		"select count(*) from d where j->>'$.k' = '2'",
		"select json_object('id', id) from d",
		"select json_arrayagg(id) from d",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, "JSON") && !strings.Contains(p.CPUOnly, "json") {
			t.Errorf("%s: CPUOnly = %q, want a JSON reason\n%s", q, p.CPUOnly, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(id) from d where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan that does not touch the JSON column is CPU-only: %s", p.CPUOnly)
	}
}
