package engine

import (
	"strings"
	"testing"
)

// TestExplainGPUZoneMaps: a star over a fact table whose t rises with the
// row number, filtered on a range of t, plans its kernel over the chunks
// (65,536 rows each) the range may reach, and says so; a range no chunk
// can rule out plans none. No GPU needed: the plan is the H100 profile's.
func TestExplainGPUZoneMaps(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "create table f as with recursive r(t) as (select 0 union all select t + 1 from r where t < 999) "+
		"select a.t * 1000 + b.t as t, (a.t * 1000 + b.t) % 7 as g from r a, r b where a.t < 200 order by t", "")
	explain := func(q string) string { return explainText(t, db, q) }
	text := explain("select g, count(*) from f where t >= 70000 and t < 120000 group by g")
	if !strings.Contains(text, "zone maps: the fact filters leave 1 of 4 chunks; the kernel skips the others' tiles") {
		t.Errorf("a range inside chunk 1: EXPLAIN does not skip the others:\n%s", text)
	}
	if text := explain("select g, count(*) from f where g > 2 group by g"); strings.Contains(text, "zone maps") {
		t.Errorf("a filter no chunk's range rules out: EXPLAIN names zone maps:\n%s", text)
	}
	if got := tableText(t, db, "select count(*) from f where t >= 70000 and t < 120000"); got != "50000" {
		t.Errorf("count over the range = %s, want 50000", got)
	}
}
