package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// Under the h100 profile, plans that read, compute or return VECTOR
// values are refused by the GPU plan (typeOnCPU), and EXPLAIN says why;
// a plan over the same table that never reads the vector column stays
// eligible for the GPU.
func TestVectorPlansStayOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table emb (id int, v vector(3))", 50, func(i int) string {
		return fmt.Sprintf("%d|[%d,%d,1]", i, i%7, i%5)
	})
	for _, q := range []string{
		"select id from emb order by vec_l2_distance(v, '[1,2,3]') limit 5",
		"select id from emb where vec_cosine_distance(v, '[1,0,0]') < 0.5",
		"select v from emb where id = 3",
		"select count(*) from emb where v = '[1,1,1]'",
	} {
		p := e.plan(q, planner.Options{GPU: h100(t)})
		if !strings.Contains(p.CPUOnly, "VECTOR values are computed on the CPU") {
			t.Errorf("%s: CPUOnly = %q", q, p.CPUOnly)
		}
		if !strings.Contains(p.Explain(), "Executor: CPU only (VECTOR") {
			t.Errorf("%s: EXPLAIN does not say why:\n%s", q, p.Explain())
		}
		if p.GPU == nil || p.GPU.Refused == "" {
			t.Errorf("%s: the GPU plan does not refuse it", q)
		}
	}
	p := e.plan("select count(*), sum(id) from emb where id > 10", planner.Options{GPU: h100(t)})
	if p.CPUOnly != "" {
		t.Errorf("a plan not reading the vector column is CPU only: %s", p.CPUOnly)
	}
}
