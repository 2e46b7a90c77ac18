package planner_test

import (
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// TestSSBGPUSplitExplainGolden: the h100 plans over two GPUs with every
// star split (testdata/explain/gpu_h100_2gpus_ssb_*.txt): the fact table's
// ranges per device, each device holding its range's columns.
func TestSSBGPUSplitExplainGolden(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	prof.Devices, prof.ForceSplit = []int{0, 1}, true
	checkSSBGolden(t, planner.Options{GPU: prof}, "gpu_h100_2gpus_ssb_")
}

// TestGPUSplitByCost: a star is split when the scan time the second device
// saves beats its fixed cost. Lineorder at SF 0.1 is 600 k rows, a few µs
// of HBM reads on the H100 (not split); on a device reading 1 GB/s it is
// milliseconds (split, into ranges that cover the table once, each start
// aligned).
func TestGPUSplitByCost(t *testing.T) {
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	q := ssbtest.Queries(t, cat)[0] // Q1.1
	for _, c := range []struct {
		hbm   float64
		split bool
	}{{2900, false}, {1, true}} {
		prof, err := planner.LookupGPUProfile("h100")
		if err != nil {
			t.Fatal(err)
		}
		prof.Devices, prof.HBMGBs = []int{0, 1}, c.hbm
		phys, err := planner.Plan(q.Query, planner.Options{GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		s := phys.GPU.Split
		if (s != nil) != c.split {
			t.Fatalf("HBM %g GB/s: split %v, want %v\n%s", c.hbm, s != nil, c.split, phys.Explain())
		}
		if s == nil {
			if !strings.Contains(phys.Explain(), "devices: one of 0, 1 (the least busy); not split") {
				t.Errorf("EXPLAIN does not say the plan runs on one device:\n%s", phys.Explain())
			}
			continue
		}
		rows := int64(phys.GPU.Star.Fact.Table.Rows)
		next := int64(0)
		for k, r := range s.Ranges {
			if r.Lo != next || r.Hi < r.Lo || r.Lo%64 != 0 {
				t.Fatalf("range %d = %+v after row %d", k, r, next)
			}
			next = r.Hi
		}
		if next != rows || len(s.Ranges) != 2 {
			t.Fatalf("ranges %+v do not cover %d rows", s.Ranges, rows)
		}
	}
}

// TestGPUSplitOneDevice: one device is never split, even when forced.
func TestGPUSplitOneDevice(t *testing.T) {
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	q := ssbtest.Queries(t, cat)[0]
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	prof.Devices, prof.ForceSplit = []int{1}, true
	phys, err := planner.Plan(q.Query, planner.Options{GPU: prof})
	if err != nil {
		t.Fatal(err)
	}
	if phys.GPU.Split != nil {
		t.Fatalf("one device split:\n%s", phys.Explain())
	}
}
