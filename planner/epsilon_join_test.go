package planner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestEpsilonJoinExplainGolden: joins bounded by a vector distance are
// planned as EpsilonJoins, with their options, filter and streaming
// pipelines (testdata/explain/epsilon_join.txt; go test ./planner -update).
func TestEpsilonJoinExplainGolden(t *testing.T) {
	e := newEnv(t)
	e.table("create table pts (id int, grp int, v vector(3))", 200, func(i int) string {
		return fmt.Sprintf("%d|%d|[%d,%d,%d]", i, i%4, i%7, i%5, i%3)
	})
	e.table("create table qs (qid int, w vector(3))", 20, func(i int) string {
		return fmt.Sprintf("%d|[%d,1,2]", i, i)
	})
	h100, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	gpu := planner.Options{GPU: h100}
	queries := []struct {
		name, sql string
		opts      planner.Options
	}{
		{"pairs with a filter", "select a.id, b.id from pts a join pts b on vec_l2_distance(a.v, b.v) <= 1.5 and a.grp = 1", planner.Options{}},
		{"count(*)", "select count(*) from pts a, pts b where 2 > vec_l1_distance(b.v, a.v)", planner.Options{}},
		{"neighbour table", "select a.id, count(*) from pts a join pts b on vec_l2_distance(a.v, b.v) < 1 group by a.id", planner.Options{}},
		{"two tables, options", "select qid, id from qs join pts on vec_l2_distance(pts.v, qs.w) <= 0.5",
			planner.Options{Epsilon: planner.EpsilonOptions{NoReorder: true, NoShortC: true, K: 2}}},
		{"off", "select count(*) from pts a join pts b on vec_l2_distance(a.v, b.v) <= 1", planner.Options{Epsilon: planner.EpsilonOptions{Off: true}}},
		{"GPU: pairs with a filter", "select a.id, b.id from pts a join pts b on vec_l2_distance(a.v, b.v) <= 1.5 and a.grp = 1", gpu},
		{"GPU: count(*) counted on the device", "select count(*) from pts a, pts b where 2 > vec_l1_distance(b.v, a.v)", gpu},
		{"GPU: neighbour table counted on the device", "select a.id, count(*) from pts a join pts b on vec_l2_distance(a.v, b.v) < 1 group by a.id", gpu},
		{"GPU: a right key needs the pairs", "select b.grp, count(*) from pts a join pts b on vec_l2_distance(a.v, b.v) < 1 group by b.grp", gpu},
	}
	var out strings.Builder
	for _, q := range queries {
		ex := e.plan(q.sql, q.opts).Explain()
		if strings.Contains(ex, "EpsilonJoin") == q.opts.Epsilon.Off {
			t.Errorf("%s: EpsilonJoin planned = %v:\n%s", q.name, !q.opts.Epsilon.Off, ex)
		}
		out.WriteString("-- " + q.name + "\n" + q.sql + "\n\n" + ex + "\n\n")
	}
	path := filepath.Join(goldenDir, "epsilon_join.txt")
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./planner -update)", err)
	}
	if out.String() != string(want) {
		t.Errorf("ε-join plans changed:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestParseEpsilonOptions(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "k=auto,reorder,sortidu,shortc,batching",
		"ON":                         "k=auto,reorder,sortidu,shortc,batching",
		"off":                        "off",
		"noreorder, nosortidu,k=3":   "k=3,noreorder,nosortidu,shortc,batching",
		"noshortc,nobatching,k=auto": "k=auto,reorder,sortidu,noshortc,nobatching",
		"noreorder,reorder,k=2,k=0":  "k=auto,reorder,sortidu,shortc,batching",
	} {
		o, err := planner.ParseEpsilonOptions(in)
		if err != nil || o.String() != want {
			t.Errorf("%q: %v, %v; want %s", in, o, err, want)
		}
	}
	for _, bad := range []string{"k=7", "k=-1", "fast", "k=x"} {
		if _, err := planner.ParseEpsilonOptions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
