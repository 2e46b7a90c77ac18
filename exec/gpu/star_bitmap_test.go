//go:build cuda

package gpu

import (
	"context"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// bitmapProfile is the device's profile with a bitmap in front of every
// direct star join table.
func bitmapProfile(t *testing.T) *planner.GPUProfile {
	t.Helper()
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof.ForceDimBitmap = true
	return prof
}

// Star joins probed through dimension bitmaps (kernels/dim_bits.cu) equal
// the CPU executor: the 13 SSB queries (dimensions with and without group
// columns, so bit-only and bit-then-payload probes) and the edge cases
// (empty and one-row tables, NULL fact keys, keys outside the table,
// tables not a multiple of 32 keys, sizes past a tile).
func TestStarBitmapDifferential(t *testing.T) {
	needGPU(t)
	prof := bitmapProfile(t)
	bitmaps := ssbStarDifferential(t, prof, func(d *planner.GPUStarDim) bool { return d.Build.Bitmap })
	if bitmaps == 0 {
		t.Error("no SSB plan probed a bitmap")
	}
	for _, c := range []struct {
		name    string
		n, ndim int
		nulls   float64
	}{{"empty", 0, 10, 0}, {"one-row", 1, 3, 0}, {"odd", 1025, 33, 0}, {"nulls", 5000, 40, 0.2}, {"larger", 300001, 1000, 0.01}} {
		f, d := edgeDB(c.n, c.ndim, c.nulls, 1, false, uint64(c.n)+7)
		for name, p := range edgePlans(f, d) {
			p.GPU = planner.PlanGPU(p, prof)
			t.Run(c.name+"/"+name, func(t *testing.T) { checkPlan(t, name, p) })
		}
	}
}

// ssbStarDifferential runs the 13 SSB queries at SF 0.05 as stars planned
// for prof against the CPU executor, and returns how many of their
// dimensions count says yes to.
func ssbStarDifferential(t *testing.T, prof *planner.GPUProfile, count func(*planner.GPUStarDim) bool) int {
	t.Helper()
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	n := 0
	for _, q := range ssbtest.Queries(t, cat) {
		p, err := planner.Plan(q.Query, planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		p.GPU = planner.PlanGPU(p, prof)
		if p.GPU.Star == nil {
			t.Fatalf("%s: not a star:\n%s", q.Name, p.Explain())
		}
		for _, d := range p.GPU.Star.Dims {
			if count(d) {
				n++
			}
		}
		got, err := Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		if d := diffResults(got, want); d != "" {
			t.Errorf("%s: %s\n%s", q.Name, d, p.Explain())
		}
	}
	return n
}
