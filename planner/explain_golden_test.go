package planner_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	goldenDir = "../testdata/explain"
	// goldenSF is the scale factor whose statistics the golden plans use.
	goldenSF = 0.1
)

// TestSSBExplainGolden compares the EXPLAIN of the 13 SSB queries (with
// statistics of generated SF 0.1 data) with testdata/explain/ssb_*.txt;
// go test ./planner -update rewrites them.
func TestSSBExplainGolden(t *testing.T) {
	checkSSBGolden(t, planner.Options{}, "ssb_")
}

// TestSSBGPUExplainGolden is the same for the GPU plans made for the h100
// profile (no GPU needed): testdata/explain/gpu_h100_ssb_*.txt.
func TestSSBGPUExplainGolden(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	checkSSBGolden(t, planner.Options{GPU: prof}, "gpu_h100_ssb_")
}

// TestSSBGPUPackedExplainGolden: the h100 plans with SET gpu_packing = ON,
// the fact columns bit-packed (testdata/explain/gpu_h100_packed_ssb_*.txt).
func TestSSBGPUPackedExplainGolden(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	prof.Packing = true
	checkSSBGolden(t, planner.Options{GPU: prof}, "gpu_h100_packed_ssb_")
}

// TestSSBGPUTransferExplainGolden: the h100 plans with SET gpu_packing =
// TRANSFER (the engine's default), the fact columns sent packed and
// unpacked on the device, forced (at the golden's scale no column saves
// enough to be sent packed otherwise): testdata/explain/gpu_h100_transfer_ssb_*.txt.
func TestSSBGPUTransferExplainGolden(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	prof.PackTransfer, prof.ForcePacking = true, true
	checkSSBGolden(t, planner.Options{GPU: prof}, "gpu_h100_transfer_ssb_")
}

// TestSSBGPUStreamedExplainGolden: the h100 plans under an 8 MiB GPU
// memory budget, where the fact columns that do not fit stream in chunks
// (testdata/explain/gpu_h100_8MB_ssb_*.txt).
func TestSSBGPUStreamedExplainGolden(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	prof.MemoryBudget = 8 << 20
	checkSSBGolden(t, planner.Options{GPU: prof}, "gpu_h100_8MB_ssb_")
}

func checkSSBGolden(t *testing.T, opts planner.Options, prefix string) {
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	queries := ssbgen.Queries()
	for i, q := range ssbtest.Queries(t, cat) {
		name := q.Name
		phys, err := planner.Plan(q.Query, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := "-- " + name + "\n" + strings.TrimSpace(queries[i].SQL) + "\n\n" + phys.Explain()
		path := filepath.Join(goldenDir, prefix+name+".txt")
		if *update {
			if err := os.MkdirAll(goldenDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./planner -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s plan changed:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// TestSSBGPURemapExplainGolden is TestSSBGPUExplainGolden with the fact
// table's small-domain columns remapped (at SF 0.1, lo_suppkey's 200 keys
// among them): the plans read the supplier payloads from shared memory in
// the remapped layout, and say so: testdata/explain/gpu_h100_remap_ssb_*.txt.
func TestSSBGPURemapExplainGolden(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	checkSSBGolden(t, planner.Options{GPU: prof, Remaps: lineorderRemaps(t)}, "gpu_h100_remap_ssb_")
}

// lineorderRemaps remaps the small-domain columns of the golden SF's
// lineorder (lo_suppkey's 200 keys among them).
func lineorderRemaps(t *testing.T) planner.RemapLookup {
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	lo, _ := cat.Table("lineorder")
	remaps := map[int]*columnar.ColumnRemap{}
	for c := range lo.Fields {
		if min, codes, ok := columnar.RemapCandidate(lo, c, 1); ok {
			r, err := columnar.BuildColumnRemap(lo, c, min, codes, columnar.DefaultColumnRemapOptions())
			if err != nil {
				t.Fatal(err)
			}
			remaps[c] = r
		}
	}
	if remaps[lo.ColumnIndex("lo_suppkey")] == nil {
		t.Fatal("lo_suppkey is no remap candidate at SF 0.1")
	}
	return func(t *columnar.Table, c int) *columnar.ColumnRemap {
		if r := remaps[c]; r != nil && r.Matches(t, c) {
			return r
		}
		return nil
	}
}

// A remapped payload needs the fact table on the device (its slot column
// is read like a resident fact column): under an 8 MiB budget, where
// lineorder streams, Q2.1's supplier payload goes back to global memory
// and says why; under the full budget it is remapped.
func TestRemapNeedsFactOnDevice(t *testing.T) {
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	lookup := lineorderRemaps(t)
	for _, c := range []struct {
		budget int64
		want   planner.GPUPayloadLayout
		why    string
	}{{0, planner.PayloadSharedRemapped, ""}, {8 << 20, planner.PayloadGlobal, "does not stay on the device"}} {
		prof, err := planner.LookupGPUProfile("h100")
		if err != nil {
			t.Fatal(err)
		}
		prof.MemoryBudget = c.budget
		q := ssbtest.Queries(t, cat)[3] // Q2.1
		p, err := planner.Plan(q.Query, planner.Options{GPU: prof, Remaps: lookup})
		if err != nil {
			t.Fatal(err)
		}
		if p.GPU.Star == nil {
			t.Fatalf("%s: no star plan", q.Name)
		}
		var sup *planner.GPUStarDim
		for _, d := range p.GPU.Star.Dims {
			if d.Scan.Table.Name == "supplier" {
				sup = d
			}
		}
		if sup == nil || sup.Payload.Layout != c.want || !strings.Contains(sup.Payload.Why, c.why) {
			t.Errorf("budget %d: supplier payload %+v, want %s (%q)\n%s", c.budget, sup.Payload, c.want, c.why, p.Explain())
		}
	}
}
