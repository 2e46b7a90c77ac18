//go:build cuda

package gpu

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// BenchmarkStarHost measures, without a device, the host steps of a warm
// star query around its kernels, per SSB query: taking the plan's star
// (starFromPlan), naming each dimension's cached build (dimBuildKey),
// decoding a full group table of the query's true surviving group counts
// (decodeStar) and the host tail (ORDER BY). The kernels, copies and
// driver calls are what the H100 profile adds to it.
//
//	go test -tags cuda ./exec/gpu -run '^$' -bench StarHost -benchmem
func BenchmarkStarHost(b *testing.B) {
	cat := ssbtest.Catalog(b, 0.01, columnar.HeapAllocator)
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		b.Fatal(err)
	}
	// Surviving group values per dimension at any SF (SSB's dimension
	// domains do not grow with it), in the plan's dimension order by table.
	surviving := map[string]map[string]int64{
		"Q2.1": {"part": 40, "date": 7}, "Q2.2": {"part": 8, "date": 7}, "Q2.3": {"part": 1, "date": 7},
		"Q3.1": {"customer": 5, "supplier": 5, "date": 6}, "Q3.2": {"customer": 10, "supplier": 10, "date": 6},
		"Q3.3": {"customer": 2, "supplier": 2, "date": 6}, "Q3.4": {"customer": 2, "supplier": 2, "date": 1},
		"Q4.1": {"customer": 5, "date": 7}, "Q4.2": {"supplier": 5, "part": 10, "date": 2}, "Q4.3": {"supplier": 10, "part": 40, "date": 2},
	}
	for _, sq := range ssbtest.Queries(b, cat) {
		p, err := planner.Plan(sq.Query, planner.Options{GPU: prof})
		if err != nil {
			b.Fatal(err)
		}
		g := p.GPU
		q, outs, err := starFromPlan(g.Star)
		if err != nil {
			b.Fatal(err)
		}
		dims, ngroups := benchDims(q, surviving[sq.Name])
		W := int64(1 + len(q.aggs))
		table := groupRows{words: make([]uint64, ngroups*W), W: W}
		for i := range ngroups {
			table.words[i*W] = uint64(1 + i%5)
		}
		r := &queryRun{d: &device{dims: newDimCache(nil)}}
		b.Run(sq.Name+"/plan", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := starFromPlan(g.Star); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(sq.Name+"/dimkeys", func(b *testing.B) {
			for b.Loop() {
				for i := range q.dims {
					r.dimBuildKey(q, i)
				}
			}
		})
		var scratch hostScratch
		b.Run(sq.Name+"/decode+tail", func(b *testing.B) {
			for b.Loop() {
				res, err := decodeStar(q, outs, dims, nil, table, &scratch)
				if err != nil {
					b.Fatal(err)
				}
				var done planner.Node
				if ps := presortOf(g); sortDecoded(q, res, ps, dims, nil, &scratch) {
					done = ps.Node
				}
				if _, err := runTail(context.Background(), g, res, p.Names, done); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchDims makes dimension runs as rankGroups leaves them: the first k
// values of each dimension's group domain survive.
func benchDims(q *starQuery, surviving map[string]int64) ([]*dimRun, int64) {
	ngroups := int64(1)
	var dims []*dimRun
	for _, dm := range q.dims {
		dr := &dimRun{k: 1, domain: 1}
		t := dm.scan.Table
		for _, c := range dm.gcols {
			lo, hi := columnMinMax(t.Columns[c])
			dr.sizes, dr.mins, dr.nullable = append(dr.sizes, hi-lo+1), append(dr.mins, lo), append(dr.nullable, false)
			dr.domain *= hi - lo + 1
		}
		if len(dm.gcols) > 0 {
			dr.k = min(max(surviving[t.Name], 1), dr.domain)
		}
		for v := range dr.k {
			dr.ranks = append(dr.ranks, v)
		}
		dims = append(dims, dr)
		ngroups *= dr.k
	}
	return dims, ngroups
}

func columnMinMax(c *columnar.Column) (int64, int64) {
	lo, hi := int64(0), int64(0)
	for i := 0; i < c.Len; i++ {
		var v int64
		switch {
		case c.I32 != nil:
			v = int64(c.I32[i])
		case c.I64 != nil:
			v = c.I64[i]
		}
		if i == 0 || v < lo {
			lo = v
		}
		if i == 0 || v > hi {
			hi = v
		}
	}
	return lo, hi
}

// BenchmarkStarHostSteps takes a warm SSB query's wall time in the GPU
// executor apart on a GPU machine (hostSteps), or with GPUSQL_STEPS_COLD
// set a cold one's (every device column dropped before each run, the
// packed host copies kept, as bench's cold runs): per query, the mean µs of
// each step of the star path, and "outside" the rest of the wall time
// (device selection, the device lock and context, the overflow flag).
// SSB at GPUSQL_STEPS_SF (default 0.2), pinned host memory, planned for
// the device once, as the engine's plan cache serves a repeated query
// (without the GPU plan every run would plan it again, outside the steps).
//
//	go test -tags cuda ./exec/gpu -run '^$' -bench StarHostSteps -benchtime 200x
func BenchmarkStarHostSteps(b *testing.B) {
	needGPU(b)
	sf := 0.2
	if v, err := strconv.ParseFloat(os.Getenv("GPUSQL_STEPS_SF"), 64); err == nil && v > 0 {
		sf = v
	}
	cold := os.Getenv("GPUSQL_STEPS_COLD") != ""
	cat := ssbtest.Catalog(b, sf, PinnedAllocator())
	prof, err := DeviceProfile()
	if err != nil {
		b.Fatal(err)
	}
	// As the engine plans by default: fact columns sent packed, read in
	// place when cold where the plan says (GPUSQL_COLD_IN_PLACE=off: not),
	// the others copied ahead of the dimension builds; cold runs compare
	// that with copies made when read, alternating per query.
	prof.PackTransfer, prof.ColdCopies = true, os.Getenv("GPUSQL_COLD_IN_PLACE") == "off"
	modes := []bool{false}
	if cold {
		modes = append(modes, true)
	}
	for _, sq := range ssbtest.Queries(b, cat) {
		for _, whenRead := range modes {
			mp := *prof
			mp.CopiesWhenRead = whenRead
			p, err := planner.Plan(sq.Query, planner.Options{GPU: &mp})
			if err != nil {
				b.Fatal(err)
			}
			name := sq.Name
			if cold && whenRead {
				name += "/copies-when-read"
			} else if cold {
				name += "/copies-ahead"
			}
			hostStepsRun(b, name, p, cold)
		}
	}
}

// hostStepsRun is one query's sub-benchmark of BenchmarkStarHostSteps.
func hostStepsRun(b *testing.B, name string, p *planner.Physical, cold bool) {
	b.Run(name, func(b *testing.B) {
		for range 3 { // warm: columns and dimension builds cached
			if _, err := Run(b.Context(), p); err != nil {
				b.Fatal(err)
			}
		}
		hostSteps.take()
		hostSteps.on.Store(true)
		defer hostSteps.on.Store(false)
		var wall time.Duration
		n := 0
		for b.Loop() {
			if cold {
				if err := DropColumnCache(); err != nil {
					b.Fatal(err)
				}
			}
			start := time.Now()
			if _, err := Run(b.Context(), p); err != nil {
				b.Fatal(err)
			}
			wall += time.Since(start)
			n++
		}
		order, total := hostSteps.take()
		var sum time.Duration
		for _, s := range order {
			sum += total[s]
			b.ReportMetric(float64(total[s].Nanoseconds())/1e3/float64(n), s+"-µs")
		}
		b.ReportMetric(float64((wall-sum).Nanoseconds())/1e3/float64(n), "outside-µs")
	})
}
