package columnar

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// packCase is a column to pack and unpack: int32 or int64 values, some
// NULL.
type packCase struct {
	name  string
	i32   []int32
	i64   []int64
	nulls func(i int) bool
}

func (pc packCase) column() *Column {
	c := &Column{I32: pc.i32, I64: pc.i64, Len: max(len(pc.i32), len(pc.i64)), Type: TInt32}
	if pc.i64 != nil {
		c.Type = TInt64
	}
	if pc.nulls != nil {
		c.Valid = make([]uint64, (c.Len+63)/64)
		for i := 0; i < c.Len; i++ {
			if !pc.nulls(i) {
				c.Valid[i>>6] |= 1 << (uint(i) & 63)
			}
		}
	}
	return c
}

func randI32(n int, lo, hi int64, seed uint64) []int32 {
	r := rand.New(rand.NewPCG(seed, 7))
	v := make([]int32, n)
	for i := range v {
		v[i] = int32(lo + r.Int64N(hi-lo+1))
	}
	return v
}

func packCases() []packCase {
	r := rand.New(rand.NewPCG(3, 4))
	sorted := make([]int64, 3*PackChunkRows+17)
	for i := range sorted {
		sorted[i] = int64(i)*3 + 1_000_000
	}
	full := make([]int32, 9_000)
	for i := range full {
		full[i] = int32(r.Uint32())
	}
	full[5], full[6] = math.MinInt32, math.MaxInt32
	return []packCase{
		{name: "empty", i32: []int32{}},
		{name: "one row", i32: []int32{-7}},
		{name: "random small", i32: randI32(10_001, 0, 10, 1)},
		{name: "negative", i32: randI32(4_099, -1_000_000, -999_000, 2)},
		{name: "mixed sign", i32: randI32(8_193, -5_000, 5_000, 3)},
		{name: "full int32 range", i32: full},
		{name: "constant", i32: randI32(12_345, 42, 42, 4)},
		{name: "sorted int64 (frames help)", i64: sorted},
		{name: "odd size 7", i32: randI32(7, 0, 1<<20, 5)},
		{name: "nulls", i32: randI32(5_003, -3, 300, 6), nulls: func(i int) bool { return i%3 == 0 }},
		{name: "all null chunk", i32: randI32(2*PackChunkRows+5, 100, 200, 7), nulls: func(i int) bool { return i < PackChunkRows+3 }},
		{name: "all null", i64: []int64{5, 6, 7}, nulls: func(int) bool { return true }},
	}
}

// Every value reads back as packed; NULL rows read as their chunk's frame;
// statistics give bits that hold every chunk.
func TestPackRoundTrip(t *testing.T) {
	for _, pc := range packCases() {
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
			if want := PackedBytes(col.Len, b); int64(4*(len(p.Words)+len(p.Frames))) != want {
				t.Errorf("%d words %d frames, PackedBytes says %d", len(p.Words), len(p.Frames), want)
			}
			for i := 0; i < col.Len; i++ {
				got := p.At(i)
				if col.IsNull(i) {
					if want := int64(p.Frames[i>>PackChunkShift]); got != want {
						t.Fatalf("NULL row %d reads %d, want the frame %d", i, got, want)
					}
					continue
				}
				if want := col.Int64At(i); got != want {
					t.Fatalf("row %d of %d (%d bits): got %d, want %d", i, col.Len, b, got, want)
				}
			}
		})
	}
}

// The bits are the most any chunk needs, and frames make a sorted column
// narrow.
func TestPackBits(t *testing.T) {
	cases := []struct {
		lo, hi int64
		want   int
	}{{0, 0, 0}, {5, 5, 0}, {0, 1, 1}, {0, 10, 4}, {-8, 7, 4}, {0, 49, 6}, {math.MinInt32, math.MaxInt32, 32}, {0, 1 << 19, 20}}
	for _, c := range cases {
		if got := SpanBits(c.lo, c.hi); got != c.want {
			t.Errorf("SpanBits(%d, %d) = %d, want %d", c.lo, c.hi, got, c.want)
		}
	}
	sorted := make([]int32, 3*ChunkRows)
	for i := range sorted {
		sorted[i] = int32(i)
	}
	col := &Column{I32: sorted, Len: len(sorted), Type: TInt32}
	tab := &Table{Name: "t", Fields: []Field{{Name: "c", Type: TInt32}}, Columns: []*Column{col}, Rows: col.Len}
	ComputeStats(tab)
	if b, _ := PackBitsFromStats(tab.Stats[0], col.Len); b != 16 {
		t.Errorf("a sorted column of 3 x 2^16 rows packs in %d bits, want 16 (one statistics chunk's span)", b)
	}
	if b, ok := PackBitsFromStats(nil, 10); ok {
		t.Errorf("no statistics packed in %d bits", b)
	}
	wide := &Column{I64: []int64{0, 1 << 40}, Len: 2, Type: TInt64}
	tab = &Table{Name: "t", Fields: []Field{{Name: "c", Type: TInt64}}, Columns: []*Column{wide}, Rows: 2}
	ComputeStats(tab)
	if b, ok := PackBitsFromStats(tab.Stats[0], 2); ok {
		t.Errorf("a 41-bit column packed in %d bits", b)
	}
}

// Too few bits for the data is an error naming the rows, never a wrong
// value.
func TestPackRejects(t *testing.T) {
	col := &Column{I32: []int32{0, 1, 2, 300}, Len: 4, Type: TInt32}
	if _, err := Pack(col, 8); err == nil || !strings.Contains(err.Error(), "rows 0 to 3") {
		t.Errorf("300 in 8 bits: %v", err)
	}
	if _, err := Pack(&Column{F64: []float64{1}, Len: 1, Type: TFloat64}, 8); err == nil {
		t.Error("a DOUBLE column packed")
	}
	if _, err := Pack(col, 33); err == nil {
		t.Error("33 bits accepted")
	}
}

func BenchmarkPack(b *testing.B) {
	v := randI32(1<<24, 0, 1<<20, 9)
	col := &Column{I32: v, Len: len(v), Type: TInt32}
	p := &Packed{Words: make([]uint32, PackedWords(len(v), 20)), Frames: make([]int32, PackedFrames(len(v)))}
	b.SetBytes(int64(4 * len(v)))
	for b.Loop() {
		if err := PackInto(col, 20, p.Words, p.Frames); err != nil {
			b.Fatal(err)
		}
	}
}

// The words are lane-interleaved (a group's word 32j + l is word j of lane
// l's stream): at 32 bits a group is its rows in order, and at 4 bits
// word 32j + l holds rows 32(8j+k) + l, k = 0..7, in its nibbles.
func TestPackLaneLayout(t *testing.T) {
	v := randI32(2*PackGroupRows+100, 0, 15, 5)
	v[0] = 0 // frame 0 in every chunk of a 2,148-row column
	col := &Column{I32: v, Len: len(v), Type: TInt32}
	wide, err := Pack(col, 32)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range v {
		if wide.Words[i] != uint32(x) {
			t.Fatalf("32 bits: word %d = %d, want row %d's %d", i, wide.Words[i], i, x)
		}
	}
	narrow, err := Pack(col, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(narrow.Words) != 3*PackLanes*4 {
		t.Fatalf("%d words, want 3 groups of 128", len(narrow.Words))
	}
	for g := 0; g < 3; g++ {
		for j := 0; j < 4; j++ {
			for l := 0; l < PackLanes; l++ {
				var want uint32
				for k := 0; k < 8; k++ {
					if r := g*PackGroupRows + 32*(8*j+k) + l; r < len(v) {
						want |= uint32(v[r]) << (4 * k)
					}
				}
				if got := narrow.Words[g*128+32*j+l]; got != want {
					t.Fatalf("4 bits: group %d word %d lane %d = %#x, want %#x", g, j, l, got, want)
				}
			}
		}
	}
}
