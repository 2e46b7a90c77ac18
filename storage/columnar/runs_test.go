package columnar

import (
	"math/rand/v2"
	"testing"
)

// runCases are packCases plus columns whose values come in runs: an
// order's lines (1 to 7 rows of one value), runs across chunk borders,
// NULL runs inside value runs, and 32-bit spans.
func runCases() []packCase {
	r := rand.New(rand.NewPCG(9, 10))
	orders := make([]int32, 3*PackChunkRows+1_001)
	for i := 0; i < len(orders); {
		v, n := int32(19920101+r.IntN(60_000)), 1+r.IntN(7)
		for ; n > 0 && i < len(orders); n-- {
			orders[i] = v
			i++
		}
	}
	long := make([]int64, 2*PackChunkRows+3)
	for i := range long {
		long[i] = int64(i / 5_000) // runs straddling chunk borders
	}
	wide := make([]int32, 5_000)
	for i := range wide {
		wide[i] = int32(r.Uint32()) >> (i / 1_000 % 2) // full 32-bit spans, runs of one
	}
	return append(packCases(),
		packCase{name: "orders", i32: orders},
		packCase{name: "orders with NULLs", i32: orders, nulls: func(i int) bool { return i%97 < 3 }},
		packCase{name: "long runs int64", i64: long},
		packCase{name: "wide", i32: wide},
	)
}

// The run-length form expands to the packed form's values (NULL rows read
// as their chunk's frame), takes the words RunForm says, and counts the
// runs the statistics count.
func TestRunsRoundTrip(t *testing.T) {
	for _, pc := range runCases() {
		t.Run(pc.name, func(t *testing.T) {
			col := pc.column()
			tab := &Table{Name: "t", Fields: []Field{{Name: "c", Type: col.Type}}, Columns: []*Column{col}, Rows: col.Len}
			ComputeStats(tab)
			b, ok := PackBitsFromStats(tab.Stats[0], col.Len)
			if !ok {
				t.Fatal("statistics give no packing")
			}
			p, err := Pack(col, b)
			if err != nil {
				t.Fatal(err)
			}
			f, err := CountRuns(col, b)
			if err != nil {
				t.Fatal(err)
			}
			runs, statRuns := 0, 0
			for _, n := range f.ChunkRuns {
				runs += n
			}
			for _, s := range tab.Stats[0] {
				statRuns += s.Runs
			}
			if runs != statRuns {
				t.Errorf("%d runs encoded, statistics count %d", runs, statRuns)
			}
			if est, words := RunBytesEstimate(col.Len, statRuns, b), int64(4*f.Words()); est < words || est > words+4*int64(f.Chunks()) {
				t.Errorf("estimated %d bytes, the form takes %d", est, words)
			}
			w := make([]uint32, f.Words())
			for i := range w {
				w[i] = 0xdeadbeef // every word the form uses is written
			}
			if err := EncodeRuns(col, f, w); err != nil {
				t.Fatal(err)
			}
			got := DecodeRuns(f, w)
			for i := 0; i < col.Len; i++ {
				if want := int32(p.At(i)); got[i] != want {
					t.Fatalf("row %d of %d (%d bits, %d runs): got %d, the packed form %d", i, col.Len, b, runs, got[i], want)
				}
			}
		})
	}
}

// An order-grained column crosses as a fraction of its packed bytes.
func TestRunsSmaller(t *testing.T) {
	pc := runCases()[len(packCases())]
	col := pc.column()
	b := 16
	f, err := CountRuns(col, b)
	if err != nil {
		t.Fatal(err)
	}
	if runs, packed := int64(4*f.Words()), PackedBytes(col.Len, b); runs*2 > packed {
		t.Errorf("runs of 1 to 7 rows take %d bytes, packed %d", runs, packed)
	}
}

// Too few bits for a chunk is an error naming its rows.
func TestRunsTooFewBits(t *testing.T) {
	col := &Column{I32: []int32{1, 1, 9}, Len: 3, Type: TInt32}
	f, err := CountRuns(col, 2)
	if err != nil {
		t.Fatal(err)
	}
	err = EncodeRuns(col, f, make([]uint32, f.Words()))
	if err == nil || err.Error() != "runs: rows 0 to 2 span 1 to 9, more than 2 bits (statistics out of date?)" {
		t.Fatalf("got %v", err)
	}
}
