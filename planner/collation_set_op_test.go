package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestCollatedSetOpsOnCPU: INTERSECT and EXCEPT over a column of a
// case-insensitive collation compare its keys, which only the CPU
// executor does: such plans are CPU-only and say why; UNION ALL of the
// column (no comparison) and set operations of other columns are not.
func TestCollatedSetOpsOnCPU(t *testing.T) {
	e := newEnv(t)
	e.table("create table c (id int, name varchar(10) collate utf8mb4_0900_ai_ci, raw varchar(10))", 40, func(i int) string {
		return fmt.Sprintf("%d|%s|%s", i, []string{"a", "A", "b"}[i%3], []string{"x", "X"}[i%2])
	})
	for _, q := range []string{
		"select name from c intersect select raw from c",
		"select raw from c except select name from c",
		"select id, name from c except all select id, name from c where id > 3",
	} {
		p := e.plan(q, planner.Options{})
		if !strings.Contains(p.CPUOnly, "by collation utf8mb4_0900_ai_ci") {
			t.Errorf("%s: CPUOnly = %q, want the collated set operation's reason\n%s", q, p.CPUOnly, p.Explain())
		}
	}
	for _, q := range []string{
		"select name from c union all select raw from c",
		"select raw from c intersect select raw from c where id > 3",
	} {
		if p := e.plan(q, planner.Options{}); strings.Contains(p.CPUOnly, "collation") {
			t.Errorf("%s: CPUOnly = %q, want no collation reason", q, p.CPUOnly)
		}
	}
}
