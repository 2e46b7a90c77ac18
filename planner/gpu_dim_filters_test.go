package planner_test

import (
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A dimension is tested as a fact filter when it adds no group column
// and is no less selective than every dimension that stays a probe: SSB
// Q1.1's date (the only dimension) goes first among the fact filters,
// being more selective than lo_discount and lo_quantity; Q2.1's supplier
// stays a probe behind the more selective part; Q3.1's dimensions all add
// group columns; Q4.1's supplier (1/5, no group column) becomes a filter,
// its part (2/5) stays a probe behind customer (1/5, c_nation).
func TestDimFilterChoice(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.1, columnar.HeapAllocator)
	qs := ssbtest.Queries(t, cat)
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		i       int
		filters map[string]bool // dimension table → tested as a filter
	}{
		{0, map[string]bool{"date": true}},
		{3, map[string]bool{"part": false, "supplier": false, "date": false}},
		{6, map[string]bool{"customer": false, "supplier": false, "date": false}},
		{10, map[string]bool{"supplier": true, "customer": false, "part": false, "date": false}},
	} {
		q := qs[c.i]
		p, err := planner.Plan(q.Query, planner.Options{GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		s := p.GPU.Star
		for _, d := range s.Dims {
			name := d.Scan.Table.Name
			if d.AsFilter != c.filters[name] {
				t.Errorf("%s: %s as a filter %v, want %v", q.Name, name, d.AsFilter, c.filters[name])
			}
			if d.AsFilter && !(d.Build.Bitmap && d.Build.BitsOnly) {
				t.Errorf("%s: %s is a filter without a bits-only bitmap: %+v", q.Name, name, d.Build)
			}
		}
		// Fact filters in selectivity order, each dimension filter on its
		// probe column.
		dimFilters := 0
		for i, f := range s.FactFilters {
			if i > 0 && f.Sel < s.FactFilters[i-1].Sel {
				t.Errorf("%s: fact filter %d (sel %g) after one of sel %g", q.Name, i, f.Sel, s.FactFilters[i-1].Sel)
			}
			if f.Dim != nil {
				dimFilters++
				if !f.Dim.AsFilter || f.Col != f.Dim.Probe.Col {
					t.Errorf("%s: fact filter %d names dimension %s wrongly", q.Name, i, f.Dim.Scan.Table.Name)
				}
			}
		}
		want := 0
		for _, on := range c.filters {
			if on {
				want++
			}
		}
		if dimFilters != want {
			t.Errorf("%s: %d dimension filters among the fact filters, want %d", q.Name, dimFilters, want)
		}
	}
	q11, err := planner.Plan(qs[0].Query, planner.Options{GPU: prof})
	if err != nil {
		t.Fatal(err)
	}
	if f := q11.GPU.Star.FactFilters[0]; f.Dim == nil || f.Dim.Scan.Table.Name != "date" {
		t.Errorf("Q1.1: first fact filter is not the date: %+v", f)
	}
	if r := q11.GPU.Star.FactReads[0]; q11.GPU.Star.Fact.Table.Fields[r.Col].Name != "lo_orderdate" || r.Alive != 1 {
		t.Errorf("Q1.1: first fact read %+v, want lo_orderdate for every row", r)
	}
}
