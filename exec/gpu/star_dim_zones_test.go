//go:build cuda

package gpu

import (
	"context"
	"math/rand/v2"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Zone maps through dimension keys: a fact table clustered on its key k
// (rising with the row number, NULLs among it, a partial last chunk) joined
// to a dimension filtered on its key is scanned only over the chunks whose
// k range meets the built keys' interval — known from the build on the
// first run and kept with the cached build on the second — and answers as
// the CPU executor does: an interval inside a few chunks, a dimension
// whose filter keeps no row (every chunk dead), an interval over every
// chunk (nothing dead). The same table with k shuffled is not clustered:
// the plan asks for no interval.
func TestStarDimKeyZones(t *testing.T) {
	needGPU(t)
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	n := 5*columnar.ChunkRows + 123
	const ndim = 40
	f, d := edgeDB(n, ndim, 0.05, 1, false, 7)
	k := f.Columns[0]
	for i := range k.I64 {
		k.I64[i] = int64(i)*ndim/int64(n) + 1
	}
	columnar.ComputeStats(f)
	columnar.ComputeStats(d)
	cases := []struct {
		name   string
		lo, hi int64 // the dimension keeps dk in [lo, hi)
		dead   bool
	}{{"middle", 12, 17, true}, {"no dimension row", 1000, 2000, true}, {"all", -1, 100, false}}
	for _, c := range cases {
		ds := scanOf(d, "dk", "da", "ds")
		dim := filterOf(ds, cmpOp(sql.OpGE, ref(ds, "dk"), c.lo), cmpOp(sql.OpLT, ref(ds, "dk"), c.hi))
		j := joinOf(scanOf(f, "k", "g", "v", "w"), dim, "k", "dk")
		p := &planner.Physical{Root: sortOf(aggOf(j, []string{"ds", "g"}, sumOf(ref(j, "v")), countStar()), "ds", "g")}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		p.GPU = planner.PlanGPU(p, prof)
		if z := p.GPU.Star.Zones; z == nil || len(z.DimKeys) != 1 || z.Off != "" {
			t.Fatalf("%s: the plan asks for no key interval:\n%s", c.name, p.Explain())
		}
		for run := range 3 { // built; cached, its bitmap made; both cached
			before := dimZoneRuns.Load()
			got, err := Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s run %d: %v", c.name, run, err)
			}
			if diff := diffResults(got, want); diff != "" {
				t.Errorf("%s run %d: %s\n%s", c.name, run, diff, p.Explain())
			}
			if skipped := dimZoneRuns.Load() > before; skipped != c.dead {
				t.Errorf("%s run %d: chunks ruled out %v, want %v", c.name, run, skipped, c.dead)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	r.Shuffle(n, func(a, b int) { k.I64[a], k.I64[b] = k.I64[b], k.I64[a] })
	f.Stats = nil // ComputeStats keeps all but a table's last chunk's
	columnar.ComputeStats(f)
	ds := scanOf(d, "dk", "da", "ds")
	j := joinOf(scanOf(f, "k", "g", "v", "w"), filterOf(ds, cmpOp(sql.OpLT, ref(ds, "dk"), 5)), "k", "dk")
	p := &planner.Physical{Root: aggOf(j, []string{"g"}, sumOf(ref(j, "v")))}
	if z := planner.PlanGPU(p, prof).Star.Zones; z != nil && len(z.DimKeys) > 0 {
		t.Errorf("an unclustered key asks for key intervals: %+v", z)
	}
}

// The planner asks for key intervals only where they can rule chunks out
// (no device needed): a clustered integer key, a filtered dimension; not
// for the same key shuffled, nor for an unfiltered dimension.
func TestDimKeyZonesPlan(t *testing.T) {
	prof := planner.DefaultGPUProfile()
	n := 4*columnar.ChunkRows + 5
	f, d := edgeDB(n, 40, 0, 1, false, 9)
	k := f.Columns[0]
	for i := range k.I64 {
		k.I64[i] = int64(i)*40/int64(n) + 1
	}
	columnar.ComputeStats(f)
	columnar.ComputeStats(d)
	plan := func(filtered bool) *planner.GPUZoneMap {
		ds := scanOf(d, "dk", "da", "ds")
		var dim planner.Node = ds
		if filtered {
			dim = filterOf(ds, cmpOp(sql.OpLT, ref(ds, "dk"), 5))
		}
		j := joinOf(scanOf(f, "k", "g", "v", "w"), dim, "k", "dk")
		p := &planner.Physical{Root: aggOf(j, []string{"g"}, sumOf(ref(j, "v")))}
		return planner.PlanGPU(p, prof).Star.Zones
	}
	if z := plan(true); z == nil || len(z.DimKeys) != 1 || z.DimNames[0] != "d" {
		t.Fatalf("clustered key, filtered dimension: zones %+v", z)
	}
	if z := plan(false); z != nil {
		t.Errorf("unfiltered dimension: zones %+v", z)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(a, b int) { k.I64[a], k.I64[b] = k.I64[b], k.I64[a] })
	f.Stats = nil
	columnar.ComputeStats(f)
	if z := plan(true); z != nil {
		t.Errorf("shuffled key: zones %+v", z)
	}
}
