package planner_test

import (
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A star dimension's direct table gets a bitmap only when it is large and
// its filters selective: SSB at the golden scale has only small tables, so
// none does; forced, every direct table does, bit-only where the
// dimension has no group column (Q2.1's supplier) and in front of the
// payloads where it has (Q2.1's part).
func TestDimBitmapChoice(t *testing.T) {
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	q := ssbtest.Queries(t, cat)[3] // Q2.1
	for _, force := range []bool{false, true} {
		prof, err := planner.LookupGPUProfile("h100")
		if err != nil {
			t.Fatal(err)
		}
		prof.ForceDimBitmap = force
		p, err := planner.Plan(q.Query, planner.Options{GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range p.GPU.Star.Dims {
			b := d.Build
			wantOnly := force && len(d.GroupCols) == 0
			if b.Bitmap != force || b.BitsOnly != wantOnly {
				t.Errorf("force %v, %s: bitmap %v, bits only %v", force, d.Scan.Table.Name, b.Bitmap, b.BitsOnly)
			}
		}
	}
}
