//go:build cuda

package gpu

import (
	"context"
	"errors"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
)

// Row comparisons reach the executors lowered to scalar comparisons joined
// by AND and OR (sql/row_compare.go), so the GPU runs them with the
// expression VM and the filter kernels it already has. This test checks it
// does, and with the CPU's answers, over NULLs (every 7th row, whose slots
// hold values that would match), duplicates and sizes that are no multiple
// of the block size, and an empty table.
var rowCompareQueries = []struct {
	text string
	// filter marks a WHERE-only query the GPU must run (not refuse): the
	// lowering exists so that such plans keep their GPU path.
	filter bool
}{
	{"select count(*), sum(a) from o where (a, b) = (1, 2)", true},
	{"select count(*), sum(b) from o where (a, b) < (0, 1)", true},
	{"select count(*) from o where (g, a, b) >= (6, 2, -1)", true},
	{"select count(*), sum(g) from o where (a, b) in ((1, 2), (-3, 0), (4, null))", true},
	{"select count(*) from o where (a, b) not in ((1, 2), (0, 0))", true},
	{"select count(*) from o where (a, b) <> (g - 6, 1)", true},
	{"select g, count(*) from o where (a, g) > (0, 3) group by g", false},
	{"select a, b, g from o where (a, b) <= (-4, -2)", false},
	{"select (a, b) = (g - 6, b), (a, b) <=> (b, a), (a, g) >= (1, 6), (a, b) in ((1, 2), (2, 1)) from o where g < 4", false},
}

func TestRowCompareDifferential(t *testing.T) {
	needGPU(t)
	for _, n := range []int{70_001, 0} {
		cat := catalog.New()
		cat.Put(overflowTable(n, 7, func(i int) int64 { return int64(i%11) - 5 }, func(i int) int64 { return int64(i%7) - 3 }))
		for _, q := range rowCompareQueries {
			ps, err := sql.Parse(q.text)
			if err != nil {
				t.Fatalf("%s: %v", q.text, err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatalf("%s: %v", q.text, err)
			}
			p, err := planner.Plan(st.(*sql.Query), planner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s cpu: %v", q.text, err)
			}
			got, err := Run(context.Background(), p)
			switch {
			case err != nil && errors.Is(err, ErrUnsupported) && !q.filter:
				t.Logf("%d rows, %s: %v", n, q.text, err)
			case err != nil:
				t.Errorf("%d rows, %s: %v\n%s", n, q.text, err, p.Explain())
			default:
				if d := diffResults(sorted(got), sorted(want)); d != "" {
					t.Errorf("%d rows, %s: %s\n%s", n, q.text, d, p.Explain())
				}
			}
		}
	}
}
