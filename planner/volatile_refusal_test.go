package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestVolatilePlansOnCPU: a plan that calls RAND, UUID, UUID_SHORT or
// RANDOM_BYTES is
// CPU-only and names the function (on the GPU, concat(s, uuid()) would be
// evaluated once per dictionary entry of s); the same query without it
// stays on the GPU.
func TestVolatilePlansOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table v (id int, s varchar(8))", 40, func(i int) string {
		return fmt.Sprintf("%d|s%d", i, i%3)
	})
	for q, name := range map[string]string{
		"select concat(s, uuid()) from v":           "uuid()",
		"select count(*) from v where rand() < 0.5": "rand()",
		"select id from v order by rand(3) limit 2": "rand()",
		"select s, uuid_short() from v":             "uuid_short()",
		"select rand(id) from v":                    "rand_row_seed()",
		"select hex(random_bytes(4)) from v":        "random_bytes()",
		"select sleep(0) from v":                    "sleep()",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, name) {
			t.Errorf("%s: CPUOnly = %q, want a reason naming %s\n%s", q, p.CPUOnly, name, p.Explain())
		}
	}
	if p := e.plan("select concat(s, 'x') from v", planner.Options{}); p.CPUOnly != "" {
		t.Errorf("a plan without a volatile function is CPU-only: %s", p.CPUOnly)
	}
}
