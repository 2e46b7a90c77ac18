//go:build cuda

package gpu

import (
	"context"
	"math/rand/v2"
	"testing"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A star result sorted in place by the decoder (presort) and passed
// through the tail with that sort marked done equals the tail's own sort
// of it: keys behind a projection that reorders columns, NULLs, ties
// (stable), DESC, TopN's offset and count, float keys (left to the tail),
// results of 0 to 800 rows, reused scratch buffers (no device needed).
func TestStarPresortMatchesTail(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	var scratch hostScratch
	gen := func(n int) *exec.Result {
		res := &exec.Result{Rows: n}
		types := []columnar.Type{{ID: columnar.Int32}, {ID: columnar.Int64}, {ID: columnar.Float64}, {ID: columnar.Int64}}
		for ci, typ := range types {
			c := columnar.NewColumnIn(columnar.HeapAllocator, typ, n, ci != 3)
			for i := range n {
				v := r.Int64N(int64(3 + 5*ci)) // small ranges: many ties
				if c.F64 != nil {
					c.F64[i] = float64(v) / 4
				} else {
					setInt(c, i, v-2)
				}
				if c.Valid != nil && r.IntN(6) != 0 {
					c.SetValid(i)
				}
			}
			res.Columns = append(res.Columns, c)
			res.Names = append(res.Names, string(rune('a'+ci)))
		}
		return res
	}
	// The projection above the body shows columns 3, 0, 1, 2 as 0..3.
	proj := &planner.Projection{}
	for _, c := range []int{3, 0, 1, 2} {
		proj.Exprs = append(proj.Exprs, &sql.ColRef{Index: c})
		proj.Out = append(proj.Out, sql.Column{Name: string(rune('a' + c))})
	}
	key := func(c int, desc bool) sql.SortKey { return sql.SortKey{Expr: &sql.ColRef{Index: c}, Desc: desc} }
	sorts := []planner.Node{
		&planner.Sort{Keys: []sql.SortKey{key(1, false)}},
		&planner.Sort{Keys: []sql.SortKey{key(2, true), key(0, false)}},
		&planner.Sort{Keys: []sql.SortKey{key(0, true), key(1, true), key(2, false)}},
		&planner.TopN{Keys: []sql.SortKey{key(1, false), key(0, true)}, Offset: 3, Count: 5},
		&planner.Sort{Keys: []sql.SortKey{key(3, false)}}, // a DOUBLE: the tail sorts
	}
	for si, s := range sorts {
		g := &planner.GPUPlan{Tail: []planner.Node{s, proj}, TailOn: planner.TailHost}
		ps := planner.TailSortOnStar(g.Tail)
		if ps == nil || ps.Node != s {
			t.Fatalf("sort %d: presortOf found %v", si, ps)
		}
		for _, n := range []int{0, 1, 2, 63, 64, 65, 800} {
			res := gen(n)
			want, err := runTail(context.Background(), g, cloneResult(res), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var done planner.Node
			if presort(res, ps, &scratch) {
				done = ps.Node
			}
			if wantSorted := si != 4 && n >= 2; (done != nil) != wantSorted {
				t.Errorf("sort %d, %d rows: presorted %v, want %v", si, n, done != nil, wantSorted)
			}
			got, err := runTail(context.Background(), g, res, nil, done)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffResults(got, want); d != "" {
				t.Errorf("sort %d, %d rows: %s", si, n, d)
			}
		}
	}
	// A tail that computes before it sorts is not presorted.
	g := &planner.GPUPlan{Tail: []planner.Node{sorts[0], &planner.Limit{Count: 3}}, TailOn: planner.TailHost}
	if ps := planner.TailSortOnStar(g.Tail); ps != nil {
		t.Errorf("a sort above a LIMIT was presorted")
	}
}

func cloneResult(in *exec.Result) *exec.Result {
	idx := make([]int, in.Rows)
	for i := range idx {
		idx[i] = i
	}
	out := gather(in, idx)
	out.Rows = in.Rows
	return out
}
