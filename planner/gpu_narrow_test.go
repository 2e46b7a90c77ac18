package planner_test

import (
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// transfer is the h100 profile with SET gpu_packing = TRANSFER, the
// engine's default, narrowing forced.
func transfer(t *testing.T) *planner.GPUProfile {
	p := h100(t)
	p.PackTransfer, p.ForceNarrow = true, true
	return p
}

// Under TRANSFER, narrowing forced, the star's fact columns that the
// kernel alone reads and whose values span at most 16 bits in every
// statistics chunk live on the device narrow: SSB's lo_discount (0..10) and lo_quantity (1..50) in 1
// byte, lo_orderdate (a 61,129-day span) in 2, lo_extendedprice (24 bits)
// not; the frames are the chunks' least values; the plan's device bytes
// count the narrow size; the kernel's fetch estimate follows (a sector
// holds more rows). Columns the expression VM reads, dimension columns,
// and every column under OFF or ON (packed instead), streamed or split,
// are not narrowed.
func TestGPUNarrow(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	const q = "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25"
	p := planSQL(t, cat, q, planner.Options{GPU: transfer(t)})
	if p.GPU.Star == nil {
		t.Fatalf("not a star:\n%s", p.Explain())
	}
	m := columnsByName(p.GPU)
	fact := m["lineorder.lo_discount"].Col
	rows := fact.Len
	tab := p.GPU.Star.Fact.Table
	for name, width := range map[string]int{"lineorder.lo_discount": 1, "lineorder.lo_quantity": 1, "lineorder.lo_orderdate": 2, "lineorder.lo_extendedprice": 0} {
		c := m[name]
		if width == 0 {
			if c.Narrow != nil || c.Bytes != 4*int64(rows) {
				t.Errorf("%s narrowed: %+v, %d bytes", name, c.Narrow, c.Bytes)
			}
			continue
		}
		if c.Narrow == nil || c.Narrow.Width != width || c.Narrow.ChunkShift != 16 {
			t.Fatalf("%s: narrow %+v, want %d bytes a value\n%s", name, c.Narrow, width, p.Explain())
		}
		ci := -1
		for i, col := range tab.Columns {
			if col == c.Col {
				ci = i
			}
		}
		if len(c.Narrow.Frames) != len(tab.Stats[ci]) || len(c.Narrow.Frames) != (rows+columnar.ChunkRows-1)/columnar.ChunkRows {
			t.Fatalf("%s: %d frames for %d rows", name, len(c.Narrow.Frames), rows)
		}
		for k, f := range c.Narrow.Frames {
			if int64(f) != tab.Stats[ci][k].Min {
				t.Errorf("%s: frame %d is %d, the chunk's least value %d", name, k, f, tab.Stats[ci][k].Min)
			}
		}
		want := (int64(rows)*int64(width)+15)/16*16 + 4*int64(len(c.Narrow.Frames))
		if c.Bytes != want || c.UnpackedBytes != 4*int64(rows) {
			t.Errorf("%s: %d device bytes (unpacked %d), want %d (%d)", name, c.Bytes, c.UnpackedBytes, want, 4*rows)
		}
	}
	if !strings.Contains(p.Explain(), "lineorder.lo_discount resident (293 KiB; 1 B a value, frame per 65,536 rows)") {
		t.Errorf("EXPLAIN lacks the narrow lo_discount:\n%s", p.Explain())
	}
	var fetched4 int64
	off := planSQL(t, cat, q, planner.Options{GPU: h100(t)})
	for _, c := range off.GPU.Columns {
		if c.Narrow != nil {
			t.Errorf("OFF: %s.%s narrowed", c.Table, c.Column)
		}
	}
	fetched4 = off.GPU.Star.FactReadBytes
	// The column read for every row, lo_orderdate, takes 2 bytes instead
	// of 4, and the sparse later reads at most as many sectors.
	if p.GPU.Star.FactReadBytes*10 > fetched4*6 {
		t.Errorf("narrow fetch estimate %d, 4-byte %d: want under 60%%", p.GPU.Star.FactReadBytes, fetched4)
	}
	for _, c := range planSQL(t, cat, q, planner.Options{GPU: packing(t)}).GPU.Columns {
		if c.Narrow != nil {
			t.Errorf("ON: %s.%s narrowed, not packed", c.Table, c.Column)
		}
	}
	vm := planSQL(t, cat, "select sum(lo_revenue) from lineorder where lo_quantity + lo_discount > 40 and lo_tax < 5", planner.Options{GPU: transfer(t)})
	vmCols := columnsByName(vm.GPU)
	if vmCols["lineorder.lo_quantity"].Narrow != nil || vmCols["lineorder.lo_discount"].Narrow != nil || vmCols["lineorder.lo_tax"].Narrow == nil {
		t.Errorf("VM-read columns narrowed, or lo_tax not:\n%s", vm.Explain())
	}
	prof := transfer(t)
	prof.MemoryBudget, prof.ForcePlace = 1<<20, planner.PlaceStreamed
	for _, c := range planSQL(t, cat, q, planner.Options{GPU: prof}).GPU.Columns {
		if c.Narrow != nil || c.Fact && c.Bytes != 4*int64(rows) {
			t.Errorf("streamed: %s.%s narrow %+v, %d bytes", c.Table, c.Column, c.Narrow, c.Bytes)
		}
	}
	prof = transfer(t)
	prof.Devices, prof.ForceSplit = []int{0, 1}, true
	split := planSQL(t, cat, q, planner.Options{GPU: prof})
	if split.GPU.Split == nil {
		t.Fatalf("not split:\n%s", split.Explain())
	}
	for _, c := range split.GPU.Columns {
		if c.Narrow != nil {
			t.Errorf("split: %s.%s narrowed", c.Table, c.Column)
		}
	}
}

// Without ForceNarrow placement narrows only when the 4-byte forms do not
// fit the budget: with room for everything nothing is narrow; with room
// for the narrow forms but not the 4-byte ones every candidate is narrow
// and every column stays resident; with less, columns leave the device
// and those do not stay narrow.
func TestGPUNarrowForRoom(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	const q = "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25"
	prof := h100(t)
	prof.PackTransfer = true
	roomy := planSQL(t, cat, q, planner.Options{GPU: prof})
	if narrowCount(roomy.GPU) != 0 {
		t.Errorf("narrow with room to spare:\n%s", roomy.Explain())
	}
	forced := planSQL(t, cat, q, planner.Options{GPU: transfer(t)})
	need := forced.GPU.Memory.Working + forced.GPU.Memory.Resident
	if need >= roomy.GPU.Memory.Working+roomy.GPU.Memory.Resident {
		t.Fatalf("narrow forms need %d bytes, the 4-byte ones %d", need, roomy.GPU.Memory.Resident)
	}
	prof.MemoryBudget = need
	tight := planSQL(t, cat, q, planner.Options{GPU: prof})
	if narrowCount(tight.GPU) != 3 || tight.GPU.Memory.NoFit != "" {
		t.Errorf("budget %d: want lo_discount, lo_quantity and lo_orderdate narrow:\n%s", need, tight.Explain())
	}
	for _, c := range tight.GPU.Columns {
		if c.Place != planner.PlaceResident {
			t.Errorf("budget %d: %s.%s %s", need, c.Table, c.Column, c.Place)
		}
	}
	prof.MemoryBudget = need / 2
	small := planSQL(t, cat, q, planner.Options{GPU: prof})
	off := 0
	for _, c := range small.GPU.Columns {
		if c.Place != planner.PlaceResident {
			off++
			if c.Narrow != nil {
				t.Errorf("budget %d: %s.%s %s but narrow", need/2, c.Table, c.Column, c.Place)
			}
		}
	}
	if off == 0 {
		t.Errorf("budget %d: every column resident:\n%s", need/2, small.Explain())
	}
}

func narrowCount(g *planner.GPUPlan) int {
	n := 0
	for _, c := range g.Columns {
		if c.Narrow != nil {
			n++
		}
	}
	return n
}
