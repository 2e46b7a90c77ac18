//go:build cuda

package gpu

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"

	"gpusql/planner"
	"gpusql/sql"
)

// BenchmarkSSB runs the 13 SSB queries warm (columns resident) on an
// in-memory SSB-shaped database at GPUSQL_BENCH_SF (default 10) and reports
// per query: ns/op (the whole query: dimension builds, fact kernel, group
// table copy-back, host tail), kernel-ms (the fused fact kernel alone,
// CUDA events) and GB/s (fact bytes the kernel must read at least, i.e.
// every fact column it touches once at its device width, over kernel-ms;
// compare with the device's ~2.9-3.3 TB/s).
func BenchmarkSSB(b *testing.B) {
	d := needGPU(b)
	timeFactKernel.Store(true)
	defer timeFactKernel.Store(false)
	db, plans := benchDB(b)
	probeBandwidth(b, d, db["lineorder"].Columns[db["lineorder"].ColumnIndex("lo_revenue")])
	saved := starTuning
	defer func() { starTuning = saved }()
	for _, tu := range tunings {
		starTuning = tu
		for _, name := range append([]string{"scan.sum", "scan.q1"}, ssbOrder...) {
			benchQuery(b, d, tu.String()+"/"+name, plans[name])
		}
	}
	_ = db
}

func benchQuery(b *testing.B, d *device, name string, p *planner.Physical) {
	{
		b.Run(name, func(b *testing.B) {
			if _, err := Run(b.Context(), p); err != nil { // warm: columns cached
				b.Fatal(err)
			}
			var kms float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Run(b.Context(), p); err != nil {
					b.Fatal(err)
				}
				kms += d.last.ms
			}
			kms /= float64(b.N)
			b.ReportMetric(kms, "kernel-ms")
			if by := factBytes(d, p); by > 0 && kms > 0 {
				b.ReportMetric(float64(by)/(kms/1e3)/1e9, "GB/s")
			}
			b.ReportMetric(float64(d.last.groups), "groups")
			b.ReportMetric(float64(d.last.replicas), "replicas")
		})
	}
}

var (
	benchOnce  sync.Once
	benchData  synthDB
	benchPlans map[string]*planner.Physical
)

func benchDB(b *testing.B) (synthDB, map[string]*planner.Physical) {
	benchOnce.Do(func() {
		sf := 10.0
		if s := os.Getenv("GPUSQL_BENCH_SF"); s != "" {
			sf, _ = strconv.ParseFloat(s, 64)
		}
		benchData = genSSB(sf, PinnedAllocator())
		benchPlans = ssbPlans(benchData)
		// Bandwidth probes without joins: one column, and Q1's four.
		lo := benchData["lineorder"]
		s := scanOf(lo, "lo_revenue")
		benchPlans["scan.sum"] = &planner.Physical{Root: aggOf(s, nil, sumOf(ref(s, "lo_revenue")))}
		s = scanOf(lo, "lo_orderdate", "lo_discount", "lo_quantity", "lo_extendedprice")
		f := filterOf(s, between(ref(s, "lo_discount"), 1, 3), cmpOp(sql.OpLT, ref(s, "lo_quantity"), 25), between(ref(s, "lo_orderdate"), 19930101, 19931231))
		benchPlans["scan.q1"] = &planner.Physical{Root: aggOf(f, nil, sumOf(arith(sql.OpMul, ref(f, "lo_extendedprice"), ref(f, "lo_discount"))))}
	})
	return benchData, benchPlans
}

// factBytes is the fact-table bytes the star kernel of p reads at least.
func factBytes(d *device, p *planner.Physical) int64 {
	g := p.GPU
	if g == nil {
		g = planner.PlanGPU(p, d.profile)
	}
	form := map[*columnar.Column]deviceForm{}
	for _, c := range g.Columns {
		form[c.Col] = planForm(c)
	}
	if g.Star == nil {
		return 0
	}
	q, _, err := starFromPlan(g.Star)
	if err != nil {
		return 0
	}
	cols := map[int]bool{}
	for b := range q.preds {
		if b.scan == q.fact {
			cols[b.col] = true
		}
	}
	for _, dm := range q.dims {
		cols[dm.probe.col] = true
	}
	for _, c := range q.nFact {
		cols[c] = true
	}
	for _, ag := range q.aggs {
		if ag.a >= 0 {
			cols[ag.a] = true
		}
		if ag.b >= 0 {
			cols[ag.b] = true
		}
	}
	var total int64
	d.do(func() error {
		for c := range cols {
			col := q.fact.Table.Columns[c]
			if e, ok := d.cache.m[cacheKey{col, form[col]}]; ok {
				total += e.view().valueBytes(int64(e.n))
			}
		}
		return nil
	})
	return total
}

// probeBandwidth reports what a trivial scan kernel reaches over one cached
// 4-byte column: the ceiling for the star pipeline's GB/s on this device.
func probeBandwidth(b *testing.B, d *device, col *columnar.Column) {
	b.Run("probe", func(b *testing.B) {
		var ms float64
		err := d.do(func() error {
			dc, err := d.cache.get(col)
			if err != nil {
				return err
			}
			defer d.cache.unpin(dc)
			f, err := d.fn("probe_sum_i32")
			if err != nil {
				return err
			}
			out, err := d.pool.get(8)
			if err != nil {
				return err
			}
			defer d.pool.put(out)
			p := struct {
				In  uint64
				N4  int64
				Out uint64
			}{uint64(dc.data), int64(dc.n / 4), uint64(out)}
			occ, _ := f.MaxActiveBlocksPerMultiProcessor(256, 0)
			for i := 0; i < b.N+1; i++ {
				d.ev[0].Record(cu.Stream{})
				if err := launch(f, d.sms*max(occ, 1), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
					return err
				}
				d.ev[1].Record(cu.Stream{})
				if err := d.sync(); err != nil {
					return err
				}
				if i > 0 {
					e, _ := d.ev[0].Elapsed(d.ev[1])
					ms += e
				}
			}
			ms /= float64(b.N)
			b.ReportMetric(ms, "kernel-ms")
			b.ReportMetric(float64(dc.n/4*16)/(ms/1e3)/1e9, "GB/s")
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	})
}
