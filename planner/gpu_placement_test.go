package planner_test

import (
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Placement by budget on SSB Q1.1 (a star over lineorder): all resident
// under the default budget; the fact columns streamed, largest first, in
// the smallest width that holds them when the budget is small; the chunk
// shrunk to what fits; zero-copy when forced; an error naming the operator
// when even the working tables do not fit.
func TestGPUPlacement(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	var q *ssbtest.Query
	for _, x := range ssbtest.Queries(t, cat) {
		if x.Name == "Q1.1" {
			q = &x
		}
	}
	plan := func(budget int64, force planner.ColumnPlace) *planner.Physical {
		prof := h100(t)
		prof.MemoryBudget, prof.ForcePlace = budget, force
		p, err := planner.Plan(q.Query, planner.Options{GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	places := func(g *planner.GPUPlan) map[string]planner.GPUColumn {
		m := map[string]planner.GPUColumn{}
		for _, c := range g.Columns {
			m[c.Table+"."+c.Column] = c
		}
		return m
	}

	g := plan(0, "").GPU
	var factBytes int64
	for _, c := range g.Columns {
		if c.Place != planner.PlaceResident {
			t.Errorf("default budget: %s.%s %s", c.Table, c.Column, c.Place)
		}
		if c.Fact {
			factBytes += c.Bytes
		}
	}
	if g.Memory.NoFit != "" || g.Memory.Stream != nil {
		t.Errorf("default budget: %+v", g.Memory)
	}

	// Room for the working tables and about half the fact columns.
	budget := g.Memory.Working + g.Memory.Resident - factBytes/2
	p := plan(budget, "")
	g = p.GPU
	m := places(g)
	if m["lineorder.lo_orderdate"].Place != planner.PlaceStreamed || m["date.d_year"].Place != planner.PlaceResident {
		t.Errorf("half budget: %+v\n%s", g.Columns, p.Explain())
	}
	// The 1-byte codes stream first: they free 4 device bytes a row for
	// 1 byte a row of link time.
	if m["lineorder.lo_quantity"].Place != planner.PlaceStreamed || m["lineorder.lo_discount"].Place != planner.PlaceStreamed {
		t.Errorf("half budget: the 1-byte columns are not the first streamed: %+v", g.Columns)
	}
	if w := m["lineorder.lo_discount"].WireWidth; w != 1 {
		t.Errorf("lo_discount (0..10) sent in %d bytes", w)
	}
	if w := m["lineorder.lo_orderdate"].WireWidth; w != 4 {
		t.Errorf("lo_orderdate sent in %d bytes", w)
	}
	s := g.Memory.Stream
	if s == nil || s.ChunkRows%64 != 0 || s.ChunkRows < 64 || g.Memory.Resident+s.BufferBytes+g.Memory.Working > budget || g.Memory.NoFit != "" {
		t.Errorf("half budget: memory plan %+v stream %+v", g.Memory, s)
	}
	if ex := p.Explain(); !strings.Contains(ex, "streamed (") || !strings.Contains(ex, "fact table streamed in chunks of") {
		t.Errorf("EXPLAIN does not show the streaming:\n%s", ex)
	}

	g = plan(budget, planner.PlaceZeroCopy).GPU
	if c := places(g)["lineorder.lo_orderdate"]; c.Place != planner.PlaceZeroCopy || g.Memory.Stream != nil {
		t.Errorf("forced zero-copy: %+v %+v", c, g.Memory)
	}

	// Room for the working tables but not for 3 chunks of 64 rows.
	w := plan(0, "").GPU.Memory.Working
	if nf := plan(w+100, "").GPU.Memory.NoFit; !strings.Contains(nf, "even streamed") {
		t.Errorf("budget of the working tables + 100 B: NoFit %q", nf)
	}

	p = plan(1024, "")
	if nf := p.GPU.Memory.NoFit; !strings.Contains(nf, "HashJoin") && !strings.Contains(nf, "HashAggregate") || !strings.Contains(nf, "gpu_memory") {
		t.Errorf("1 KiB budget: NoFit %q\n%s", nf, p.Explain())
	}
	if !strings.Contains(p.Explain(), "does not fit:") {
		t.Errorf("EXPLAIN does not say it does not fit:\n%s", p.Explain())
	}
}

// A fact table of 2^31 rows or more streams in chunks whatever the budget
// (one launch covers fewer rows). The 3 G-row table here has statistics
// and no values: planning reads only the statistics.
func TestGPUPlacementPast2to31Rows(t *testing.T) {
	const rows = 3 << 30
	cat := catalog.New()
	fact := &columnar.Table{Name: "f", Rows: rows,
		Fields: []columnar.Field{{Name: "k", Type: columnar.TInt32}, {Name: "v", Type: columnar.TInt32}}}
	for c := range fact.Fields {
		fact.Columns = append(fact.Columns, &columnar.Column{Type: columnar.TInt32, Len: rows, I32: []int32{}})
		stats := make([]columnar.ChunkStats, fact.NumChunks())
		for k := range stats {
			stats[k] = columnar.ChunkStats{Min: 1, Max: int64(100 * (c + 1)), Distinct: 100}
		}
		fact.Stats = append(fact.Stats, stats)
	}
	dim := &columnar.Table{Name: "d", Rows: 100,
		Fields: []columnar.Field{{Name: "id", Type: columnar.TInt32}, {Name: "g", Type: columnar.TInt32}}}
	for range dim.Fields {
		c := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, 100, false)
		for i := range c.I32 {
			c.I32[i] = int32(i + 1)
		}
		dim.Columns = append(dim.Columns, c)
	}
	for _, tb := range []*columnar.Table{fact, dim} {
		if err := cat.Create(tb.Name, tb.Fields, false); err != nil {
			t.Fatal(err)
		}
		if err := cat.Update(tb.Name, func(*columnar.Table) (*columnar.Table, error) { return tb, nil }); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := sql.Parse("select g, sum(v) from f, d where k = id group by g")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{GPU: h100(t)})
	if err != nil {
		t.Fatal(err)
	}
	g := p.GPU
	if g.Star == nil {
		t.Fatalf("not a star: %s\n%s", g.NotStar, p.Explain())
	}
	for _, c := range g.Columns {
		if want := c.Table == "f"; (c.Place == planner.PlaceStreamed) != want {
			t.Errorf("%s.%s %s", c.Table, c.Column, c.Place)
		}
	}
	if s := g.Memory.Stream; s == nil || s.ChunkRows >= planner.GPUMaxLaunchRows || g.Memory.NoFit != "" {
		t.Errorf("memory plan %+v\n%s", g.Memory, p.Explain())
	}
}

// An operator-at-a-time join whose hash table passes the budget says so,
// naming the join and its estimated build rows.
func TestGPUPlacementJoinNoFit(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	ps, err := sql.Parse("select c_name, lo_revenue from lineorder join customer on lo_custkey = c_custkey where lo_discount = 1")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{0, 4 << 10} {
		prof := h100(t)
		prof.MemoryBudget = budget
		p, err := planner.Plan(st.(*sql.Query), planner.Options{Join: "hash", GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		g := p.GPU
		if g.Shape != planner.GPUOperatorsShape {
			t.Fatalf("shape %s\n%s", g.Shape, p.Explain())
		}
		nf := g.Memory.NoFit
		if budget == 0 && nf != "" || budget > 0 && !strings.Contains(nf, "the hash table of HashJoin") {
			t.Errorf("budget %d: NoFit %q\n%s", budget, nf, p.Explain())
		}
	}
}
