//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// skeletonDiffTable is t(k INT, v INT NULL, w BIGINT NULL) of n rows: k
// spread over [0, n) with every tenth row 5 (duplicates, skew), v NULL
// every fifth row (its slot holding a value that would overflow), w NULL
// every third.
func skeletonDiffTable(n int) *columnar.Table {
	k := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, false)
	v := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, true)
	w := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, n, true)
	for i := range n {
		k.I32[i] = int32(i * 7919 % n)
		if i%10 == 0 {
			k.I32[i] = 5
		}
		v.I32[i] = int32(i%2001) - 1000
		if i%5 == 2 {
			v.I32[i] = 1 << 30
		} else {
			v.SetValid(i)
		}
		w.I64[i] = int64(i)*1_000_003 - 7_000_000_000
		if i%3 != 1 {
			w.SetValid(i)
		}
	}
	t := &columnar.Table{Name: "t", Rows: n, Columns: []*columnar.Column{k, v, w}, Fields: []columnar.Field{
		{Name: "k", Type: columnar.TInt32}, {Name: "v", Type: columnar.TInt32, Nullable: true},
		{Name: "w", Type: columnar.TInt64, Nullable: true}}}
	columnar.ComputeStats(t)
	return t
}

// TestSkeletonDifferential runs bench skeletons' select and project shapes
// on both executors: projections through the tile VM (several outputs a
// launch, more outputs than one launch takes, NULLs, CASE/COALESCE,
// flags), selections at 0, 1, 50 and 100 % with plain and computed output
// columns, and a VM predicate; table sizes around the VM's 1024- and
// 2048-row tiles and the select kernels' 2048-row tile, empty included.
func TestSkeletonDifferential(t *testing.T) {
	needGPU(t)
	for _, n := range []int{0, 1, 1023, 1025, 2049, 4097, 70_001} {
		cat := catalog.New()
		cat.Put(skeletonDiffTable(n))
		queries := []string{
			"select k + v * 3, k - v from t",
			"select k, v from t where k < 0",
			fmt.Sprintf("select k, v from t where k < %d", n/100),
			fmt.Sprintf("select k, v, w from t where k < %d", n/2),
			"select k, v from t where k >= 0",
			"select k * 2, v + w, k, w - k from t where k % 7 = 3",
			fmt.Sprintf("select k + v, w * 2 from t where k < %d", n/2),
			"select k+1, k+2, k+3, k+4, k+5, k+6, k+7, k+8, v*w, k-v from t where v < 100",
			"select case when v is null then w else k * v end, coalesce(v, k), k > v and w < 0, v is null from t",
			"select k from t where k + v > 10 or w is null",
		}
		for _, text := range queries {
			ps, err := sql.Parse(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			p, err := planner.Plan(st.(*sql.Query), planner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("n=%d %s cpu: %v", n, text, err)
			}
			got, err := Run(context.Background(), p)
			if err != nil {
				if errors.Is(err, ErrUnsupported) && !errors.Is(err, errOverflow) {
					t.Logf("n=%d %s: %v", n, text, err)
				} else {
					t.Errorf("n=%d %s: %v\n%s", n, text, err, p.Explain())
				}
				continue
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("n=%d %s: %s\n%s", n, text, d, p.Explain())
			}
		}
	}
}
