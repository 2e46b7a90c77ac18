//go:build cuda

package gpu

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gpusql/storage/columnar"
)

// The packed sort gives the order of the comparison sort (stable, NULLs
// first ascending and last descending) on random columns of narrow and
// wide ranges, with and without NULLs, ascending and descending; keys
// too wide to pack together are refused (no device needed).
func TestPackedSortOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	gen := func(n int, lo, span int64, nulls bool, typ columnar.Type) *columnar.Column {
		c := columnar.NewColumnIn(columnar.HeapAllocator, typ, n, nulls)
		for i := 0; i < n; i++ {
			setInt(c, i, lo+r.Int64N(span))
			if nulls && r.IntN(5) == 0 {
				c.SetNull(i)
			} else if nulls {
				c.SetValid(i)
			}
		}
		return c
	}
	cases := []struct {
		name   string
		keys   int
		lo     int64
		span   int64
		nulls  bool
		packed bool
	}{
		{"years and codes", 3, 1992, 7, false, true},
		{"negative with NULLs", 2, -50, 100, true, true},
		{"one value", 2, 5, 1, false, true},
		{"a wide sum", 1, -1 << 40, 1 << 41, true, true},
		{"too wide together", 2, -1 << 40, 1 << 41, false, false},
	}
	for _, c := range cases {
		for _, n := range []int{0, 1, 7, 800} {
			cols := make([]*columnar.Column, c.keys)
			desc := make([]bool, c.keys)
			for k := range cols {
				cols[k] = gen(n, c.lo, c.span, c.nulls, columnar.TInt64)
				desc[k] = k%2 == 1
			}
			got, ok := packedSortOrder(cols, desc, n, nil)
			if ok != c.packed && n > 1 {
				t.Fatalf("%s n=%d: packed %v, want %v", c.name, n, ok, c.packed)
			}
			if !ok {
				continue
			}
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			slices.SortFunc(want, func(a, b int) int {
				for k, col := range cols {
					d := compareRows(col, a, b)
					if desc[k] {
						d = -d
					}
					if d != 0 {
						return d
					}
				}
				return cmp.Compare(a, b)
			})
			if !slices.Equal(got, want) {
				t.Fatalf("%s n=%d: order %v, want %v", c.name, n, got[:min(10, n)], want[:min(10, n)])
			}
		}
	}
	// The whole int64 range takes 64 bits: packed, the row numbers sorted
	// beside the keys; with a NULL code too it does not fit.
	wide := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, 4, false)
	copy(wide.I64, []int64{math.MaxInt64, math.MinInt64, 0, math.MinInt64})
	if got, ok := packedSortOrder([]*columnar.Column{wide}, []bool{false}, 4, nil); !ok || !slices.Equal(got, []int{1, 3, 2, 0}) {
		t.Fatalf("full int64 range: %v %v, want [1 3 2 0]", got, ok)
	}
	wideNull := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, 3, true)
	copy(wideNull.I64, []int64{math.MaxInt64, math.MinInt64, 0})
	wideNull.SetValid(0)
	wideNull.SetValid(1)
	wideNull.SetNull(2)
	if _, ok := packedSortOrder([]*columnar.Column{wideNull}, []bool{true}, 3, nil); ok {
		t.Fatal("the whole int64 range and a NULL code do not fit 64 bits")
	}
	// A DOUBLE key is not packed.
	f := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TFloat64, 3, false)
	if _, ok := packedSortOrder([]*columnar.Column{f}, []bool{false}, 3, nil); ok {
		t.Fatal("a DOUBLE key should take the comparison sort")
	}
}

// The radix sort orders keys as a comparison sort does, for every width
// up to 64 bits and sizes around its cut-over to the comparison sort, also
// when every key has the same second byte (a pass it skips).
func TestRadixSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var scratch hostScratch
	for _, width := range []uint{1, 7, 8, 9, 21, 33, 63, 64} {
		for _, n := range []int{0, 1, 255, 256, 257, 1000, 1001} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64()
				if n == 1001 {
					keys[i] = keys[i]&^0xff00 | 0x5a00
				}
				if width < 64 {
					keys[i] &= 1<<width - 1
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			s := &scratch
			if n == 257 {
				s = nil
			}
			radixSort(keys, width, s)
			if !slices.Equal(keys, want) {
				t.Fatalf("width %d, %d keys: radix order differs", width, n)
			}
		}
	}
}
