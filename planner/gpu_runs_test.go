package planner_test

import (
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Under SET gpu_packing = TRANSFER the fact columns whose values repeat
// over an order's lines (SSB's lo_orderdate, lo_custkey) are copied cold
// as runs, sized from the statistics' run counts, and those that do not
// repeat (lo_discount) are not; GPUSQL_COLD_RUNS=off (NoRunTransfer) and
// statistics without run counts (a database written before they were
// kept) send none as runs; ForceRunTransfer sends every counted one.
func TestGPURunTransfer(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	const q42 = "select d_year, s_nation, p_category, sum(lo_revenue - lo_supplycost) as profit from date, customer, supplier, part, lineorder where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey and c_region = 'AMERICA' and s_region = 'AMERICA' and (d_year = 1997 or d_year = 1998) and (p_mfgr = 'MFGR#1' or p_mfgr = 'MFGR#2') group by d_year, s_nation, p_category order by d_year, s_nation, p_category"
	transfer := func(set func(p *planner.GPUProfile)) map[string]planner.GPUColumn {
		prof := h100(t)
		prof.PackTransfer, prof.ForcePacking = true, true
		set(prof)
		return columnsByName(planSQL(t, cat, q42, planner.Options{GPU: prof}).GPU)
	}
	m := transfer(func(*planner.GPUProfile) {})
	rows := m["lineorder.lo_orderdate"].Col.Len
	for _, name := range []string{"lineorder.lo_orderdate", "lineorder.lo_custkey"} {
		pk := m[name].Packing
		if pk == nil || pk.RunBytes == 0 || pk.RunBytes*2 > pk.Bytes || pk.ColdInPlace || !pk.CopyAhead {
			t.Errorf("%s: %+v, want copied ahead as runs in under half its packed bytes", name, pk)
			continue
		}
		f, err := columnar.CountRuns(m[name].Col, pk.Bits)
		if err != nil {
			t.Fatal(err)
		}
		if words := int64(4 * f.Words()); pk.RunBytes < words || pk.RunBytes > words+4*int64(f.Chunks()) {
			t.Errorf("%s: planned %d bytes of runs, the form takes %d", name, pk.RunBytes, words)
		}
	}
	for _, name := range []string{"lineorder.lo_suppkey", "lineorder.lo_partkey"} {
		if pk := m[name].Packing; pk == nil || pk.RunBytes != 0 {
			t.Errorf("%s: %+v, want sent packed (its values change row to row)", name, pk)
		}
	}
	for what, set := range map[string]func(*planner.GPUProfile){
		"NoRunTransfer": func(p *planner.GPUProfile) { p.NoRunTransfer = true },
	} {
		for name, c := range transfer(set) {
			if c.Packing != nil && c.Packing.RunBytes != 0 {
				t.Errorf("%s: %s sent as runs", what, name)
			}
		}
	}
	forced := transfer(func(p *planner.GPUProfile) { p.ForceRunTransfer = true })
	if pk := forced["lineorder.lo_suppkey"].Packing; pk == nil || pk.RunBytes == 0 {
		t.Errorf("ForceRunTransfer: lo_suppkey %+v, want runs", pk)
	}

	lo := cat.Tables()["lineorder"]
	ci := lo.ColumnIndex("lo_orderdate")
	saved := lo.Stats[ci]
	lo.Stats[ci] = append([]columnar.ChunkStats(nil), saved...)
	lo.Stats[ci][len(saved)/2].Runs = 0
	defer func() { lo.Stats[ci] = saved }()
	if pk := transfer(func(*planner.GPUProfile) {})["lineorder.lo_orderdate"].Packing; pk == nil || pk.RunBytes != 0 || rows == 0 {
		t.Errorf("runs not counted in one chunk: %+v, want sent packed", pk)
	}
}
