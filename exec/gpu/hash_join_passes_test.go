//go:build cuda

package gpu

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Hash joins forced into 2, 4 and 16 passes (scattered once, or re-read
// each pass) give the CPU executor's rows on the same plan: inner, left,
// semi, anti and NOT IN joins, one and two keys, a residual, NULL keys on
// both sides, duplicate keys on both sides, one key on most build rows,
// empty inputs, row counts that are not multiples of the block.
var passQueries = []string{
	"select pl.v, pb.w from pl join pb on pl.k = pb.k",
	"select pl.v, pb.w from pl left join pb on pl.k = pb.k",
	"select v from pl where exists (select 1 from pb where pb.k = pl.k)",
	"select v from pl where not exists (select 1 from pb where pb.k = pl.k)",
	"select v from pl where k not in (select k from pb where k is not null and w > 100)",
	"select v from pl where k not in (select k from pb)",
	"select pl.v, pb.w from pl join pb on pl.k = pb.k and pl.s = pb.s",
	"select pl.v, pb.w from pl join pb on pl.k = pb.k and pl.v < pb.w",
	"select pl.v, pu.w from pl join pu on pl.k = pu.k",
	"select pl.v, pe.w from pl join pe on pl.k = pe.k",
	"select pl.v, pe.w from pl left join pe on pl.k = pe.k",
	"select pe.v, pb.w from pe join pb on pe.k = pb.k",
	"select v from pl where exists (select 1 from pe where pe.k = pl.k)",
}

// passFoldQueries are aggregates over a partitioned inner join, folded
// pass by pass: COUNT, SUM, MIN, MAX of both sides, a filter and a
// residual between, strings, expressions above, an empty side, GROUP BY a
// column, an expression, a CASE with NULL groups.
var passFoldQueries = []string{
	"select count(*), sum(pb.w), min(pl.v), max(pb.w), count(pb.w) from pl join pb on pl.k = pb.k",
	"select count(*), sum(pl.v) from pl join pb on pl.k = pb.k where pl.v + pb.w > 500",
	"select min(pl.s), max(pb.s), count(*) from pl join pb on pl.k = pb.k and pl.v < pb.w",
	"select count(*), sum(pe.w), max(pl.s) from pl join pe on pl.k = pe.k",
	"select count(*) + 1, max(pb.w) - min(pl.v) from pl join pu on pl.k = pu.k join pb on pl.k = pb.k",
	"select pl.s, count(*), sum(pb.w), min(pb.s), max(pl.v) from pl join pb on pl.k = pb.k group by pl.s",
	"select pb.v % 7, count(*), sum(pl.w) from pl join pb on pl.k = pb.k group by pb.v % 7",
	"select case when pl.v < 100 then null else pl.v % 3 end, count(pb.w), min(pb.v) from pl join pb on pl.k = pb.k group by 1",
	// (a residual keeps it out of the star pipeline, which an equi-join
	// grouped by a dimension column would take)
	"select pe.s, count(*) from pl join pe on pl.k = pe.k and pl.v < pe.w group by pe.s",
}

func TestJoinPassesDifferential(t *testing.T) {
	needGPU(t)
	cat := passCatalog(t)
	for _, text := range append(passQueries, passFoldQueries...) {
		fold := slices.Contains(passFoldQueries, text)
		p := planPassQuery(t, cat, text)
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s cpu: %v", text, err)
		}
		for _, c := range []struct {
			passes int
			reread bool
		}{{2, false}, {4, true}, {16, false}, {16, true}} {
			prof, _ := DeviceProfile()
			prof.ForceJoinPasses, prof.ForceJoinReread = c.passes, c.reread
			g := planner.PlanGPU(p, prof)
			if len(g.JoinPasses) == 0 || g.Refused != "" {
				t.Errorf("%s: no partitioned join (refused %q)", text, g.Refused)
			}
			folded := false
			for _, jp := range g.JoinPasses {
				folded = folded || jp.Consumer != nil
			}
			if folded != fold {
				t.Errorf("%s: folded by an aggregate %v, want %v", text, folded, fold)
			}
			p.GPU = g
			got, err := Run(context.Background(), p)
			explain := p.Explain()
			p.GPU = nil
			if err != nil {
				t.Errorf("%s %+v: %v\n%s", text, c, err, explain)
				continue
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("%s %+v: %s\n%s", text, c, d, explain)
			}
			if fold && !strings.Contains(text, "pe") && joinPassStats.folded == 0 {
				t.Errorf("%s %+v: no pass folded", text, c)
			}
		}
	}
}

// A budget below the one-pass table makes the planner choose the passes;
// each pass then holds less device memory than the budget (the pool's
// accounting of the pass's allocations), and the answer is the CPU's.
func TestJoinPassesWithinBudget(t *testing.T) {
	needGPU(t)
	cat := passCatalog(t)
	const text = "select pl.v, pu.w from pl join pu on pl.k = pu.k"
	p := planPassQuery(t, cat, text)
	want, err := cpu.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{256 << 10, 96 << 10} {
		prof, _ := DeviceProfile()
		prof.MemoryBudget = budget
		g := planner.PlanGPU(p, prof)
		var jp *planner.GPUJoinPasses
		for _, x := range g.JoinPasses {
			jp = x
		}
		if jp == nil || jp.Passes < 2 || g.Memory.NoFit != "" || g.Refused != "" {
			t.Fatalf("budget %d: passes %+v, no fit %q, refused %q", budget, jp, g.Memory.NoFit, g.Refused)
		}
		p.GPU = g
		got, err := Run(context.Background(), p)
		explain := p.Explain()
		p.GPU = nil
		if err != nil {
			t.Fatalf("budget %d: %v\n%s", budget, err, explain)
		}
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Errorf("budget %d: %s\n%s", budget, d, explain)
		}
		st := joinPassStats
		t.Logf("budget %d: %d passes planned (%s), %d ran, peak %d bytes a pass", budget, jp.Passes, map[bool]string{true: "scatter", false: "re-read"}[jp.Scatter], st.passes, st.peakPassBytes)
		if st.passes < 2 || st.peakPassBytes > budget {
			t.Errorf("budget %d: %d passes ran, a pass held %d bytes", budget, st.passes, st.peakPassBytes)
		}
	}
}

// PartParams in join_partition.cu and partParams agree byte for byte.
func TestJoinPartitionParamLayout(t *testing.T) {
	d := needGPU(t)
	var got int64
	err := d.do(func() error {
		f, err := d.fn("join_part_params_size")
		if err != nil {
			return err
		}
		out, err := d.pool.get(8)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&got), out, 8)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != int64(unsafe.Sizeof(partParams{})) {
		t.Errorf("PartParams is %d bytes, partParams %d", got, unsafe.Sizeof(partParams{}))
	}
}

func planPassQuery(t *testing.T, cat *catalog.Catalog, text string) *planner.Physical {
	t.Helper()
	ps, err := sql.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{Join: "hash"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// passCatalog: probe table pl (10,037 rows), build tables pb (5,003 rows,
// 70% of them on one key), pu (20,011 rows, keys spread) and pe (empty),
// in pinned memory. Keys are BIGINTs spread over a range too wide for a
// bitmap, NULL on about 1 row in 13; pl and pb share some keys, and each
// has keys the other lacks.
func passCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	alloc := PinnedAllocator()
	cat := catalog.New()
	svals := []string{"a", "b", "c", "d"}
	for _, spec := range []struct {
		name string
		n    int
		key  func(h int) int64
	}{
		{"pl", 10_037, func(h int) int64 { return int64(h%3001) * 1_000_000_007 }},
		{"pb", 5_003, func(h int) int64 {
			if h%10 < 7 {
				return 7 * 1_000_000_007
			}
			return int64(h%4001) * 1_000_000_007
		}},
		{"pu", 20_011, func(h int) int64 { return int64(h%12007) * 1_000_000_007 }},
		{"pe", 0, nil},
	} {
		tb := newTable(alloc, spec.name, spec.n, []colSpec{{"k", columnar.TInt64}, {"v", columnar.TInt32}, {"w", columnar.TInt32}, {"s", columnar.TString}})
		tb.Columns[0] = columnar.NewColumnIn(alloc, columnar.TInt64, spec.n, true)
		codes := make([]int, spec.n)
		for i := range spec.n {
			h := int(splitmix64(uint64(i)+uint64(spec.name[1])<<40) % 1_000_003)
			tb.Columns[0].I64[i] = spec.key(h)
			if h%13 != 0 {
				tb.Columns[0].SetValid(i)
			}
			tb.Columns[1].I32[i] = int32(h % 1000)
			tb.Columns[2].I32[i] = int32(h / 7 % 1000)
			codes[i] = h % len(svals)
		}
		setDict(tb, "s", svals, codes)
		if err := cat.Create(tb.Name, tb.Fields, false); err != nil {
			t.Fatal(err)
		}
		if err := cat.Update(tb.Name, func(*columnar.Table) (*columnar.Table, error) { return tb, nil }); err != nil {
			t.Fatal(err)
		}
	}
	return cat
}
