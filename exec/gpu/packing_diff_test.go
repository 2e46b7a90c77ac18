//go:build cuda

package gpu

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Bit-packed fact columns (planner/gpu_packing.go, column_pack.go,
// kernels/common.cuh load_packed) give the rows of the 4-byte form: the
// SSB and general differentials with packing off and on, and packed
// columns through the star kernel at their edges (NULLs, negative values,
// 32 bits, constants, sizes off the tile, an empty table).

// packingModes are the plans compared: packing off, on, forced (every
// fact column the kernel reads packed, 32 bits included), and sent packed
// and unpacked on the device (forced: small tables too), narrowed where
// the values fit 1 or 2 bytes (forced: whatever the budget), or read in
// place while cold and loaded behind (column_in_place.go; forced: every
// column sent packed), or copied cold in their run-length form
// (column_unpack.go; forced: every column whose runs the statistics
// count, whatever that saves).
var packingModes = []packingMode{{name: "packing-off", off: true}, {name: "packing-on"},
	{name: "packing-forced", force: true}, {name: "packing-transfer", force: true, transfer: true, narrow: true},
	{name: "packing-in-place", force: true, transfer: true, inPlace: true},
	{name: "packing-runs", force: true, transfer: true, runs: true}}

type packingMode struct {
	name                                        string
	off, force, transfer, narrow, inPlace, runs bool
}

// withPacking returns a copy of p planned for the device with packing set
// as mode m says.
func withPacking(t testing.TB, p *planner.Physical, m packingMode) *planner.Physical {
	t.Helper()
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof.Packing, prof.ForcePacking, prof.PackTransfer, prof.ForceNarrow = !m.off && !m.transfer, m.force, m.transfer, m.narrow
	prof.ForceColdInPlace = m.inPlace
	prof.ForceRunTransfer, prof.ColdCopies = m.runs, m.runs
	cp := *p
	cp.GPU = planner.PlanGPU(p, prof)
	return &cp
}

// runPacking runs p as mode m plans it; for a packed transfer, after
// dropping every cached column, so that the columns come through the
// packed transfer and not from an earlier plan's 4-byte entries.
func runPacking(t testing.TB, p *planner.Physical, m packingMode) (*exec.Result, error) {
	if m.transfer {
		if err := DropColumnCache(); err != nil {
			t.Fatal(err)
		}
	}
	return Run(context.Background(), p)
}

func sentAsRuns(c planner.GPUColumn) bool {
	return c.Packing != nil && c.Packing.RunBytes > 0 && !c.Packing.ColdInPlace
}

func packedColumns(g *planner.GPUPlan) int {
	return countColumns(g, func(c planner.GPUColumn) bool { return c.Packing != nil })
}

// countColumns counts the columns of g that have.
func countColumns(g *planner.GPUPlan, has func(planner.GPUColumn) bool) int {
	n := 0
	for _, c := range g.Columns {
		if has(c) {
			n++
		}
	}
	return n
}

// eachSSBPlan calls f with each SSB query's CPU plan and the CPU's answer,
// over tables in the Go heap and in pinned memory (SF 0.05).
func eachSSBPlan(t *testing.T, f func(name string, base *planner.Physical, want *exec.Result)) {
	for _, alloc := range []columnar.Allocator{columnar.HeapAllocator, PinnedAllocator()} {
		cat := ssbtest.Catalog(t, 0.05, alloc)
		for _, q := range ssbtest.Queries(t, cat) {
			base, want := cpuPlanAndAnswer(t, q)
			f(q.Name, base, want)
		}
	}
}

// cpuPlanAndAnswer is q's CPU plan and the CPU's answer.
func cpuPlanAndAnswer(t testing.TB, q ssbtest.Query) (*planner.Physical, *exec.Result) {
	t.Helper()
	base, err := planner.Plan(q.Query, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := cpu.Run(context.Background(), base)
	if err != nil {
		t.Fatalf("%s cpu: %v", q.Name, err)
	}
	return base, want
}

func TestSSBDifferentialPacking(t *testing.T) {
	d := needGPU(t)
	eachSSBPlan(t, func(name string, base *planner.Physical, want *exec.Result) {
		for _, m := range packingModes {
			p := withPacking(t, base, m)
			if packed := packedColumns(p.GPU); (packed > 0) == m.off || p.GPU.Star == nil {
				t.Errorf("%s %s: %d packed columns, star %v\n%s", name, m.name, packed, p.GPU.Star != nil, p.Explain())
			}
			runs := int64(countColumns(p.GPU, sentAsRuns))
			if m.runs && runs == 0 {
				t.Errorf("%s %s: no column copied as runs\n%s", name, m.name, p.Explain())
			}
			before := runCopies.Load()
			eachTuningQuiet(func(tu tuning) {
				got, err := runPacking(t, p, m)
				if err != nil {
					t.Errorf("%s %s %s: %v\n%s", name, m.name, tu, err, p.Explain())
					return
				}
				if diff := diffResults(got, want); diff != "" {
					t.Errorf("%s %s %s: %s\n%s", name, m.name, tu, diff, p.Explain())
				}
			})
			if n := runCopies.Load() - before; m.runs && n < runs {
				t.Errorf("%s %s: %d columns copied as runs, the plan copies %d so a run", name, m.name, n, runs)
			}
			// The packed and narrow forms are cache entries of their own,
			// of the planned size; a column sent packed and not narrowed
			// is cached in its 4-byte form.
			for _, c := range p.GPU.Columns {
				if c.Packing == nil && c.Narrow == nil {
					continue
				}
				d.do(func() error {
					checkCachedForm(t, d, name+" "+m.name, c)
					return nil
				})
			}
		}
	})
}

func TestGeneralDifferentialPacking(t *testing.T) {
	needGPU(t)
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	for _, text := range generalQueries {
		ps, err := sql.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		base, err := planner.Plan(st.(*sql.Query), planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := cpu.Run(context.Background(), base)
		if err != nil {
			t.Fatalf("%s cpu: %v", text, err)
		}
		for _, m := range packingModes {
			p := withPacking(t, base, m)
			got, err := runPacking(t, p, m)
			if errors.Is(err, ErrUnsupported) {
				continue
			}
			if err != nil {
				t.Errorf("%s %s: %v\n%s", text, m.name, err, p.Explain())
				continue
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("%s %s: %s\n%s", text, m.name, d, p.Explain())
			}
		}
	}
}

// packedEdgeDB is edgeDB's fact and dimension tables with statistics (the
// plan packs from them) and two more fact columns: c, one value, and x,
// values over the whole int32 range (32 bits, packed only when forced).
func packedEdgeDB(n, ndim int, nulls float64, dup bool, seed uint64) (*columnar.Table, *columnar.Table) {
	f, d := edgeDB(n, ndim, nulls, 1, dup, seed)
	r := rand.New(rand.NewPCG(seed, 9))
	c := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, false)
	x := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, false)
	for i := 0; i < n; i++ {
		c.I32[i] = -42
		x.I32[i] = int32(r.Uint32())
		if i%977 == 0 {
			x.I32[i] = math.MinInt32
		}
	}
	f.Fields = append(f.Fields, columnar.Field{Name: "c", Type: columnar.TInt32}, columnar.Field{Name: "x", Type: columnar.TInt32})
	f.Columns = append(f.Columns, c, x)
	f.Stats = append(f.Stats, nil, nil)
	columnar.ComputeStats(f)
	columnar.ComputeStats(d)
	return f, d
}

func TestPackedStarEdgeCases(t *testing.T) {
	needGPU(t)
	cases := []struct {
		name    string
		n, ndim int
		nulls   float64
		dup     bool // duplicate dimension keys: the operator-at-a-time fallback
	}{
		{"empty", 0, 10, 0, false},
		{"one-row", 1, 3, 0, false},
		{"tile-minus-one", 256*8 - 1, 50, 0, false},
		{"chunk-plus-one", 4097, 20, 0.1, false},
		{"nulls", 70001, 40, 0.2, false},
		{"larger", 300001, 1000, 0.01, false},
		{"dup-keys-fallback", 9001, 20, 0.1, true},
	}
	for _, c := range cases {
		f, d := packedEdgeDB(c.n, c.ndim, c.nulls, c.dup, uint64(c.n)+1)
		plans := edgePlans(f, d)
		{
			s := scanOf(f, "k", "g", "v", "w", "c", "x")
			fl := filterOf(s, cmpOp(sql.OpGT, ref(s, "x"), -1_000_000_000))
			plans["wide-and-constant"] = &planner.Physical{Root: aggOf(fl, []string{"c", "g"}, sumOf(ref(fl, "x")), countStar(),
				sql.AggExpr{Func: sql.AggMin, Arg: ref(fl, "x"), T: columnar.TInt32}, sql.AggExpr{Func: sql.AggMax, Arg: ref(fl, "x"), T: columnar.TInt32})}
			j := joinOf(scanOf(f, "k", "g", "v", "w", "c", "x"), scanOf(d, "dk", "da", "ds"), "k", "dk")
			plans["join-wide"] = &planner.Physical{Root: aggOf(j, []string{"ds"}, sumOf(ref(j, "x")), sumOf(ref(j, "c")))}
		}
		for _, m := range packingModes[1:] {
			packed := map[string]*planner.Physical{}
			narrowed := 0
			for name, base := range plans {
				p := withPacking(t, base, m)
				if p.GPU.Star != nil && packedColumns(p.GPU) == 0 {
					t.Errorf("%s/%s %s: no packed column\n%s", c.name, name, m.name, p.Explain())
				}
				narrowed += narrowColumns(p.GPU)
				packed[name] = p
			}
			if m.narrow && c.n >= 16 && narrowed == 0 { // below 16 rows the 16-byte padding outweighs 4 bytes a row
				t.Errorf("%s %s: no plan narrows a column", c.name, m.name)
			}
			eachTuning(t, func(t *testing.T) {
				for name, p := range packed {
					t.Run(c.name+"/"+name+"/"+m.name, func(t *testing.T) {
						if m.transfer {
							if err := DropColumnCache(); err != nil {
								t.Fatal(err)
							}
						}
						checkPlan(t, name, p)
						if m.inPlace {
							checkPlan(t, name+" loaded behind", p) // the 4-byte forms the cold run left
						}
					})
				}
			})
		}
	}
}

// checkCachedForm checks that column c of a plan that ran is cached in
// the form and size the plan gives it.
func checkCachedForm(t *testing.T, d *device, name string, c planner.GPUColumn) {
	t.Helper()
	e, ok := d.cache.m[cacheKey{c.Col, planForm(c)}]
	if !ok || e.bytes-8*int64(len(c.Col.Valid)) != c.Bytes {
		t.Errorf("%s: %s.%s not cached as planned, %d bytes (entry %v)", name, c.Table, c.Column, c.Bytes, ok)
		return
	}
	switch planForm(c) {
	case formNarrow:
		if e.width != c.Narrow.Width || e.narrow == nil {
			t.Errorf("%s: %s.%s cached %d bytes a value, want narrow %d", name, c.Table, c.Column, e.width, c.Narrow.Width)
		}
	case formPacked:
		if e.packing == nil || e.packing.Bits != c.Packing.Bits {
			t.Errorf("%s: %s.%s not cached packed in %d bits", name, c.Table, c.Column, c.Packing.Bits)
		}
	default:
		if e.width != 4 || e.packing != nil {
			t.Errorf("%s: %s.%s sent packed not cached in 4 bytes a row", name, c.Table, c.Column)
		}
	}
}
