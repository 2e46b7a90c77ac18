//go:build cuda

package gpu

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// The plan lays the group slots out by the sort where its keys allow it:
// ascending group keys reading a dimension's columns in their order; a
// DESC key, an aggregate key or a dimension's second column first leave
// the sort to the host (no device needed).
func TestSlotOrderPlanned(t *testing.T) {
	f, d := edgeDB(100, 10, 0, 1, false, 3)
	plans := edgePlans(f, d)
	for name, want := range map[string][]int{
		"slot-order-fact-first": {1, 0},
		"slot-order-dim-first":  {0, 1},
		"slot-order-top-n":      {0, 1},
		"slot-order-desc":       {1, 0},
		"sorted":                nil,
	} {
		g := planner.PlanGPU(plans[name], planner.DefaultGPUProfile())
		if g.Star == nil || g.Star.Sort == nil {
			t.Fatalf("%s: no star sort planned (%s)", name, g.NotStar)
		}
		if !slices.Equal(g.Star.Sort.Slots, want) {
			t.Errorf("%s: slots %v, want %v", name, g.Star.Sort.Slots, want)
		}
		if g.Star.Sort.Reversed != (name == "slot-order-desc") {
			t.Errorf("%s: reversed %v", name, g.Star.Sort.Reversed)
		}
	}
	for _, keys := range [][]string{{"da", "ds"}, {"ds", "-da"}} {
		j := joinOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
		p := &planner.Physical{Root: sortOf(aggOf(j, []string{"ds", "da"}, countStar()), keys...)}
		if g := planner.PlanGPU(p, planner.DefaultGPUProfile()); g.Star == nil || g.Star.Sort == nil || g.Star.Sort.Slots != nil {
			t.Errorf("sort by %v laid out by slots", keys)
		}
	}
}

// reverseRows reverses every column's values and NULLs (no device
// needed): sizes around the validity words' 64 rows.
func TestReverseRows(t *testing.T) {
	for _, n := range []int{0, 1, 2, 63, 64, 65, 130} {
		res := &exec.Result{Rows: n}
		types := []columnar.Type{columnar.TInt32, columnar.TInt64, columnar.TFloat64}
		for ci, typ := range types {
			c := columnar.NewColumnIn(columnar.HeapAllocator, typ, n, ci != 1)
			for i := range n {
				setInt(c, i, int64(i*(ci+1)))
				if c.Valid != nil && (i*7+ci)%3 != 0 {
					c.SetValid(i)
				}
			}
			res.Columns = append(res.Columns, c)
		}
		want := resultStrings(res)
		slices.Reverse(want)
		reverseRows(res)
		if got := resultStrings(res); !slices.Equal(got, want) {
			t.Fatalf("%d rows: reversed %v, want %v", n, head(got), head(want))
		}
	}
}

// Decoded in the plan's slot order, every slot of SSB's grouped queries
// whose sort the slots give comes out sorted by that sort's keys, each
// group once (no device needed).
func TestSlotOrderDecodesSorted(t *testing.T) {
	surviving := map[string]int64{"part": 40, "date": 7, "customer": 10, "supplier": 10}
	laidOut := 0
	eachSSBStar(t, func(name string, q *starQuery, outs []starOutput) {
		if q.sort == nil || q.sort.Slots == nil {
			return
		}
		laidOut++
		dims, ngroups := benchDims(q, surviving)
		W := int64(1 + len(q.aggs))
		dense := groupRows{words: make([]uint64, ngroups*W), W: W}
		for g := range ngroups {
			dense.words[g*W] = 1
		}
		res, err := decodeStar(q, outs, dims, nil, dense, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slotsSorted(q, dims, nil) {
			t.Fatalf("%s: slots laid out by the sort, keys without NULLs, but not sorted", name)
		}
		keys := make([]*columnar.Column, len(q.sort.Cols))
		for i, c := range q.sort.Cols {
			keys[i] = res.Columns[c]
		}
		seen := map[string]bool{}
		for r := 0; r < res.Rows; r++ {
			var tuple []string
			for _, c := range res.Columns[:len(q.keys)] {
				tuple = append(tuple, strconv.FormatInt(c.Int64At(r), 10))
			}
			if k := strings.Join(tuple, "|"); seen[k] {
				t.Fatalf("%s: group %v twice", name, tuple)
			} else {
				seen[k] = true
			}
			if r == 0 {
				continue
			}
			for _, c := range keys {
				if d := compareRows(c, r-1, r); d < 0 {
					break
				} else if d > 0 {
					t.Fatalf("%s: rows %d and %d out of the sort's order", name, r-1, r)
				}
			}
		}
		if int64(res.Rows) != ngroups {
			t.Fatalf("%s: %d rows from %d slots", name, res.Rows, ngroups)
		}
	})
	if laidOut < 5 {
		t.Errorf("%d SSB queries laid out by their sort, want Q2.x and Q4.x", laidOut)
	}
}

// eachSSBStar calls f with the executor's form of each SSB query's star,
// planned for the default GPU profile over SF 0.01 (no device needed).
func eachSSBStar(t *testing.T, f func(name string, q *starQuery, outs []starOutput)) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	for _, sq := range ssbtest.Queries(t, cat) {
		p, err := planner.Plan(sq.Query, planner.Options{GPU: planner.DefaultGPUProfile()})
		if err != nil {
			t.Fatal(err)
		}
		q, outs, err := starFromPlan(p.GPU.Star)
		if err != nil {
			t.Fatal(err)
		}
		f(sq.Name, q, outs)
	}
}
