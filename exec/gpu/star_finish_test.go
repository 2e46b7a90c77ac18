//go:build cuda

package gpu

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"testing"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The planner gives the device finish to stars whose outputs it can
// write, and the sort to it when the keys are integers (no device).
func TestStarFinishPlanned(t *testing.T) {
	f, d := edgeDB(100, 10, 0, 1, false, 3)
	plans := edgePlans(f, d)
	for name, want := range map[string]planner.GPUStarFinish{
		"fact-group":      {Device: true, MinGroups: planner.GPUFinishMinGroups},
		"join-group-dim":  {Device: true, MinGroups: planner.GPUFinishMinGroups},
		"sorted":          {Device: true, SortOnDevice: true, MinGroups: planner.GPUFinishMinGroups},
		"slot-order-desc": {Device: true, SortOnDevice: true, MinGroups: planner.GPUFinishMinGroups},
		"float":           {Device: true, MinGroups: planner.GPUFinishMinGroups},
	} {
		g := planner.PlanGPU(plans[name], planner.DefaultGPUProfile())
		if g.Star == nil {
			t.Fatalf("%s: no star (%s)", name, g.NotStar)
		}
		if g.Star.Finish != want {
			t.Errorf("%s: finish %+v, want %+v", name, g.Star.Finish, want)
		}
	}
	j := joinOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
	avg := sql.AggExpr{Func: sql.AggAvg, Arg: ref(j, "v"), T: columnar.Type{ID: columnar.Decimal, Precision: 14, Scale: 4}}
	p := &planner.Physical{Root: aggOf(j, []string{"ds"}, avg)}
	if g := planner.PlanGPU(p, planner.DefaultGPUProfile()); g.Star == nil || g.Star.Finish.Device {
		t.Errorf("AVG finished on the device: %+v", g.Star)
	}
	j = joinOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
	p = &planner.Physical{Root: sortOf(aggOf(j, []string{"ds"}, sumOf(ref(j, "w"))), "-agg0")}
	if g := planner.PlanGPU(p, planner.DefaultGPUProfile()); g.Star == nil || !g.Star.Finish.Device || g.Star.Finish.SortOnDevice {
		t.Errorf("a DOUBLE sort key: finish %+v, want on the device, sorted on the host", g.Star.Finish)
	}
}

// Every star plan of the edge databases and SSB gives the same rows, in
// the same order, finished on the device as decoded on the host: NULL
// keys, sorts on keys and aggregates in both directions, slot order,
// TopN, more groups or key values than the kernel takes (the host
// decodes those), sizes around a warp and a bitmap word.
func TestStarFinishMatchesHost(t *testing.T) {
	needGPU(t)
	plans := map[string]*planner.Physical{}
	for _, c := range edgeCases {
		f, d := edgeDB(c.n, c.ndim, c.nulls, c.keyScale, false, uint64(c.n))
		for name, p := range edgePlans(f, d) {
			plans[c.name+"/"+name] = p
		}
		j := joinOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
		plans[c.name+"/sort-agg-key"] = &planner.Physical{Root: sortOf(aggOf(j, []string{"da", "g"}, sumOf(ref(j, "v")), countStar()), "da", "-agg0", "g")}
	}
	for name, p := range ssbPlans(genSSB(0.05, columnar.HeapAllocator)) {
		plans["ssb/"+name] = p
	}
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof.Devices = nil
	defer func(saved bool) { finishOff = saved }(finishOff)
	before := finishRuns.Load()
	for _, name := range slices.Sorted(maps.Keys(plans)) {
		t.Run(name, func(t *testing.T) {
			p := plans[name]
			p.GPU = finishEverything(planner.PlanGPU(p, prof))
			defer func() { p.GPU = nil }()
			finishOff = false
			dev := checkPlan(t, name, p)
			finishOff = true
			host := checkPlan(t, name, p)
			// Only a star's groups come in a set order (slot order, or
			// the sort's); an operator-at-a-time hash aggregate's do not.
			if p.GPU.Star == nil {
				return
			}
			if d := diffResults(dev, host); d != "" {
				t.Errorf("the device finish differs from the host decode: %s", d)
			}
		})
	}
	if finishRuns.Load() == before {
		t.Fatal("no star was finished on the device")
	}
	t.Logf("%d stars finished on the device", finishRuns.Load()-before)
}

// finishEverything lowers g's bound on the groups the device finishes to
// one, so that the small tables of tests take the kernel too.
func finishEverything(g *planner.GPUPlan) *planner.GPUPlan {
	if g.Star != nil && g.Star.Finish.Device {
		g.Star.Finish.MinGroups = 1
	}
	return g
}

// The finish's parameters and read-back, without a device: each SSB star's
// dense table of every surviving slot (benchDims' dimensions), finished
// by a sequential stand-in for the kernel that reads only what
// prepareFinish laid out (finCell: the kernel's fin_value) into the output
// layout, then copied out by result, gives decodeStar's rows, values and
// NULLs, column for column.
func TestFinishLayoutMatchesDecode(t *testing.T) {
	// Q4.3's table the largest: 10 × 20 × 7 slots, under the kernel's 2,048.
	surviving := map[string]int64{"part": 20, "date": 7, "customer": 10, "supplier": 10}
	finished := 0
	check := func(name string, q *starQuery, outs []starOutput) {
		if !q.finish.Device {
			return
		}
		finished++
		q.finish.MinGroups = 0
		dims, ngroups := benchDims(q, surviving)
		fkeys := factKeysOf(q)
		for _, fk := range fkeys {
			ngroups *= fk.size
		}
		W := int64(1 + len(q.aggs))
		dense := groupRows{words: make([]uint64, ngroups*W), W: W}
		for g := range ngroups {
			dense.words[g*W] = uint64(1 + g%5)
			for j := int64(1); j < W; j++ {
				dense.words[g*W+j] = uint64(g*7 + j)
			}
		}
		want, err := decodeStar(q, outs, dims, fkeys, dense, nil)
		if err != nil {
			t.Fatal(err)
		}
		f := prepareFinish(q, outs, nil, dims, fkeys, ngroups, ngroups)
		if f == nil {
			t.Fatalf("%s: no finish laid out", name)
		}
		f.host = make([]byte, f.bytes)
		binary.LittleEndian.PutUint64(f.host, uint64(ngroups))
		for c := range f.p.NCols {
			col := f.p.Cols[c]
			for s := range ngroups {
				v, ok := finCell(&f.p, col, s, dense.words[s*W:])
				if col.Kind == finAggIntAsFloat {
					v = int64(math.Float64bits(float64(v)))
				}
				if col.Width == 4 {
					binary.LittleEndian.PutUint32(f.host[col.Out+4*s:], uint32(v))
				} else {
					binary.LittleEndian.PutUint64(f.host[col.Out+8*s:], uint64(v))
				}
				if ok && col.Valid >= 0 {
					f.host[col.Valid+s/8] |= 1 << (s % 8)
				}
			}
		}
		got, sorted := f.result(q)
		if sorted {
			t.Errorf("%s: unsorted groups reported sorted", name)
		}
		if d := diffResults(got, want); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
	eachSSBStar(t, check)
	// Fact group keys, NULL among them (the NULL digit), beside a dimension's.
	f, d := edgeDB(500, 7, 0.2, 1, false, 5)
	for _, name := range []string{"fact-group", "join-filter-both", "slot-order-dim-first"} {
		g := planner.PlanGPU(edgePlans(f, d)[name], planner.DefaultGPUProfile())
		q, outs, err := starFromPlan(g.Star)
		if err != nil {
			t.Fatal(err)
		}
		check(name, q, outs)
	}
	if finished < 13 {
		t.Fatalf("%d stars finished, want SSB's 10 and the 3 edge plans", finished)
	}
}

// factKeysOf is each fact group column's domain over its table's values.
func factKeysOf(q *starQuery) []factKey {
	var out []factKey
	for _, c := range q.nFact {
		col := q.fact.Table.Columns[c]
		lo, hi := columnMinMax(col)
		fk := factKey{lo: lo, size: hi - lo + 1, nullable: col.Valid != nil}
		if fk.nullable {
			fk.size++
		}
		out = append(out, fk)
	}
	return out
}

// finCell is kernels/star_finish.cu's fin_value on the host.
func finCell(p *finParams, c finCol, slot int64, w []uint64) (int64, bool) {
	switch c.Kind {
	case finKeyTab:
		e := int(c.Tab) + int(slot/c.Stride%c.Size)
		if p.TabNull[e/64]>>(e%64)&1 != 0 {
			return 0, false
		}
		return p.Tab[e], true
	case finKeyFact:
		d := slot / c.Stride % c.Size
		if d == c.NullDigit {
			return 0, false
		}
		return d + c.Lo, true
	}
	return int64(w[c.Word]), c.Cnt < 0 || w[c.Cnt] != 0
}
