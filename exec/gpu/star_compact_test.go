//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The star's group table compacted on the device (star_compact.go,
// kernels/group_compact.cu) gives the answers of the dense read-back:
// every plan below is forced to compact (GPUProfile.ForceGroupCompact)
// and checked against the first-principles oracle or the CPU executor.

// compactProfile is the device's profile forcing compaction.
func compactProfile(t *testing.T) *planner.GPUProfile {
	t.Helper()
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof.Devices, prof.ForceGroupCompact = nil, true
	return prof
}

// checkCompacted runs p planned for prof against the oracle and reports
// whether its group table was compacted.
func checkCompacted(t *testing.T, name string, p *planner.Physical, prof *planner.GPUProfile) bool {
	t.Helper()
	p.GPU = finishEverything(planner.PlanGPU(p, prof))
	defer func() { p.GPU = nil }()
	before := compactRuns.Load()
	checkPlan(t, name, p)
	return compactRuns.Load() > before
}

// Edge cases of the dense table: no fact rows (every slot empty), one
// row (one group), sizes around the kernels' 2048-slot tile, NULL group
// keys (their own slot), keys that match nothing, hash-table dimensions.
func TestGroupCompactEdgeCases(t *testing.T) {
	needGPU(t)
	prof := compactProfile(t)
	compacted := 0
	for _, c := range edgeCases {
		f, d := edgeDB(c.n, c.ndim, c.nulls, c.keyScale, false, uint64(c.n)+11)
		for name, p := range edgePlans(f, d) {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				// The compacted rows decoded on the host, then finished on
				// the device (star_finish.go).
				defer func(saved bool) { finishOff = saved }(finishOff)
				for _, off := range []bool{true, false} {
					finishOff = off
					if checkCompacted(t, name, p, prof) {
						compacted++
					}
				}
			})
		}
	}
	if compacted == 0 {
		t.Error("no plan compacted its group table")
	}
}

// Many groups: 50 quantities × every part key (tens of thousands of
// slots, past many tiles; more rows than the read-back guess, so the rest
// comes by a second copy) with many groups non-empty, few (a filter keeps
// one discount value of 11 and a narrow range of quantities), one or none
// (a filter nothing passes: no row at all, while the table has slots);
// and a table past one tile whose every slot is non-empty.
func TestGroupCompactManyGroups(t *testing.T) {
	needGPU(t)
	prof := compactProfile(t)
	db := genSSB(0.02, columnar.HeapAllocator)
	lo := db["lineorder"]
	cols := []string{"lo_discount", "lo_revenue", "lo_quantity", "lo_partkey"}
	s := scanOf(lo, cols...)
	plans := map[string]*planner.Physical{
		"all": {Root: aggOf(s, []string{"lo_quantity", "lo_partkey"}, sumOf(ref(s, "lo_revenue")), countStar())},
	}
	// 7 years × 50 quantities × 11 discounts: 3,850 slots (past one
	// 2,048-slot tile), every one non-empty (~31 rows each).
	j := joinOf(scanOf(lo, "lo_orderdate", "lo_quantity", "lo_discount"), scanOf(db["date"], "d_datekey", "d_year"), "lo_orderdate", "d_datekey")
	plans["all-non-empty"] = &planner.Physical{Root: aggOf(j, []string{"d_year", "lo_quantity", "lo_discount"}, countStar())}
	s = scanOf(lo, cols...)
	fl := filterOf(s, cmpOp(sql.OpEQ, ref(s, "lo_discount"), 4), between(ref(s, "lo_quantity"), 10, 12))
	plans["sparse"] = &planner.Physical{Root: aggOf(fl, []string{"lo_quantity", "lo_partkey"}, sumOf(ref(fl, "lo_revenue")),
		sql.AggExpr{Func: sql.AggMax, Arg: ref(fl, "lo_revenue"), T: columnar.TInt64})}
	s = scanOf(lo, cols...)
	fl = filterOf(s, cmpOp(sql.OpGT, ref(s, "lo_discount"), 1000))
	plans["none"] = &planner.Physical{Root: aggOf(fl, []string{"lo_quantity", "lo_partkey"}, countStar())}
	s = scanOf(lo, cols...)
	fl = filterOf(s, cmpOp(sql.OpEQ, ref(s, "lo_partkey"), 17), cmpOp(sql.OpEQ, ref(s, "lo_quantity"), 3))
	plans["one"] = &planner.Physical{Root: aggOf(fl, []string{"lo_quantity", "lo_partkey"}, countStar(), sumOf(ref(fl, "lo_revenue")))}
	for name, p := range plans {
		t.Run(name, func(t *testing.T) {
			if !checkCompacted(t, name, p, prof) {
				t.Errorf("%s: the group table was not compacted", name)
			}
		})
	}
	if res, err := Run(t.Context(), plans["all-non-empty"]); err != nil || res.Rows != 7*50*11 {
		t.Errorf("all-non-empty: %v, %v (want 3850 rows)", res, err)
	}
}

// The 13 SSB queries, planned by the planner and forced to compact, equal
// the CPU executor's answers.
func TestGroupCompactSSB(t *testing.T) {
	needGPU(t)
	prof := compactProfile(t)
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	for _, q := range ssbtest.Queries(t, cat) {
		p, err := planner.Plan(q.Query, planner.Options{GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s cpu: %v", q.Name, err)
		}
		before := compactRuns.Load()
		got, err := Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v\n%s", q.Name, err, p.Explain())
		}
		if d := diffResults(got, want); d != "" {
			t.Errorf("%s: %s\n%s", q.Name, d, p.Explain())
		}
		if grouped := len(p.GPU.Star.Keys) > 0; grouped && compactRuns.Load() == before {
			t.Errorf("%s: the group table was not compacted", q.Name)
		}
	}
}

// A split star compacts on each device and merges the sparse tables by
// slot on the host.
func TestGroupCompactSplit(t *testing.T) {
	needDevices(t, 2)
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	for _, n := range deviceCounts() {
		prof := splitProfile(t, n)
		prof.ForceGroupCompact = true
		for _, q := range ssbtest.Queries(t, cat) {
			p, err := planner.Plan(q.Query, planner.Options{GPU: prof})
			if err != nil {
				t.Fatal(err)
			}
			if p.GPU.Split == nil {
				t.Fatalf("%s: not split:\n%s", q.Name, p.Explain())
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s cpu: %v", q.Name, err)
			}
			splits, compacts := splitRuns.Load(), compactRuns.Load()
			got, err := Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s %d gpus: %v\n%s", q.Name, n, err, p.Explain())
			}
			if d := diffResults(got, want); d != "" {
				t.Errorf("%s %d gpus: %s\n%s", q.Name, n, d, p.Explain())
			}
			if splitRuns.Load() != splits+1 {
				t.Errorf("%s %d gpus: ran the fallback, not split", q.Name, n)
			}
			if len(p.GPU.Star.Keys) > 0 && compactRuns.Load() < compacts+int64(n) {
				t.Errorf("%s %d gpus: %d devices compacted, want %d", q.Name, n, compactRuns.Load()-compacts, n)
			}
		}
	}
	// Edge cases with NULL group keys, empty and odd-sized parts.
	for _, c := range []struct {
		name  string
		n     int
		nulls float64
	}{{"one-row", 1, 0}, {"nulls", 20000, 0.2}, {"larger", 300001, 0.01}} {
		f, d := edgeDB(c.n, 40, c.nulls, 1, false, uint64(c.n)+3)
		columnar.ComputeStats(f)
		columnar.ComputeStats(d)
		for name, p := range edgePlans(f, d) {
			prof := splitProfile(t, 2)
			prof.ForceGroupCompact = true
			g := planner.PlanGPU(p, prof)
			if g.Star == nil || g.Split == nil {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s", c.name, name), func(t *testing.T) {
				p.GPU = g
				defer func() { p.GPU = nil }()
				checkPlan(t, name, p)
			})
		}
	}
}

// Merging the devices' compact tables by slot gives the compaction of
// the dense tables merged slot by slot (no device needed): random tables
// over 3 devices with empty slots, slots only one device filled, and
// every aggregate kind.
func TestMergeCompactMatchesDense(t *testing.T) {
	q := &starQuery{aggs: []starAgg{{fn: aggCountStar}, {fn: aggSum}, {fn: aggMin}, {fn: aggMax}, {fn: aggSum, isFloat: true}}}
	const W, ngroups = 6, 3000
	r := rand.New(rand.NewPCG(3, 4))
	var dense, compact []starGroups
	for dev := 0; dev < 3; dev++ {
		words := make([]uint64, ngroups*W)
		minID, maxID := int64(math.MaxInt64), int64(math.MinInt64)
		for g := int64(0); g < ngroups; g++ {
			w := words[g*W : (g+1)*W]
			w[3], w[4] = uint64(minID), uint64(maxID) // group_init's identities
			if r.IntN(4) != 0 || (dev > 0 && g%7 == 0) {
				continue
			}
			w[0] = uint64(1 + r.IntN(9))
			w[1] = w[0]
			w[2] = uint64(int64(r.IntN(2000) - 1000))
			w[3] = uint64(int64(r.IntN(2000) - 1000))
			w[4] = uint64(int64(r.IntN(2000) - 1000))
			w[5] = math.Float64bits(float64(r.IntN(100)) / 8)
		}
		d := groupRows{words: words, W: W}
		dense = append(dense, starGroups{groups: d})
		compact = append(compact, starGroups{groups: compactOnHost(d)})
	}
	want, err := mergeStarGroups(q, dense)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mergeStarGroups(q, compact)
	if err != nil {
		t.Fatal(err)
	}
	if w := compactOnHost(want); !slices.Equal(got.words, w.words) {
		t.Fatalf("merged compact tables differ from the merged dense ones: %d and %d words", len(got.words), len(w.words))
	}
	if got.rows() == 0 || got.rows() == ngroups {
		t.Fatalf("%d non-empty groups of %d: the test should have both kinds", got.rows(), ngroups)
	}
}

// compactOnHost is what the compaction kernels make of a dense table.
func compactOnHost(t groupRows) groupRows {
	out := groupRows{W: t.W, compact: true}
	for i := int64(0); i < t.rows(); i++ {
		if w := t.at(i); w[0] != 0 {
			out.words = append(out.words, uint64(i))
			out.words = append(out.words, w...)
		}
	}
	return out
}

// EXPLAIN ANALYZE of a compacted star lists the compaction's kernels, and
// the fact kernel's and the scatter's rows out are the groups returned.
func TestGroupCompactProfiled(t *testing.T) {
	needGPU(t)
	cat := ssbtest.Catalog(t, 0.02, columnar.HeapAllocator)
	q := ssbtest.Queries(t, cat)[7] // Q3.2
	p, err := planner.Plan(q.Query, planner.Options{GPU: compactProfile(t)})
	if err != nil {
		t.Fatal(err)
	}
	finishEverything(p.GPU) // its 120 groups at SF 0.02 are below the plan's bound
	res, prof, err := RunProfiled(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]KernelStat{}
	for _, k := range prof.Kernels {
		names = append(names, k.Name)
		byName[k.Name] = k
	}
	// The device finish (star_finish.go) comes after the compaction.
	n := len(names) - 1
	if n < 4 || !slices.Equal(names[n-3:], []string{"group_compact_count", "scan_exclusive_i64", "group_compact_scatter", "star_finish"}) {
		t.Fatalf("%s: kernels %v, want the compaction's three and the finish last", q.Name, names)
	}
	fact := prof.Kernels[n-4]
	sc, fin := byName["group_compact_scatter"], byName["star_finish"]
	if sc.RowsOut != int64(res.Rows) || fact.RowsOut != int64(res.Rows) || fin.RowsOut != int64(res.Rows) {
		t.Errorf("%s: %d rows, but the fact kernel %s gave %d groups, the scatter %d and the finish %d", q.Name, res.Rows, fact.Name, fact.RowsOut, sc.RowsOut, fin.RowsOut)
	}
}

// decodeStar gives the same rows, in the same order, from a dense table
// and from its compact form (no device needed): SSB's grouped queries
// with every other slot empty and the rest holding distinct values.
func TestDecodeCompactMatchesDense(t *testing.T) {
	surviving := map[string]int64{"part": 40, "date": 7, "customer": 10, "supplier": 10}
	eachSSBStar(t, func(name string, q *starQuery, outs []starOutput) {
		if len(q.keys) == 0 {
			return
		}
		dims, ngroups := benchDims(q, surviving)
		W := int64(1 + len(q.aggs))
		dense := groupRows{words: make([]uint64, ngroups*W), W: W}
		for g := int64(0); g < ngroups; g += 2 {
			for w := int64(0); w < W; w++ {
				dense.words[g*W+w] = uint64(g*W + w + 1)
			}
		}
		want, err := decodeStar(q, outs, dims, nil, dense, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeStar(q, outs, dims, nil, compactOnHost(dense), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want.Rows != int((ngroups+1)/2) {
			t.Fatalf("%s: %d rows from %d slots, every other one filled", name, want.Rows, ngroups)
		}
		if a, b := resultStrings(got), resultStrings(want); !slices.Equal(a, b) {
			t.Errorf("%s: compact decode differs from dense:\n%v\nwant\n%v", name, a[:min(5, len(a))], b[:min(5, len(b))])
		}
	})
}

// BenchmarkGroupCompact times a star whose dense group table is large and
// mostly empty — 50 quantities × every part key, one discount value of
// 11 and a third of the quantities kept — with the table compacted on the
// device and copied back whole (groupCompactOff), on SSB at
// GPUSQL_STEPS_SF (default 1). Reported: ms per query, the table's MB.
//
//	go test -tags cuda ./exec/gpu -run '^$' -bench GroupCompact -benchtime 20x
func BenchmarkGroupCompact(b *testing.B) {
	needGPU(b)
	sf := 1.0
	if v, err := strconv.ParseFloat(os.Getenv("GPUSQL_STEPS_SF"), 64); err == nil && v > 0 {
		sf = v
	}
	cat := ssbtest.Catalog(b, sf, PinnedAllocator())
	const sqlText = "select lo_partkey, lo_quantity, sum(lo_revenue) from lineorder where lo_discount = 4 and lo_quantity < 17 group by lo_partkey, lo_quantity"
	ps, err := sql.Parse(sqlText)
	if err != nil {
		b.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		b.Fatal(err)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	want, err := cpu.Run(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	for _, off := range []bool{false, true} {
		name := "compacted"
		if off {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			groupCompactOff.Store(off)
			defer groupCompactOff.Store(os.Getenv("GPUSQL_GROUP_COMPACT") == "off")
			got, err := Run(b.Context(), p) // warm
			if err != nil {
				b.Fatal(err)
			}
			if d := diffResults(got, want); d != "" {
				b.Fatalf("%s: %s", name, d)
			}
			start := time.Now()
			n := 0
			for b.Loop() {
				if _, err := Run(b.Context(), p); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(n), "ms/query")
		})
	}
}
