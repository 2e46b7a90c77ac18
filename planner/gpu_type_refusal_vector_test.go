package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestVectorPlansOnCPU: a plan that reads, computes or returns a VECTOR is
// CPU-only, and says which operator holds the vector; a plan over the same
// table that leaves the vector column alone stays on the GPU.
func TestVectorPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table p (id int, v vector(2))", 40, func(i int) string {
		return fmt.Sprintf("%d|[%d,%d]", i, i%5, i%3)
	})
	for _, q := range []string{
		"select count(*) from p where vec_l2_distance(v, '[1,1]') < 2",
		"select id, v from p",
		"select id from p order by vec_l1_distance(v, '[0,0]') limit 3",
		"select vec_dims(v), count(*) from p group by vec_dims(v)",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, "VECTOR") {
			t.Errorf("%s: CPUOnly = %q, want a VECTOR reason\n%s", q, p.CPUOnly, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(id) from p where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan that does not touch the vector column is CPU-only: %s", p.CPUOnly)
	}
}
