package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

func h100(t *testing.T) *planner.GPUProfile {
	p, err := planner.LookupGPUProfile("H100")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every SSB query is a fused star pipeline under every hash-join strategy,
// whatever side the CPU plan builds; its tail runs on the host.
func TestGPUPlanSSBStars(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	for _, q := range ssbtest.Queries(t, cat) {
		for _, o := range []planner.Options{{}, {Join: "hash", GroupBy: "hash"}, {Join: "hash", GroupBy: "dense"}} {
			o.GPU = h100(t)
			p, err := planner.Plan(q.Query, o)
			if err != nil {
				t.Fatal(err)
			}
			g := p.GPU
			if g == nil || g.Shape != planner.GPUStarShape || g.Refused != "" {
				t.Errorf("%s %+v: not a star: %+v\n%s", q.Name, o, g, p.Explain())
				continue
			}
			if g.TailOn != planner.TailHost && g.TailOn != planner.TailNone {
				t.Errorf("%s: tail on %s", q.Name, g.TailOn)
			}
			for _, d := range g.Star.Dims {
				if !d.Build.Direct {
					t.Errorf("%s: %s builds a %s; SSB keys are dense", q.Name, d.Scan.Table.Name, d.Build)
				}
			}
		}
	}
}

// The GPU plan's choices on a hand-made star: probe order by selectivity,
// a hash table where the key range is sparse, the group-table layout, a
// HAVING tail handed to the CPU executor, and the split that runs it.
func TestGPUPlanChoices(t *testing.T) {
	e := starEnv(t)
	e.table("create table sparse (id bigint, tag int)", 100, func(i int) string {
		return fmt.Sprintf("%d|%d", int64(i)*1000003, i%3)
	})
	p := e.plan(`select cat, year, sum(v) from fact, dim1, dim4, sparse
		where d1 = dim1.id and d4 = dim4.id and d2 = sparse.id and year < 1995
		group by cat, year having sum(v) > 10 order by cat`, planner.Options{GPU: h100(t)})
	g := p.GPU
	if g.Shape != planner.GPUStarShape {
		t.Fatalf("shape %s (%s)\n%s", g.Shape, g.NotStar, p.Explain())
	}
	builds := map[string]planner.GPUBuild{}
	for _, d := range g.Star.Dims {
		builds[d.Scan.Table.Name] = d.Build
	}
	if b := builds["sparse"]; b.Direct || b.Capacity != 256 {
		t.Errorf("sparse keys: %s, want a 256-slot hash table", b)
	}
	if b := builds["dim1"]; !b.Direct || b.KeyMin != 0 || b.Span != 1000 {
		t.Errorf("dim1: %s, want direct array [0..999]", b)
	}
	if first := g.Star.Dims[0].Scan.Table.Name; first != "dim4" {
		t.Errorf("probes %s first, want dim4 (the filtered one)", first)
	}
	if g.TailOn != planner.TailCPU {
		t.Errorf("HAVING tail on %q, want the CPU executor", g.TailOn)
	}
	cp, err := g.CPUTailPlan(0, make([]*columnar.Column, len(g.Body.Schema())), p.Names)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cp.Root.(*planner.Sort); !ok {
		t.Errorf("CPU tail root %T", cp.Root)
	}
	text := p.Explain()
	for _, want := range []string{"GPU plan (h100", "fused star pipeline", "hash table (256 slots)", "then on the CPU executor: Filter#"} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
}

// Not every aggregate is a star: the reason is in the plan, and the body
// runs operator at a time.
func TestGPUPlanNotStar(t *testing.T) {
	e := starEnv(t)
	p := e.plan("select count(distinct d2) from fact, dim1 where d1 = dim1.id", planner.Options{GPU: h100(t)})
	if g := p.GPU; g.Shape != planner.GPUOperatorsShape || !strings.Contains(g.NotStar, "DISTINCT") || len(g.Ops) == 0 {
		t.Errorf("%+v\n%s", g, p.Explain())
	}
	p = e.plan("select v from fact where d1 < 5 order by v limit 3", planner.Options{GPU: h100(t)})
	if g := p.GPU; g.Shape != planner.GPUOperatorsShape || len(g.Tail) != 0 {
		t.Errorf("top-n: shape %s tail %d\n%s", g.Shape, len(g.Tail), p.Explain())
	}
	p = e.plan("select v + 1 from fact where d1 < 5", planner.Options{GPU: h100(t)})
	if g := p.GPU; g.Shape != planner.GPUSelectShape {
		t.Errorf("filtered scan: shape %s\n%s", g.Shape, p.Explain())
	}
}

func TestGroupLayoutFor(t *testing.T) {
	prof := h100(t)
	for _, c := range []struct {
		groups, width int64
		layout        planner.GPUGroupLayout
		replicas      int
	}{
		{1, 2, planner.GroupRegisters, 0},
		{7, 2, planner.GroupSharedReplicated, 32},
		{280, 2, planner.GroupSharedReplicated, 7},
		{1500, 2, planner.GroupShared, 1}, // 24 KB: one copy fits the replica budget
		{4000, 2, planner.GroupShared, 1}, // 64 KB
		{8008, 2, planner.GroupGlobal, 0}, // 128 KB > 96 KB
		{100000, 3, planner.GroupGlobal, 0},
	} {
		l, r := planner.GroupLayoutFor(prof, c.groups, c.width)
		if l != c.layout || r != c.replicas {
			t.Errorf("%d groups × %d: %s/%d, want %s/%d", c.groups, c.width, l, r, c.layout, c.replicas)
		}
	}
	small := *prof
	small.SharedPerBlock = 48 << 10
	if l, _ := planner.GroupLayoutFor(&small, 4000, 2); l != planner.GroupGlobal {
		t.Errorf("64 KB table with 48 KB per block: %s", l)
	}
}

func TestLookupGPUProfile(t *testing.T) {
	p, err := planner.LookupGPUProfile("h200")
	if err != nil || p.GlobalMemory != 141<<30 || p.SMs != 132 {
		t.Errorf("h200: %+v %v", p, err)
	}
	if _, err := planner.LookupGPUProfile("a100x"); err == nil || !strings.Contains(err.Error(), "h100, h200") {
		t.Errorf("unknown profile: %v", err)
	}
}
