package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestUnsignedPlansOnCPU: a plan that reads, compares, computes or
// returns an unsigned integer (either width, the constant 2^63 included)
// is CPU-only and says so; one over the same table that leaves the
// unsigned columns alone stays on the GPU.
func TestUnsignedPlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table u (id int, a int unsigned, b bigint unsigned)", 40, func(i int) string {
		return fmt.Sprintf("%d|%d|%d", i, i%7, uint64(1)<<63+uint64(i))
	})
	for _, q := range []string{
		"select id, b from u",
		"select count(*) from u where b > 9223372036854775808",
		"select sum(a) from u group by id",
		"select id from u order by a limit 3",
		"select id + 18446744073709551615 from u",
		"select id, ~id from u",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, "unsigned integers are computed on the CPU") {
			t.Errorf("%s: CPUOnly = %q, want the unsigned reason\n%s", q, p.CPUOnly, p.Explain())
		}
	}
	if p := e.plan("select count(*), sum(id) from u where id > 3", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan that does not touch the unsigned columns is CPU-only: %s", p.CPUOnly)
	}
}
