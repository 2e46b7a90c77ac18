//go:build cuda

package gpu

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Every column placement gives the CPU executor's rows: all resident, the
// fact table streamed in chunks (a last partial chunk, narrowed 1- and
// 2-byte codes, 8-byte values, NULLs in fact and group columns, an empty
// fact table), and zero-copy reads of pinned host memory (columns with
// NULLs included), each forced by a small GPU memory budget and the
// profile's test hook; a budget below the working tables stops with an
// error naming the operator, not a CPU run.
var placementQueries = []string{
	"select cat, g, count(*), sum(v), min(w), max(x), count(v) from f, d1 where k1 = d1.id group by cat, g",
	"select yr, sum(v - g), sum(w), count(*) from f, d1, d2 where k1 = d1.id and k2 = d2.id and cat <> 'c3' group by yr",
	"select count(*), sum(v), max(w) from f where g between 2 and 5 and v is not null",
	"select s, sum(x), count(x) from f where x > 0.25 group by s",
	"select g, count(*) from f where v + g > 100 group by g",
	"select cat, count(*), sum(v) from f0, d1 where f0.k1 = d1.id group by cat",
	"select count(*), sum(v) from f0",
	"select k1, v, s from f where g = 3",
}

func TestPlacementDifferential(t *testing.T) {
	dev := needGPU(t)
	cat := placementCatalog(t, 10_037)
	for _, text := range placementQueries {
		ps, err := sql.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		p, err := planner.Plan(st.(*sql.Query), planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s cpu: %v", text, err)
		}
		for _, place := range []planner.ColumnPlace{planner.PlaceResident, planner.PlaceStreamed, planner.PlaceZeroCopy} {
			prof, _ := DeviceProfile()
			g := planner.PlanGPU(p, prof)
			if place != planner.PlaceResident {
				prof.MemoryBudget, prof.ForcePlace = chunkBudget(g, 320), place
				g = planner.PlanGPU(p, prof)
				if g.Memory.Stream != nil && g.Memory.Stream.ChunkRows > 320 {
					t.Errorf("%s: chunks of %d rows", text, g.Memory.Stream.ChunkRows)
				}
			}
			p.GPU = g
			explain := p.Explain()
			if !placed(g, place) {
				if place == planner.PlaceStreamed && g.Star == nil {
					continue // only a star's fact table streams
				}
				t.Errorf("%s: no column %s:\n%s", text, place, explain)
			}
			got, err := Run(context.Background(), p)
			p.GPU = nil
			if err != nil {
				t.Errorf("%s %s: %v\n%s", text, place, err, explain)
				continue
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("%s %s: %s\n%s", text, place, d, explain)
			}
			// A streamed star ran chunk by chunk, not as the operator-at-a-
			// time fallback.
			if s := g.Memory.Stream; place == planner.PlaceStreamed && s != nil {
				rows := int64(g.Star.Fact.Table.Rows)
				if want := int((rows + s.ChunkRows - 1) / s.ChunkRows); dev.chunks != want {
					t.Errorf("%s: %d chunked launches, want %d", text, dev.chunks, want)
				}
			}
		}
	}
}

// A budget that fits no plan is an error naming the operator and the
// memory it needs, never a CPU run.
func TestPlacementNoFit(t *testing.T) {
	needGPU(t)
	cat := placementCatalog(t, 1000)
	ps, _ := sql.Parse(placementQueries[0])
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prof, _ := DeviceProfile()
	prof.MemoryBudget = 100
	p.GPU = planner.PlanGPU(p, prof)
	_, err = Run(context.Background(), p)
	if err == nil || errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "gpu_memory") || !strings.Contains(err.Error(), "need ") {
		t.Errorf("100-byte budget: %v", err)
	}
}

// chunkBudget is a budget that keeps the working tables and the
// non-fact columns and streams the fact table in chunks of about rows (a
// star), or the working tables and the validity bitmaps (other plans).
func chunkBudget(g *planner.GPUPlan, rows int64) int64 {
	b := g.Memory.Working
	for _, c := range g.Columns {
		if g.Star == nil {
			b += 8 * int64(len(c.Col.Valid))
			continue
		}
		if !c.Fact {
			b += c.Bytes
		} else {
			b += 8*int64(len(c.Col.Valid)) + int64(planner.GPUStreams)*rows*int64(c.WireWidth)
		}
	}
	return b
}

func placed(g *planner.GPUPlan, place planner.ColumnPlace) bool {
	for _, c := range g.Columns {
		if c.Place == place {
			return true
		}
	}
	return false
}

// placementCatalog makes fact tables f (n rows) and f0 (empty) over
// dimensions d1 and d2, in pinned host memory, with NULLs in the fact's
// keys, group column and values; codes that fit 1 byte (g, k1, s), 2
// bytes (k2 scaled), values needing 4 (v) and 8 bytes (w), a DOUBLE (x).
func placementCatalog(t *testing.T, n int) *catalog.Catalog {
	t.Helper()
	alloc := PinnedAllocator()
	cat := catalog.New()
	add := func(tb *columnar.Table) {
		if err := cat.Create(tb.Name, tb.Fields, false); err != nil {
			t.Fatal(err)
		}
		if err := cat.Update(tb.Name, func(*columnar.Table) (*columnar.Table, error) { return tb, nil }); err != nil {
			t.Fatal(err)
		}
	}
	cats := []string{"c0", "c1", "c2", "c3", "c4", "c5", "c6"}
	d1 := newTable(alloc, "d1", 50, []colSpec{{"id", columnar.TInt32}, {"cat", columnar.TString}})
	codes := make([]int, 50)
	for i := range 50 {
		d1.Columns[0].I32[i], codes[i] = int32(i+1), i%len(cats)
	}
	setDict(d1, "cat", cats, codes)
	add(d1)
	d2 := newTable(alloc, "d2", 20, []colSpec{{"id", columnar.TInt32}, {"yr", columnar.TInt32}})
	for i := range 20 {
		d2.Columns[0].I32[i], d2.Columns[1].I32[i] = int32(1000*i), int32(1990+i%7)
	}
	add(d2)
	for _, size := range []int{n, 0} {
		name := "f"
		if size == 0 {
			name = "f0"
		}
		add(factTable(alloc, name, size))
	}
	return cat
}

func factTable(alloc columnar.Allocator, name string, n int) *columnar.Table {
	specs := []colSpec{{"k1", columnar.TInt32}, {"k2", columnar.TInt32}, {"g", columnar.TInt32},
		{"v", columnar.TInt64}, {"w", columnar.TInt64}, {"x", columnar.TFloat64}, {"s", columnar.TString}}
	f := newTable(alloc, name, n, specs)
	for _, c := range []int{0, 2, 3, 5} {
		f.Columns[c] = columnar.NewColumnIn(alloc, specs[c].t, n, true)
	}
	svals := []string{"apple", "kiwi", "lime", "plum"}
	scodes := make([]int, n)
	for i := range n {
		h := int(splitmix64(uint64(i)) % 1_000_003)
		f.Columns[1].I32[i] = int32(1000 * (h % 23)) // 20, 21, 22 match no d2 row
		f.Columns[4].I64[i] = int64(h)<<33 - int64(i)
		scodes[i] = h % len(svals)
		for _, c := range []int{0, 2, 3, 5} {
			if (h>>c)%11 == 0 {
				continue // NULL
			}
			f.Columns[c].SetValid(i)
		}
		f.Columns[0].I32[i] = int32(h%53 + 1) // 51..53 match no d1 row
		f.Columns[2].I32[i] = int32(h % 10)
		f.Columns[3].I64[i] = int64(h%100_000) - 20_000
		f.Columns[5].F64[i] = float64(h%1000) / 1000
	}
	setDict(f, "s", svals, scodes)
	return f
}

// Narrowed copies past the keep bound are dropped, but never those the
// running query streams already: with a bound of one byte every copy
// overflows it, and each streamed query still equals the CPU's answer
// (a 3 G-row table's third narrowed column once freed the first two under
// the query reading them).
func TestStreamedNarrowEviction(t *testing.T) {
	needGPU(t)
	defer func(v int64) { narrowKeep = v }(narrowKeep)
	narrowKeep = 1
	cat := placementCatalog(t, 10_037)
	for _, text := range placementQueries[:5] {
		ps, err := sql.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.Plan(st.(*sql.Query), planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		prof, _ := DeviceProfile()
		prof.Devices = nil
		g := planner.PlanGPU(p, prof)
		prof.MemoryBudget, prof.ForcePlace = chunkBudget(g, 320), planner.PlaceStreamed
		p.GPU = planner.PlanGPU(p, prof)
		got, err := Run(context.Background(), p)
		p.GPU = nil
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Errorf("%s: %s", text, d)
		}
	}
}
