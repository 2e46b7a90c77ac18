//go:build cuda

package gpu

import (
	"context"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/planner"
)

// TestColdInPlace: a cold star query reads the columns its plan marks
// ColdInPlace from their packed host copies in place, answers as the CPU
// does, and leaves their 4-byte forms cached behind it, which the next
// run reads (no column in place) with the same answer; dropping the
// cache right after waits for the unpacks.
func TestColdInPlace(t *testing.T) {
	d := needGPU(t)
	eachSSBPlan(t, func(name string, base *planner.Physical, want *exec.Result) {
		p := withPacking(t, base, packingMode{name: "in-place", force: true, transfer: true, inPlace: true})
		marked := countColumns(p.GPU, func(c planner.GPUColumn) bool { return c.Packing != nil && c.Packing.ColdInPlace })
		if marked == 0 || !strings.Contains(p.Explain(), "read in place while not resident") {
			t.Fatalf("%s: no column read in place\n%s", name, p.Explain())
		}
		if err := DropColumnCache(); err != nil {
			t.Fatal(err)
		}
		for run, wantInPlace := range []int64{int64(marked), 0} {
			before := coldInPlaceReads.Load()
			got, err := Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s run %d: %v\n%s", name, run, err, p.Explain())
			}
			if diff := diffResults(got, want); diff != "" {
				t.Errorf("%s run %d: %s\n%s", name, run, diff, p.Explain())
			}
			if n := coldInPlaceReads.Load() - before; n < wantInPlace || wantInPlace == 0 && n != 0 {
				t.Errorf("%s run %d: %d columns read in place, want %d", name, run, n, wantInPlace)
			}
			for _, c := range p.GPU.Columns {
				if c.Packing != nil && c.Packing.ColdInPlace {
					d.do(func() error {
						checkCachedForm(t, d, name, c)
						return nil
					})
				}
			}
		}
	})
	if err := DropColumnCache(); err != nil {
		t.Fatal(err)
	}
}
