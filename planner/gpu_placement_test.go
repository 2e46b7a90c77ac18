package planner_test

import (
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
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

	p = plan(1024, "")
	if nf := p.GPU.Memory.NoFit; !strings.Contains(nf, "HashJoin") && !strings.Contains(nf, "HashAggregate") || !strings.Contains(nf, "gpu_memory") {
		t.Errorf("1 KiB budget: NoFit %q\n%s", nf, p.Explain())
	}
	if !strings.Contains(p.Explain(), "does not fit:") {
		t.Errorf("EXPLAIN does not say it does not fit:\n%s", p.Explain())
	}
}
