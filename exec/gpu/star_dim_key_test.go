//go:build cuda

package gpu

import (
	"testing"
	"weak"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A dimension's build key is remembered per plan while its table's
// columns stay the same vectors, and made anew when one is replaced (a
// write makes new columns) or grows (no device needed).
func TestDimBuildKeyRemembered(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	sq := ssbtest.Queries(t, cat)[3] // Q2.1: part, supplier, date
	p, err := planner.Plan(sq.Query, planner.Options{GPU: planner.DefaultGPUProfile()})
	if err != nil {
		t.Fatal(err)
	}
	q, _, err := starFromPlan(p.GPU.Star)
	if err != nil {
		t.Fatal(err)
	}
	r := &queryRun{d: &device{dims: newDimCache(nil)}}
	for i := range q.dims {
		want, _ := r.makeDimBuildKey(q, i)
		for run := 0; run < 2; run++ {
			if got, _ := r.dimBuildKey(q, i); got != want || want == "" {
				t.Fatalf("dimension %d run %d: key %q, want %q", i, run, got, want)
			}
		}
	}
	if len(r.d.dims.keys) != len(q.dims) {
		t.Fatalf("%d keys remembered, want one per dimension (%d)", len(r.d.dims.keys), len(q.dims))
	}
	// Replace a column of the first dimension's table by a copy: the
	// remembered key must not be reused.
	tab := q.dims[0].scan.Table
	old := tab.Columns[0]
	cp := *old
	cp.I32 = append([]int32(nil), old.I32...)
	cp.I64 = append([]int64(nil), old.I64...)
	tab.Columns[0] = &cp
	defer func() { tab.Columns[0] = old }()
	before := r.d.dims.keys[weakJoin(q, 0)]
	got, _ := r.dimBuildKey(q, 0)
	if want, _ := r.makeDimBuildKey(q, 0); got != want || got == before.key {
		t.Fatalf("after replacing a column: key %q, want the new %q (the old was %q)", got, want, before.key)
	}
}

func weakJoin(q *starQuery, i int) weak.Pointer[planner.HashJoin] { return weak.Make(q.dims[i].join) }
