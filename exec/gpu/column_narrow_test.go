//go:build cuda

package gpu

import (
	"context"
	"strings"
	"testing"

	"gpusql/planner"
	"gpusql/sql"
)

// narrowColumns counts the columns g narrows.
func narrowColumns(g *planner.GPUPlan) int {
	return countColumns(g, func(c planner.GPUColumn) bool { return c.Narrow != nil })
}

// A narrow column's device form reads back as its values through every
// star kernel shape (1-byte g, negative values; 2-byte v; NULLs; two
// statistics chunks, the second partial), is cached narrow with the
// 4-byte form it was made from dropped, and a column whose statistics no
// longer describe it fails the query naming it rather than answer wrong.
func TestNarrowColumns(t *testing.T) {
	d := needGPU(t)
	f, _ := packedEdgeDB(70001, 40, 0.2, false, 5)
	s := scanOf(f, "g", "v")
	fl := filterOf(s, cmpOp(sql.OpGT, ref(s, "g"), -2))
	base := &planner.Physical{Root: aggOf(fl, []string{"g"}, sumOf(ref(fl, "v")), countStar())}
	narrow := packingMode{name: "narrow", transfer: true, narrow: true}
	p := withPacking(t, base, narrow)
	if narrowColumns(p.GPU) != 2 {
		t.Fatalf("want g and v narrow:\n%s", p.Explain())
	}
	eachTuning(t, func(t *testing.T) {
		if err := DropColumnCache(); err != nil {
			t.Fatal(err)
		}
		checkPlan(t, "narrow", p)
		d.do(func() error {
			for _, c := range p.GPU.Columns {
				checkCachedForm(t, d, "narrow", c)
				if e, ok := d.cache.m[cacheKey{c.Col, formWhole}]; ok && c.Narrow != nil {
					t.Errorf("%s.%s: the 4-byte form (%d bytes) kept beside the narrow one", c.Table, c.Column, e.bytes)
				}
			}
			return nil
		})
	})

	g := f.Columns[1]
	i := 70000
	for g.IsNull(i) {
		i--
	}
	old := g.I32[i]
	g.I32[i] = old + 1000 // past its chunk's 1-byte range; the statistics not recomputed
	defer func() { g.I32[i] = old }()
	if err := DropColumnCache(); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "f.g") || !strings.Contains(err.Error(), "statistics do not describe") {
		t.Fatalf("stale statistics: got %v, want an error naming f.g", err)
	}
}
