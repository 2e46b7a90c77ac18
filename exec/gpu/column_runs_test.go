//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// runColumn is a column of n rows in runs of 1 to maxRun rows, each run's
// value drawn from [lo, lo + span], some rows NULL (every nullEvery-th
// run; 0: none).
func runColumn(n, maxRun int, lo, span int64, nullEvery int, seed uint64) *columnar.Column {
	r := rand.New(rand.NewPCG(seed, 11))
	c := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, nullEvery > 0)
	for i, run := 0, 0; i < n; run++ {
		v := int32(lo + r.Int64N(span+1))
		null := nullEvery > 0 && run%nullEvery == nullEvery-1
		for k := 1 + r.IntN(maxRun); k > 0 && i < n; k-- {
			c.I32[i] = v
			if null {
				c.Valid[i>>6] &^= 1 << (uint(i) & 63)
			}
			i++
		}
	}
	return c
}

// TestUnpackRuns: unpack_runs expands a column's run-length form to the
// values DecodeRuns (the host's reference) gives, NULL rows the frame as
// the packed form has them, for widths 0 to 32 bits (values straddling
// words), runs of one row and runs longer than a chunk, NULL runs, and
// sizes off the chunk and the word.
func TestUnpackRuns(t *testing.T) {
	d := needGPU(t)
	type runCase struct {
		n, maxRun int
		lo, span  int64
		nulls     int
	}
	cases := []runCase{
		{1, 1, 5, 0, 0}, {31, 3, -7, 1, 0}, {4095, 7, 19920101, 60_000, 0}, {4097, 1, 0, 1<<13 - 1, 3},
		{3*4096 + 33, 7, -1 << 31, 1<<32 - 1, 5}, {70_001, 7, 100, 1 << 18, 0}, {50_000, 9_000, 3, 1<<31 - 1, 2},
		{20_000, 4, 42, 0, 4}, {9_999, 2, -1000, 1<<7 - 1, 0},
	}
	for ci, c := range cases {
		col := runColumn(c.n, c.maxRun, c.lo, c.span, c.nulls, uint64(ci)+1)
		tab := &columnar.Table{Name: "t", Fields: []columnar.Field{{Name: "c", Type: columnar.TInt32, Nullable: c.nulls > 0}}, Columns: []*columnar.Column{col}, Rows: c.n}
		columnar.ComputeStats(tab)
		b, ok := columnar.PackBitsFromStats(tab.Stats[0], c.n)
		if !ok {
			t.Fatalf("case %d: no packing", ci)
		}
		t.Run(fmt.Sprintf("%d rows %d bits", c.n, b), func(t *testing.T) {
			f, err := columnar.CountRuns(col, b)
			if err != nil {
				t.Fatal(err)
			}
			w := make([]uint32, f.Words())
			if err := columnar.EncodeRuns(col, f, w); err != nil {
				t.Fatal(err)
			}
			want := columnar.DecodeRuns(f, w)
			sum := tab.ColumnSummary(0)
			gc := &planner.GPUColumn{Table: "t", Column: "c", Col: col, HasRange: true, Min: sum.Min, Max: sum.Max,
				Packing: &planner.GPUPacking{Bits: b, ChunkShift: columnar.PackChunkShift, Transfer: true, RunBytes: 4 * int64(len(w))}}
			before := runCopies.Load()
			got := make([]int32, c.n)
			err = d.do(func() error {
				e, err := d.cache.loadUnpacked(col, gc)
				if err != nil {
					return err
				}
				d.cache.insert(e)
				defer d.cache.drop(e)
				return cu.MemcpyDtoH(unsafe.Pointer(&got[0]), e.data, 4*int64(c.n))
			})
			if err != nil {
				t.Fatal(err)
			}
			if runCopies.Load() == before {
				t.Fatal("the column was not copied as runs")
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("row %d: the device expanded %d, the host %d (%d runs)", i, got[i], want[i], f.ChunkRuns[i>>columnar.PackChunkShift])
				}
				if !col.IsNull(i) && int64(got[i]) != col.Int64At(i) {
					t.Fatalf("row %d: expanded %d, the column holds %d", i, got[i], col.Int64At(i))
				}
			}
		})
	}
}
