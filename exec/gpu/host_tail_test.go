//go:build cuda

package gpu

import (
	"math/rand/v2"
	"testing"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The host tail's sort orders rows as compareRows says (NULLs lowest,
// then the direction), keeps ties in input order, and applies the limit:
// checked against a brute-force order of the same rows. Needs no GPU.
func TestHostSortResult(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 997
	a := columnar.NewColumn(columnar.TInt64, n, true)
	b := columnar.NewColumn(columnar.TFloat64, n, false)
	id := columnar.NewColumn(columnar.TInt32, n, false)
	for i := range n {
		a.I64[i] = int64(r.IntN(7)) - 3
		if r.IntN(9) != 0 {
			a.SetValid(i)
		}
		b.F64[i] = float64(r.IntN(5)) / 2
		id.I32[i] = int32(i)
	}
	in := &exec.Result{Rows: n, Columns: []*columnar.Column{a, b, id}}
	keys := []sql.SortKey{{Expr: &sql.ColRef{Index: 0}, Desc: true}, {Expr: &sql.ColRef{Index: 1}}}
	out, err := sortResult(&planner.Sort{}, in, keys, 5, 900)
	if err != nil {
		t.Fatal(err)
	}
	if out.Rows != 900 {
		t.Fatalf("%d rows, want 900", out.Rows)
	}
	less := func(x, y int) bool { // brute force: is row x before row y?
		if c := compareRows(a, x, y); c != 0 {
			return c > 0
		}
		if c := compareRows(b, x, y); c != 0 {
			return c < 0
		}
		return x < y
	}
	rank := map[int32]int{}
	for i := range n {
		before := 0
		for j := range n {
			if less(j, i) {
				before++
			}
		}
		rank[int32(i)] = before
	}
	for k := range out.Rows {
		if got := rank[out.Columns[2].I32[k]]; got != k+5 {
			t.Fatalf("output row %d is input row %d, whose rank is %d", k, out.Columns[2].I32[k], got)
		}
	}
}
