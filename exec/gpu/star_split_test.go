//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Stars split over several devices (star_split.go) give the answers of a
// whole run: checked against first principles (the oracle) and the CPU
// executor, on 2 devices and on every device of the set (3 or more runs
// parts that are empty: ranges start at multiples of 4096 rows). Run on
// one GPU with GPUSQL_LOGICAL_GPUS=3, on a multi-GPU machine as it is.

func needDevices(t *testing.T, n int) {
	t.Helper()
	needGPU(t)
	if c := DeviceCount(); c < n {
		t.Skipf("needs %d GPUs, %d visible (GPUSQL_LOGICAL_GPUS=%d runs logical devices on one GPU)", n, c, n)
	}
}

// splitProfile is the device's profile forced to split over devices 0..n-1.
func splitProfile(t *testing.T, n int) *planner.GPUProfile {
	t.Helper()
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof.Devices, prof.ForceSplit = nil, true
	for i := range n {
		prof.Devices = append(prof.Devices, i)
	}
	return prof
}

func deviceCounts() []int {
	out := []int{2}
	if n := DeviceCount(); n > 2 {
		out = append(out, n)
	}
	return out
}

func TestSplitStarEdgeCases(t *testing.T) {
	needDevices(t, 2)
	cases := []struct {
		name    string
		n, ndim int
		nulls   float64
		scale   int64
	}{
		{"empty", 0, 10, 0, 1},
		{"one-row", 1, 3, 0, 1},
		{"odd-sizes", 5000, 7, 0, 1},
		{"nulls", 20000, 40, 0.2, 1},
		{"sparse-keys-hash-table", 20000, 3000, 0.05, 1_000_003},
		{"larger", 300001, 1000, 0.01, 1},
	}
	for _, c := range cases {
		f, d := edgeDB(c.n, c.ndim, c.nulls, c.scale, false, uint64(c.n)+7)
		columnar.ComputeStats(f)
		columnar.ComputeStats(d)
		for name, p := range edgePlans(f, d) {
			for _, n := range deviceCounts() {
				g := planner.PlanGPU(p, splitProfile(t, n))
				if g.Star == nil {
					continue // only stars split
				}
				if g.Split == nil {
					if c.n == 0 {
						continue // no statistics range to lay a group column out by
					}
					t.Fatalf("%s/%s: forced split refused:\n%s", c.name, name, explainWith(p, g))
				}
				t.Run(fmt.Sprintf("%s/%s/%dgpus", c.name, name, n), func(t *testing.T) {
					before := splitRuns.Load()
					p.GPU = g
					defer func() { p.GPU = nil }()
					checkPlan(t, name, p)
					if splitRuns.Load() != before+1 {
						t.Errorf("ran the fallback, not split:\n%s", explainWith(p, g))
					}
				})
			}
		}
	}
}

func explainWith(p *planner.Physical, g *planner.GPUPlan) string {
	cp := *p
	cp.GPU = g
	return cp.Explain()
}

// Duplicate dimension keys refuse the star on every device: the plan's
// fallback runs whole on one device, with the right answer.
func TestSplitFallsBack(t *testing.T) {
	needDevices(t, 2)
	f, d := edgeDB(3000, 20, 0, 1, true, 5)
	columnar.ComputeStats(f)
	columnar.ComputeStats(d)
	j := joinOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
	p := &planner.Physical{Root: aggOf(j, []string{"ds"}, countStar())}
	p.GPU = planner.PlanGPU(p, splitProfile(t, 2))
	if p.GPU.Split == nil {
		t.Fatalf("not split:\n%s", p.Explain())
	}
	before := splitRuns.Load()
	checkPlan(t, "dup", p)
	if splitRuns.Load() != before {
		t.Errorf("a star with duplicate dimension keys ran split")
	}
}

// The 13 SSB queries split over the devices, every column placement
// (resident, streamed in chunks, zero-copy), equal the CPU executor.
func TestSplitSSBDifferential(t *testing.T) {
	needDevices(t, 2)
	cat := ssbtest.Catalog(t, 0.05, PinnedAllocator())
	for _, q := range ssbtest.Queries(t, cat) {
		p, err := planner.Plan(q.Query, planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s cpu: %v", q.Name, err)
		}
		for _, n := range deviceCounts() {
			for _, place := range []planner.ColumnPlace{planner.PlaceResident, planner.PlaceStreamed, planner.PlaceZeroCopy} {
				prof := splitProfile(t, n)
				g := planner.PlanGPU(p, prof)
				if place != planner.PlaceResident {
					prof.MemoryBudget, prof.ForcePlace = chunkBudget(g, 4096), place
					g = planner.PlanGPU(p, prof)
				}
				if g.Split == nil {
					t.Fatalf("%s: not split:\n%s", q.Name, explainWith(p, g))
				}
				p.GPU = g
				before := splitRuns.Load()
				got, err := Run(context.Background(), p)
				p.GPU = nil
				switch {
				case err != nil:
					t.Errorf("%s %d GPUs %s: %v\n%s", q.Name, n, place, err, explainWith(p, g))
				case splitRuns.Load() != before+1:
					t.Errorf("%s %d GPUs %s: ran the fallback", q.Name, n, place)
				default:
					if d := diffResults(got, want); d != "" {
						t.Errorf("%s %d GPUs %s: %s\n%s", q.Name, n, place, d, explainWith(p, g))
					}
				}
			}
		}
	}
}

// The placement test's queries (NULL group keys, 8-byte values, DOUBLE
// sums, VM predicates, an empty fact table) split over two devices.
func TestSplitPlacementQueries(t *testing.T) {
	needDevices(t, 2)
	cat := placementCatalog(t, 10_037)
	for _, text := range placementQueries {
		ps, err := sql.Parse(text)
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
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		p.GPU = planner.PlanGPU(p, splitProfile(t, 2))
		got, err := Run(context.Background(), p)
		if err != nil {
			t.Errorf("%s: %v\n%s", text, err, p.Explain())
			continue
		}
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Errorf("%s: %s\n%s", text, d, p.Explain())
		}
	}
}

// EXPLAIN ANALYZE of a split star lists each device's kernels.
func TestSplitProfiled(t *testing.T) {
	needDevices(t, 2)
	cat := ssbtest.Catalog(t, 0.02, PinnedAllocator())
	q := ssbtest.Queries(t, cat)[0]
	p, err := planner.Plan(q.Query, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.GPU = planner.PlanGPU(p, splitProfile(t, 2))
	_, prof, err := RunProfiled(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, k := range prof.Kernels {
		seen[strings.SplitN(k.Name, ":", 2)[0]] = true
	}
	if !seen["gpu0"] || !seen["gpu1"] || prof.KernelMs <= 0 || prof.WallMs < prof.KernelMs {
		t.Errorf("profile %+v: kernels of devices %v", prof, seen)
	}
}

// A query that runs whole goes to the least busy device.
func TestSchedulerLeastBusy(t *testing.T) {
	needDevices(t, 2)
	f, d := edgeDB(2000, 10, 0, 1, false, 3)
	p := edgePlans(f, d)["scalar"]
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof.Devices = []int{0, 1}
	p.GPU = planner.PlanGPU(p, prof)
	defer func() { p.GPU = nil }()
	d0, _ := deviceAt(0)
	d1, _ := deviceAt(1)
	d0.queued.Add(1 << 40) // device 0 looks busy
	defer d0.queued.Add(-(1 << 40))
	before := d1.served.Load()
	checkPlan(t, "scalar", p)
	if d1.served.Load() != before+1 {
		t.Errorf("the query did not go to the idle device 1")
	}
}

// Partial integer sums merge with MySQL's overflow rule; DOUBLE and
// extreme values merge as the kernels keep them.
func TestMergeAgg(t *testing.T) {
	i := func(v int64) uint64 { return uint64(v) }
	f := func(v float64) uint64 { return math.Float64bits(v) }
	for _, c := range []struct {
		a    starAgg
		x, y uint64
		want uint64
		ok   bool
	}{
		{starAgg{fn: aggSum}, i(5), i(-7), i(-2), true},
		{starAgg{fn: aggSum}, i(math.MaxInt64 - 1), i(1), i(math.MaxInt64), true},
		{starAgg{fn: aggSum}, i(math.MaxInt64), i(1), 0, false},
		{starAgg{fn: aggSum}, i(math.MinInt64), i(-1), 0, false},
		{starAgg{fn: aggSum}, i(math.MinInt64), i(math.MaxInt64), i(-1), true},
		{starAgg{fn: aggCount}, 3, 4, 7, true},
		{starAgg{fn: aggMin}, i(-3), i(math.MaxInt64), i(-3), true},
		{starAgg{fn: aggMax}, i(math.MinInt64), i(-3), i(-3), true},
		{starAgg{fn: aggSum, isFloat: true}, f(0.5), f(0.25), f(0.75), true},
		{starAgg{fn: aggMin, isFloat: true}, f(math.Inf(1)), f(-2.5), f(-2.5), true},
		{starAgg{fn: aggMax, isFloat: true}, f(1.5), f(math.Inf(-1)), f(1.5), true},
	} {
		got, ok := mergeAgg(c.a, c.x, c.y)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("mergeAgg(%+v, %#x, %#x) = %#x, %v; want %#x, %v", c.a, c.x, c.y, got, ok, c.want, c.ok)
		}
	}
}

// An overflow of the merged sum fails the query as a whole run's would:
// with errOverflow, which the engine answers by naming the expression
// from the CPU executor.
func TestSplitOverflow(t *testing.T) {
	needDevices(t, 2)
	f, d := edgeDB(10000, 10, 0, 1, false, 11)
	v := f.Columns[f.ColumnIndex("v")]
	for r := range v.I64 {
		v.I64[r] = math.MaxInt64 / 9000 // each part fits, the whole does not
	}
	columnar.ComputeStats(f)
	columnar.ComputeStats(d)
	s := scanOf(f, "k", "g", "v", "w")
	p := &planner.Physical{Root: aggOf(s, nil, sumOf(ref(s, "v")))}
	p.GPU = planner.PlanGPU(p, splitProfile(t, 2))
	if p.GPU.Split == nil {
		t.Fatalf("not split:\n%s", p.Explain())
	}
	_, err := Run(context.Background(), p)
	if !errors.Is(err, errOverflow) {
		t.Errorf("got %v, want the overflow error", err)
	}
}
