package planner_test

import (
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// packing is the h100 profile with SET gpu_packing = ON.
func packing(t *testing.T) *planner.GPUProfile {
	p := h100(t)
	p.Packing = true
	return p
}

func columnsByName(g *planner.GPUPlan) map[string]planner.GPUColumn {
	m := map[string]planner.GPUColumn{}
	for _, c := range g.Columns {
		m[c.Table+"."+c.Column] = c
	}
	return m
}

// The star's fact columns pack in the bits their statistics give (SSB:
// lo_discount 0..10 in 4, lo_quantity 1..50 in 6), their packed size
// counts in the plan's device bytes, dimension columns stay 4 bytes, and
// without Packing (SET gpu_packing = ON; off by default) nothing is packed.
func TestGPUPackingSSB(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	const q11 = "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25"
	p := planSQL(t, cat, q11, planner.Options{GPU: packing(t)})
	m := columnsByName(p.GPU)
	rows := m["lineorder.lo_discount"].Col.Len
	for name, bits := range map[string]int{"lineorder.lo_discount": 4, "lineorder.lo_quantity": 6} {
		c := m[name]
		if c.Packing == nil || c.Packing.Bits != bits || c.Packing.ChunkShift != columnar.PackChunkShift {
			t.Errorf("%s: packing %+v, want %d bits\n%s", name, c.Packing, bits, p.Explain())
			continue
		}
		if c.Bytes != columnar.PackedBytes(rows, bits) || c.UnpackedBytes != 4*int64(rows) {
			t.Errorf("%s: %d bytes (unpacked %d), want %d (%d)", name, c.Bytes, c.UnpackedBytes, columnar.PackedBytes(rows, bits), 4*rows)
		}
	}
	if c := m["date.d_year"]; c.Packing != nil {
		t.Errorf("a dimension column packed: %+v", c)
	}
	var resident int64
	for _, c := range p.GPU.Columns {
		resident += c.Bytes
	}
	if p.GPU.Memory.Resident != resident {
		t.Errorf("device bytes %d, columns %d", p.GPU.Memory.Resident, resident)
	}

	p = planSQL(t, cat, q11, planner.Options{GPU: h100(t)})
	for _, c := range p.GPU.Columns {
		if c.Packing != nil || c.Fact && c.Bytes != 4*int64(rows) {
			t.Errorf("packing off: %s.%s %+v, %d bytes", c.Table, c.Column, c.Packing, c.Bytes)
		}
	}
}

// Columns the expression VM reads are not packed (it reads 4-byte values:
// a packed copy would be a second one); columns that do not stay resident
// are not packed.
func TestGPUPackingExclusions(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	p := planSQL(t, cat, "select sum(lo_revenue), count(*) from lineorder where lo_quantity + lo_discount > 40 and lo_tax < 5", planner.Options{GPU: packing(t)})
	if p.GPU.Star == nil {
		t.Fatalf("not a star:\n%s", p.Explain())
	}
	m := columnsByName(p.GPU)
	for _, name := range []string{"lineorder.lo_quantity", "lineorder.lo_discount"} {
		if m[name].Packing != nil {
			t.Errorf("%s is read by the expression VM but packed\n%s", name, p.Explain())
		}
	}
	for _, name := range []string{"lineorder.lo_revenue", "lineorder.lo_tax"} {
		if m[name].Packing == nil {
			t.Errorf("%s is read by the kernel only but not packed\n%s", name, p.Explain())
		}
	}

	prof := packing(t)
	prof.MemoryBudget, prof.ForcePlace = 1<<20, planner.PlaceStreamed
	p = planSQL(t, cat, "select sum(lo_revenue) from lineorder where lo_quantity < 10", planner.Options{GPU: prof})
	for _, c := range p.GPU.Columns {
		if c.Place != planner.PlaceResident && (c.Packing != nil || c.Bytes != 4*int64(c.Col.Len)) {
			t.Errorf("%s.%s %s: packing %+v, %d bytes", c.Table, c.Column, c.Place, c.Packing, c.Bytes)
		}
	}

	// A budget for about half the packed fact columns: some stream, and
	// then none is packed (a chunked launch moves the resident views by
	// rows that need not be a frame's multiple), and the device bytes
	// count them at 4 bytes.
	const q = "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_quantity < 25"
	g := planSQL(t, cat, q, planner.Options{GPU: packing(t)}).GPU
	var packedFact int64
	for _, c := range g.Columns {
		if c.Fact {
			packedFact += c.Bytes
		}
	}
	prof = packing(t)
	prof.MemoryBudget = g.Memory.Working + g.Memory.Resident - packedFact/2
	p = planSQL(t, cat, q, planner.Options{GPU: prof})
	streamed, resident := 0, int64(0)
	for _, c := range p.GPU.Columns {
		if c.Place == planner.PlaceStreamed {
			streamed++
		}
		if c.Packing != nil {
			t.Errorf("%s.%s packed beside streamed columns\n%s", c.Table, c.Column, p.Explain())
		}
		if c.Place == planner.PlaceResident {
			resident += c.Bytes
		}
	}
	if streamed == 0 || p.GPU.Memory.Resident != resident || p.GPU.Memory.NoFit != "" {
		t.Errorf("half the packed bytes: %d streamed, resident %d of %d\n%s", streamed, p.GPU.Memory.Resident, resident, p.Explain())
	}
}

// SET gpu_packing = TRANSFER (the default through the engine) sends the
// star's fact columns packed, the VM's included, and keeps their 4-byte
// size as their device bytes; columns too small to gain (all of them at
// this scale) are sent whole, unless forced.
func TestGPUPackingTransfer(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	prof := h100(t)
	prof.PackTransfer = true
	const q = "select sum(lo_revenue), count(*) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_quantity + lo_discount > 40"
	for _, c := range planSQL(t, cat, q, planner.Options{GPU: prof}).GPU.Columns {
		if c.Packing != nil {
			t.Errorf("%s.%s (%d bytes) sent packed: too small to gain", c.Table, c.Column, c.Bytes)
		}
	}
	prof.ForcePacking = true
	p := planSQL(t, cat, q, planner.Options{GPU: prof})
	if p.GPU.Star == nil {
		t.Fatalf("not a star:\n%s", p.Explain())
	}
	m := columnsByName(p.GPU)
	rows := m["lineorder.lo_revenue"].Col.Len
	for name, bits := range map[string]int{"lineorder.lo_quantity": 6, "lineorder.lo_discount": 4} {
		c := m[name]
		if c.Packing == nil || !c.Packing.Transfer || c.Packing.Bits != bits || c.Packing.Bytes != columnar.PackedBytes(rows, bits) {
			t.Errorf("%s: packing %+v, want sent in %d bits\n%s", name, c.Packing, bits, p.Explain())
		}
		if c.Bytes != 4*int64(rows) || c.UnpackedBytes != 0 {
			t.Errorf("%s: %d device bytes (unpacked %d), want the 4-byte form's %d", name, c.Bytes, c.UnpackedBytes, 4*rows)
		}
	}
	if c := m["date.d_year"]; c.Packing != nil {
		t.Errorf("a dimension column packed: %+v", c)
	}
	want := "lineorder.lo_discount resident (1.14 MiB; sent packed 4 bits"
	if text := p.Explain(); !strings.Contains(text, want) {
		t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
	}
}
