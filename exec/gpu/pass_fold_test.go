package gpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// foldRow is one joined row of the test: group keys g (NULL when g < 0)
// and s, and the aggregates' arguments x (NULL when !xOK), y and t.
type foldRow struct {
	g   int32
	s   string
	x   int64
	xOK bool
	y   float64
	t   string
}

// foldAgg is SELECT g, s, count(*), sum(x), sum(y), min(t), max(x),
// count(x) GROUP BY g, s (or the aggregates alone).
func foldAgg(grouped bool) *planner.HashAggregate {
	agg := &planner.HashAggregate{Aggs: []sql.AggExpr{{Func: sql.AggCountStar}, {Func: sql.AggSum}, {Func: sql.AggSum},
		{Func: sql.AggMin}, {Func: sql.AggMax}, {Func: sql.AggCount}}}
	types := []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TFloat64, columnar.TString, columnar.TInt64, columnar.TInt64}
	if grouped {
		agg.GroupBy = []sql.Expr{&sql.ColRef{}, &sql.ColRef{}}
		types = append([]columnar.Type{columnar.TInt32, columnar.TString}, types...)
	}
	for _, t := range types {
		agg.Out = append(agg.Out, sql.Column{Type: t})
	}
	return agg
}

// aggregateRows is the aggregate over rows from first principles, as a
// result whose strings use a dictionary with pass's own extra values (so
// codes differ from pass to pass), one row per group.
func aggregateRows(rows []foldRow, grouped bool, pass int) *exec.Result {
	type acc struct {
		g        int32
		s        string
		n, cnt   int64
		sum      int64
		fsum     float64
		min      string
		max      int64
		any, tOK bool
	}
	var order []string
	groups := map[string]*acc{}
	for _, r := range rows {
		k := ""
		if grouped {
			k = fmt.Sprint(r.g, r.s)
		}
		a := groups[k]
		if a == nil {
			a = &acc{g: r.g, s: r.s}
			groups[k] = a
			order = append(order, k)
		}
		a.n++
		a.fsum += r.y
		if r.xOK {
			if !a.any || r.x > a.max {
				a.max = r.x
			}
			a.sum += r.x
			a.cnt++
			a.any = true
		}
		if !a.tOK || r.t < a.min {
			a.min, a.tOK = r.t, true
		}
	}
	if !grouped && len(order) == 0 {
		order, groups[""] = []string{""}, &acc{}
	}
	strs := []string{fmt.Sprintf("~pass%d", pass)}
	for _, k := range order {
		strs = append(strs, groups[k].s, groups[k].min)
	}
	dict := columnar.BuildDictionary(strs)
	agg := foldAgg(grouped)
	res := &exec.Result{Rows: len(order)}
	for _, c := range agg.Out {
		col := columnar.NewColumnIn(columnar.HeapAllocator, c.Type, len(order), true)
		if c.Type.ID == columnar.String {
			col.Dict = dict
		}
		res.Columns = append(res.Columns, col)
	}
	code := func(s string) int32 { c, _ := dict.Lookup(s); return c }
	for i, k := range order {
		a := groups[k]
		cells := []any{a.n, a.sum, a.fsum, a.min, a.max, a.cnt}
		valid := []bool{true, a.any, a.n > 0, a.tOK, a.any, true}
		if grouped {
			cells = append([]any{a.g, a.s}, cells...)
			valid = append([]bool{a.g >= 0, true}, valid...)
		}
		for c, v := range cells {
			col := res.Columns[c]
			if !valid[c] {
				col.SetNull(i)
				continue
			}
			col.SetValid(i)
			switch x := v.(type) {
			case int32:
				col.I32[i] = x
			case int64:
				col.I64[i] = x
			case float64:
				col.F64[i] = x
			case string:
				col.I32[i] = code(x)
			}
		}
	}
	return res
}

// rendered is res's rows as sorted strings (strings through their
// dictionaries, DOUBLEs rounded: sums in another order differ in the last
// bits).
func rendered(res *exec.Result) []string {
	var out []string
	for r := 0; r < res.Rows; r++ {
		s := ""
		for _, c := range res.Columns {
			v := cellAt(c, r)
			v.f = math.Round(v.f*1e6) / 1e6
			s += fmt.Sprintf("%v|", v)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Folding the aggregates of each pass gives the aggregate of all the
// passes' rows, grouped or not, with NULL groups, NULL arguments, strings
// coded differently in each pass, and passes without rows.
func TestPassFoldEqualsWholeAggregate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, grouped := range []bool{false, true} {
		for trial := 0; trial < 20; trial++ {
			var all []foldRow
			f := newPassFold(foldAgg(grouped))
			for pass := 0; pass < 1+trial%5; pass++ {
				var rows []foldRow
				for range rng.IntN(40) * (trial % 3) {
					r := foldRow{g: int32(rng.IntN(4)) - 1, s: []string{"a", "b"}[rng.IntN(2)], x: rng.Int64N(1000) - 500,
						xOK: rng.IntN(5) > 0, y: rng.Float64(), t: fmt.Sprintf("t%02d", rng.IntN(50))}
					rows = append(rows, r)
				}
				all = append(all, rows...)
				if err := f.add(aggregateRows(rows, grouped, pass)); err != nil {
					t.Fatal(err)
				}
			}
			cols, n := f.columns()
			got := rendered(&exec.Result{Columns: cols, Rows: n})
			want := rendered(aggregateRows(all, grouped, 99))
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("grouped %v trial %d:\n got %v\nwant %v", grouped, trial, got, want)
			}
		}
	}
}

// A folded integer sum that leaves BIGINT is the GPU's overflow error.
func TestPassFoldOverflow(t *testing.T) {
	f := newPassFold(foldAgg(false))
	for range 2 {
		res := aggregateRows([]foldRow{{x: math.MaxInt64 - 10, xOK: true}}, false, 0)
		if err := f.add(res); err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("overflow: %v", err)
			}
			return
		}
	}
	t.Fatal("no overflow error")
}
