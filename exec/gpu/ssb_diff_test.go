//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Differential tests on the real query path: SSB data from ssbgen, loaded
// by the loaders, bound by sql.Bind and planned by planner.Plan under each
// hash strategy; the GPU's result must equal exec/cpu's on the same plan.

// gpuOptions are the planner strategies the GPU runs.
var gpuOptions = []planner.Options{{}, {Join: "hash", GroupBy: "hash"}, {Join: "hash", GroupBy: "dense"}, {Join: "merge"}}

// The star pipeline must recognize every SSB plan the planner makes (no
// device needed).
func TestMatchSSBPlans(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	for _, q := range ssbtest.Queries(t, cat) {
		for _, o := range gpuOptions {
			if o.Join == "merge" {
				continue // sort-merge joins run on the materializing executor
			}
			p, err := planner.Plan(q.Query, o)
			if err != nil {
				t.Fatal(err)
			}
			g := planner.PlanGPU(p, nil)
			if g.Star == nil {
				t.Errorf("%s %+v: not a star: %s\n%s", q.Name, o, g.NotStar, p.Explain())
				continue
			}
			if _, _, err := starFromPlan(g.Star); err != nil {
				t.Errorf("%s %+v: %v\n%s", q.Name, o, err, p.Explain())
			}
		}
	}
}

func TestSSBDifferential(t *testing.T) {
	needGPU(t)
	for _, alloc := range []columnar.Allocator{columnar.HeapAllocator, PinnedAllocator()} {
		cat := ssbtest.Catalog(t, 0.05, alloc)
		for _, q := range ssbtest.Queries(t, cat) {
			for _, o := range gpuOptions {
				p, err := planner.Plan(q.Query, o)
				if err != nil {
					t.Fatal(err)
				}
				want, err := cpu.Run(context.Background(), p)
				if err != nil {
					t.Fatalf("%s cpu: %v", q.Name, err)
				}
				eachTuningQuiet(func(tu tuning) {
					got, err := Run(context.Background(), p)
					if err != nil {
						t.Errorf("%s %+v %s: %v\n%s", q.Name, o, tu, err, p.Explain())
						return
					}
					if d := diffResults(got, want); d != "" {
						t.Errorf("%s %+v %s: %s\n%s", q.Name, o, tu, d, p.Explain())
					}
				})
			}
		}
	}
}

func eachTuningQuiet(fn func(tuning)) {
	saved := starTuning
	defer func() { starTuning = saved }()
	for _, tu := range tunings {
		starTuning = tu
		fn(tu)
	}
}

// diffResults compares two results row by row in order ("" when equal):
// strings by value, numbers exactly, doubles to 1e-9 relative.
func diffResults(got, want *exec.Result) string {
	if got.Rows != want.Rows || len(got.Columns) != len(want.Columns) {
		return fmt.Sprintf("shape %dx%d, want %dx%d\n got %v\nwant %v", got.Rows, len(got.Columns), want.Rows, len(want.Columns),
			renderRows(got, 5), renderRows(want, 5))
	}
	for r := 0; r < got.Rows; r++ {
		for c := range got.Columns {
			a, b := cellString(got.Columns[c], r), cellString(want.Columns[c], r)
			if a == b {
				continue
			}
			if x, err1 := strconv.ParseFloat(a, 64); err1 == nil {
				if y, err2 := strconv.ParseFloat(b, 64); err2 == nil && math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y)) {
					continue
				}
			}
			return fmt.Sprintf("row %d col %d = %s, want %s\n got %v\nwant %v", r, c, a, b, renderRows(got, 5), renderRows(want, 5))
		}
	}
	return ""
}

func cellString(c *columnar.Column, r int) string {
	switch {
	case c.IsNull(r):
		return "NULL"
	case c.Type.ID == columnar.String && c.Dict != nil:
		return c.StringAt(r)
	case c.F64 != nil:
		return strconv.FormatFloat(c.F64[r], 'g', -1, 64)
	case c.Type.ID == columnar.Decimal:
		return fmt.Sprintf("%de-%d", c.Int64At(r), c.Type.Scale)
	}
	return strconv.FormatInt(c.Int64At(r), 10)
}

func renderRows(res *exec.Result, n int) []string {
	var out []string
	for r := 0; r < min(n, res.Rows); r++ {
		var cells []string
		for _, c := range res.Columns {
			cells = append(cells, cellString(c, r))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}
