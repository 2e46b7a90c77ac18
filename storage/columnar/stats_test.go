package columnar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkStatsExact recomputes every chunk's statistics by brute force and
// compares; distinct counts must be exact for strings and narrow integer
// spans, within 5% otherwise.
func checkStatsExact(t *testing.T, tb *Table) {
	t.Helper()
	if len(tb.Stats) != len(tb.Columns) {
		t.Fatalf("stats for %d of %d columns", len(tb.Stats), len(tb.Columns))
	}
	for c, col := range tb.Columns {
		if len(tb.Stats[c]) != tb.NumChunks() {
			t.Fatalf("column %d: %d chunk stats, want %d", c, len(tb.Stats[c]), tb.NumChunks())
		}
		for k, got := range tb.Stats[c] {
			lo, hi := k*ChunkRows, min((k+1)*ChunkRows, tb.Rows)
			var want ChunkStats
			seen := map[float64]bool{}
			first := true
			sorted, prev := true, int64(0)
			for i := lo; i < hi; i++ {
				if col.IsNull(i) {
					want.NullCount++
					continue
				}
				if col.F64 != nil {
					x := col.F64[i]
					if first {
						want.MinF, want.MaxF = x, x
					}
					want.MinF, want.MaxF = math.Min(want.MinF, x), math.Max(want.MaxF, x)
					seen[x] = true
				} else {
					x := col.Int64At(i)
					if first {
						want.Min, want.Max = x, x
					}
					sorted = sorted && (first || x >= prev)
					prev = x
					want.Min, want.Max = min(want.Min, x), max(want.Max, x)
					seen[float64(x)] = true
				}
				first = false
			}
			want.Distinct = len(seen)
			if col.I32 != nil || col.I64 != nil {
				want.Runs = runsFromRows(col, lo, hi)
			}
			// Sorted is stated for integer chunks holding a value.
			want.Sorted = col.F64 == nil && !first && sorted
			approx := got.Distinct
			exact := col.Type.ID == String || (col.F64 == nil && want.Max-want.Min < bitsetSpan)
			if !exact && math.Abs(float64(approx-want.Distinct)) <= 0.05*float64(want.Distinct) {
				approx = want.Distinct
			}
			got.Distinct = approx
			if got != want {
				t.Errorf("column %d chunk %d: stats %+v, want %+v", c, k, tb.Stats[c][k], want)
			}
		}
	}
}

// runsFromRows counts the runs of rows [lo, hi) of an integer column row
// by row: a run starts every PackChunkRows rows, and where a row's NULL-ness
// or (not NULL) its value differs from the row before's.
func runsFromRows(col *Column, lo, hi int) int {
	runs := 0
	for i := lo; i < hi; i++ {
		switch {
		case i%PackChunkRows == 0, col.IsNull(i) != col.IsNull(i-1):
			runs++
		case !col.IsNull(i) && col.Int64At(i) != col.Int64At(i-1):
			runs++
		}
	}
	return runs
}

func randomTable(r *rand.Rand, n int) *Table {
	fields := []Field{
		{Name: "narrow", Type: TInt32}, {Name: "wide", Type: TInt64}, {Name: "f", Type: TFloat64},
		{Name: "s", Type: TString}, {Name: "d", Type: TDecimal(12, 2)},
	}
	bs := make([]*Builder, len(fields))
	for i, f := range fields {
		bs[i] = NewBuilder(f.Type)
	}
	for i := 0; i < n; i++ {
		if r.IntN(10) == 0 {
			bs[0].AppendNull()
		} else {
			bs[0].AppendInt64(int64(r.IntN(5000) - 100))
		}
		bs[1].AppendInt64(r.Int64N(1<<40) - 1<<39)
		if r.IntN(3) == 0 {
			bs[2].AppendNull()
		} else {
			bs[2].AppendFloat64(r.NormFloat64())
		}
		bs[3].AppendString(string(rune('a' + r.IntN(26))))
		bs[4].AppendInt64(int64(i))
	}
	t := &Table{Name: "r", Fields: fields, Rows: n}
	for _, b := range bs {
		t.Columns = append(t.Columns, b.Column())
	}
	return t
}

func TestComputeStats(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tb := randomTable(r, 3*ChunkRows+17)
	// an all-NULL chunk
	for i := 0; i < ChunkRows; i++ {
		tb.Columns[0].SetNull(i)
	}
	ComputeStats(tb)
	checkStatsExact(t, tb)
	if s := tb.Stats[0][0]; s.NullCount != ChunkRows || s.Distinct != 0 {
		t.Errorf("all-NULL chunk: %+v", s)
	}
	if s := tb.Stats[4][1]; s.Distinct != ChunkRows || s.Min != ChunkRows || s.Max != 2*ChunkRows-1 {
		t.Errorf("sorted key chunk: %+v", s)
	}
}

// TestComputeStatsKeepsFullChunks: entries for all but the last listed
// chunk are trusted (not recomputed); the rest are computed.
func TestComputeStatsKeepsFullChunks(t *testing.T) {
	tb := randomTable(rand.New(rand.NewPCG(9, 10)), 2*ChunkRows+5)
	ComputeStats(tb)
	want := tb.Stats[1][2]
	marker := ChunkStats{Min: -42, Max: 42, Distinct: 1}
	for c := range tb.Stats {
		tb.Stats[c] = tb.Stats[c][:2]
		tb.Stats[c][0] = marker
		tb.Stats[c][1] = marker
	}
	ComputeStats(tb)
	for c := range tb.Stats {
		if tb.Stats[c][0] != marker {
			t.Errorf("column %d: chunk 0 was recomputed", c)
		}
		if tb.Stats[c][1] == marker {
			t.Errorf("column %d: the last listed chunk was kept", c)
		}
	}
	if tb.Stats[1][2] != want {
		t.Errorf("new chunk: %+v, want %+v", tb.Stats[1][2], want)
	}
	tb.Stats = nil
	ComputeStats(tb)
	checkStatsExact(t, tb)
}

// TestLoadStatsAfterAppend: appending strings that sort before the old
// ones remaps the carried statistics of old chunks.
func TestLoadStatsAfterAppend(t *testing.T) {
	fields := []Field{{Name: "k", Type: TInt32}, {Name: "s", Type: TString}}
	setBlockSize(t, 1<<16)
	var a, b []byte
	for i := 0; i < ChunkRows+100; i++ {
		a = append(a, []byte("1|m"+string(rune('a'+i%5))+"|\n")...)
	}
	for i := 0; i < ChunkRows; i++ {
		b = append(b, []byte("2|a"+string(rune('a'+i%7))+"|\n")...)
	}
	t1 := mustLoad(t, NewEmptyTable("s", fields), writeFile(t, "a.tbl", string(a)), tbl)
	checkStatsExact(t, t1)
	t2 := mustLoad(t, t1, writeFile(t, "b.tbl", string(b)), tbl)
	checkStatsExact(t, t2)
	if s := t2.Stats[1][0]; s.Min != 7 || s.Max != 11 || s.Distinct != 5 {
		t.Errorf("old chunk's string stats not remapped: %+v", s)
	}
}

// A chunk is sorted when its values never decrease, NULLs skipped wherever
// they sit; a decrease across a NULL unsorts it.
func TestStatsSorted(t *testing.T) {
	for _, c := range []struct {
		vals   []int64 // -1: NULL
		sorted bool
	}{
		{[]int64{-1, 1, 1, -1, 2, 5, -1}, true},
		{[]int64{3, -1, 2}, false},
		{[]int64{7}, true},
		{[]int64{-1, -1}, false}, // no value: nothing stated
		{[]int64{1, 2, 2, 1}, false},
	} {
		b := NewBuilder(TInt64)
		for _, v := range c.vals {
			if v < 0 {
				b.AppendNull()
			} else {
				b.AppendInt64(v)
			}
		}
		tb := &Table{Name: "t", Fields: []Field{{Name: "k", Type: TInt64}}, Rows: len(c.vals), Columns: []*Column{b.Column()}}
		ComputeStats(tb)
		if got := tb.Stats[0][0].Sorted; got != c.sorted {
			t.Errorf("%v: sorted %v, want %v", c.vals, got, c.sorted)
		}
	}
}
