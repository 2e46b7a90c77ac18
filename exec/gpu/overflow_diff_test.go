//go:build cuda

package gpu

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// overflowTable makes table o of n rows: BIGINT a and b from fa and fb (NULL
// every nullEvery-th row when nullEvery > 0), INT g = i % 13 for grouping.
func overflowTable(n, nullEvery int, fa, fb func(i int) int64) *columnar.Table {
	t := &columnar.Table{Name: "o", Rows: n, Fields: []columnar.Field{
		{Name: "a", Type: columnar.TInt64, Nullable: true},
		{Name: "b", Type: columnar.TInt64, Nullable: true},
		{Name: "g", Type: columnar.TInt32}}}
	a := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, n, true)
	b := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, n, true)
	g := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, false)
	for i := 0; i < n; i++ {
		g.I32[i] = int32(i % 13)
		if nullEvery > 0 && i%nullEvery == 3 {
			// A NULL row's slot holds a value that would overflow: it
			// must not count.
			a.I64[i], b.I64[i] = math.MaxInt64, math.MaxInt64
			continue
		}
		a.I64[i], b.I64[i] = fa(i), fb(i)
		a.SetValid(i)
		b.SetValid(i)
	}
	t.Columns = []*columnar.Column{a, b, g}
	columnar.ComputeStats(t)
	return t
}

var overflowQueries = []string{
	"select a + b, a - b, -a from o",
	"select a * b from o where g < 5",
	"select a div b from o where b <> 0",
	"select sum(a), count(*) from o",
	"select g, sum(a), sum(b) from o group by g",
	"select g, sum(a * b) from o group by g",
	"select sum(a + b) from o",
	"select g, avg(a) from o group by g",
	"select abs(a), abs(b), abs(g - 6) from o",
	"select abs(a) + 1 from o where g > 3",
}

// TestOverflowDifferential runs each query on both executors over data
// that stays in range (results must match), data where one row's result
// leaves int64 (both must fail; the GPU with an error that sends
// --executor auto to the CPU), and data where only SUM's running total
// leaves int64 (the GPU may refuse, never answer differently). Row counts
// are not multiples of the block size, so tail tiles take part; NULL rows
// hold overflowing values in their slots.
func TestOverflowDifferential(t *testing.T) {
	needGPU(t)
	const n = 100_003
	small := func(i int) int64 { return int64(i%1000) * 1_000_003 }
	cases := []struct {
		name string
		tab  *columnar.Table
	}{
		{"in-range", overflowTable(n, 7, small, func(i int) int64 { return int64(i%97) - 48 })},
		{"last-row", overflowTable(n, 7, func(i int) int64 {
			if i == n-1 {
				return math.MaxInt64 - 1
			}
			return small(i)
		}, func(i int) int64 {
			if i == n-1 {
				return 2
			}
			return 1
		})},
		{"min-int", overflowTable(n, 7, func(i int) int64 {
			if i == n-1 {
				return math.MinInt64 // abs(a) and -a leave BIGINT
			}
			return -small(i)
		}, func(i int) int64 { return int64(i%5) - 2 })},
		{"big-sum", overflowTable(n, 0, func(i int) int64 { return 1 << 60 }, func(i int) int64 { return 1 })},
		{"wrap-back", overflowTable(n, 0, func(i int) int64 {
			if i%2 == 0 {
				return 1 << 62
			}
			return -(1 << 62)
		}, func(i int) int64 { return 1 })},
	}
	for _, c := range cases {
		cat := catalog.New()
		cat.Put(c.tab)
		for _, text := range overflowQueries {
			ps, err := sql.Parse(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			for _, o := range []planner.Options{{}, {GroupBy: "hash"}} {
				p, err := planner.Plan(st.(*sql.Query), o)
				if err != nil {
					t.Fatal(err)
				}
				want, werr := cpu.Run(context.Background(), p)
				got, gerr := Run(context.Background(), p)
				switch {
				case werr != nil && !strings.Contains(werr.Error(), "out of range"):
					t.Fatalf("%s %s cpu: %v", c.name, text, werr)
				case werr != nil && gerr == nil:
					t.Errorf("%s %s: the CPU raises %q, the GPU returned a result", c.name, text, werr)
				case werr != nil && !errors.Is(gerr, ErrUnsupported):
					t.Errorf("%s %s: GPU error %v does not send the query to the CPU", c.name, text, gerr)
				case werr != nil:
				case gerr != nil && errors.Is(gerr, errOverflow):
					// Only a running total or an untaken CASE arm wrapped.
					if c.name == "in-range" || c.name == "last-row" && !strings.Contains(text, "sum") {
						t.Errorf("%s %s: spurious overflow on the GPU", c.name, text)
					}
				case gerr != nil && errors.Is(gerr, ErrUnsupported):
					t.Logf("%s %s: %v", c.name, text, gerr)
				case gerr != nil:
					t.Errorf("%s %s %+v: %v", c.name, text, o, gerr)
				default:
					if d := diffResults(sorted(got), sorted(want)); d != "" {
						t.Errorf("%s %s %+v: %s\n%s", c.name, text, o, d, p.Explain())
					}
				}
			}
		}
	}
}

// A DOUBLE operator whose result passes the largest double fails the GPU
// query with errOverflow (exec/cpu then raises MySQL's error 1690), on the
// last row of a table that is no multiple of the block; in range, the GPU
// answers as the CPU does.
func TestDoubleOverflowOnGPU(t *testing.T) {
	needGPU(t)
	const n = 70_001
	x := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TFloat64, n, false)
	for i := range n {
		x.F64[i] = float64(i%1000) * 1e300
	}
	x.F64[n-1] = 1.5e308
	tab := &columnar.Table{Name: "d", Rows: n, Fields: []columnar.Field{{Name: "x", Type: columnar.TFloat64}}, Columns: []*columnar.Column{x}}
	columnar.ComputeStats(tab)
	cat := catalog.New()
	cat.Put(tab)
	for _, c := range []struct {
		text     string
		overflow bool
	}{{"select x * 10 from d", true}, {"select x + x from d", true}, {"select x / 0.5 from d", true},
		{"select x * 0.5, x - x, x / 3 from d", false}, {"select x * 10 from d where x < 1e307", false}} {
		ps, err := sql.Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.Plan(st.(*sql.Query), planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, gerr := Run(context.Background(), p)
		if c.overflow {
			if !errors.Is(gerr, errOverflow) {
				t.Errorf("%s: GPU returned %v, want errOverflow", c.text, gerr)
			}
			continue
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil || gerr != nil {
			t.Fatalf("%s: cpu %v, gpu %v", c.text, err, gerr)
		}
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Errorf("%s: %s", c.text, d)
		}
	}
}
