package cpu

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gpusql/storage/columnar"
)

// The integer sort gives the comparison sort's order (ascending with NULLs
// first, descending with NULLs last, ties in row order) on INT and BIGINT
// keys with NULLs and duplicates, empty and one-row inputs, a span at the
// limit (2^32 - 2: ranks up to 2^32 - 1 with NULLs); keys spanning more
// are left to the comparison sort.
func TestSortPermByInt(t *testing.T) {
	x := &executor{ctx: context.Background()}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 1000, 100_003} {
		for _, c := range []struct {
			name string
			col  func() *columnar.Column
			fits bool
		}{
			{"int", func() *columnar.Column {
				col := columnar.NewColumn(columnar.TInt32, n, true)
				for i := range n {
					col.I32[i] = int32(rng.IntN(50)) - 25
					if rng.IntN(7) != 0 {
						col.SetValid(i)
					}
				}
				return col
			}, true},
			{"int, span 2^32 - 2", func() *columnar.Column {
				col := columnar.NewColumn(columnar.TInt32, n, true)
				for i := range n {
					col.I32[i] = int32(rng.Uint32()>>1) - 1
					if i%5 != 0 {
						col.SetValid(i)
					}
				}
				if n > 2 {
					col.I32[1], col.I32[2] = math.MinInt32+1, math.MaxInt32
				}
				return col
			}, true},
			{"int, full range", func() *columnar.Column {
				col := columnar.NewColumn(columnar.TInt32, n, false)
				for i := range n {
					col.I32[i] = int32(rng.Uint32())
				}
				if n > 1 {
					col.I32[0], col.I32[1] = math.MinInt32, math.MaxInt32
				}
				return col
			}, n < 2},
			{"bigint wide", func() *columnar.Column {
				col := columnar.NewColumn(columnar.TInt64, n, true)
				for i := range n {
					col.I64[i] = rng.Int64() - math.MaxInt64/2
					col.SetValid(i)
				}
				if n > 1 {
					col.I64[0], col.I64[1] = math.MinInt64, math.MaxInt64
				}
				return col
			}, n < 2},
		} {
			col := c.col()
			for _, desc := range []bool{false, true} {
				keys := &sortKeyCols{cols: []*columnar.Column{col}, desc: []bool{desc}}
				want := identity(n)
				if err := x.sortPerm(want, keys.compare); err != nil {
					t.Fatal(err)
				}
				got := identity(n)
				done, err := x.sortPermByInt(got, columnIntKey(col), desc)
				if err != nil {
					t.Fatal(err)
				}
				if done != c.fits {
					t.Fatalf("%s n=%d: integer sort used %v, want %v", c.name, n, done, c.fits)
				}
				if done && !slices.Equal(got, want) {
					t.Errorf("%s n=%d desc=%v: order differs from the comparison sort", c.name, n, desc)
				}
				if !done && !slices.Equal(got, identity(n)) {
					t.Errorf("%s n=%d: perm changed though the integer sort did not apply", c.name, n)
				}
			}
		}
	}
}

func identity(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// Several integer keys sort as one word when their ranks fit 32 bits
// together, as (ranks, row) pairs up to 64 bits: the order equals the
// comparison sort's for every mix of directions, with NULLs and ties in
// each key; keys whose ranks need more than 64 bits together are left to
// the comparison sort.
func TestSortPermByInts(t *testing.T) {
	t.Run("pdqsort", func(t *testing.T) { testSortPermByInts(t, 1) })
	// The radix sort from two rows on, over up to 7 workers of 4,096 words.
	defer func(rows, chunk int) { radixSortRows, radixMinChunk = rows, chunk }(radixSortRows, radixMinChunk)
	radixSortRows, radixMinChunk = 2, 4096
	t.Run("radix", func(t *testing.T) { testSortPermByInts(t, 7) })
}

func testSortPermByInts(t *testing.T, workers int) {
	x := &executor{ctx: context.Background(), workers: workers}
	rng := rand.New(rand.NewPCG(3, 4))
	col := func(n, span int, nulls bool) *columnar.Column {
		c := columnar.NewColumn(columnar.TInt64, n, true)
		for i := range n {
			c.I64[i] = int64(rng.IntN(span)) - int64(span/2)
			if !nulls || i%7 != 3 {
				c.SetValid(i)
			}
		}
		return c
	}
	for _, n := range []int{0, 1, 5, 2049, 50_000} {
		for _, spans := range [][]int{{10, 3}, {30000, 2500}, {5, 5, 5}, {1 << 19, 1 << 11}, {1 << 20, 1 << 12}, {1 << 31, 1 << 31, 4}} {
			cols := make([]*columnar.Column, len(spans))
			ints := make([]intKey, len(spans))
			for k, s := range spans {
				cols[k] = col(n, s, k != 1)
				ints[k] = columnIntKey(cols[k])
			}
			for mask := 0; mask < 1<<len(spans); mask++ {
				desc := make([]bool, len(spans))
				for k := range desc {
					desc[k] = mask&(1<<k) != 0
				}
				keys := &sortKeyCols{cols: cols, desc: desc}
				want := identity(n)
				if err := x.sortPerm(want, keys.compare); err != nil {
					t.Fatal(err)
				}
				got := identity(n)
				done, err := x.sortPermByInts(got, ints, desc)
				if err != nil {
					t.Fatal(err)
				}
				fits := spans[0] != 1<<31 // 31 + 31 + 3 bits of ranks
				if n >= 50_000 && done != fits {
					t.Fatalf("spans %v n=%d: integer sort used %v, want %v", spans, n, done, fits)
				}
				if done && !slices.Equal(got, want) {
					t.Errorf("spans %v n=%d desc %v: order differs from the comparison sort", spans, n, desc)
				}
				if !done && !slices.Equal(got, identity(n)) {
					t.Errorf("spans %v n=%d: perm changed though the integer sort did not apply", spans, n)
				}
				// Rows given in reverse: ties still come in row order.
				rev := identity(n)
				slices.Reverse(rev)
				if done, _ := x.sortPermByInts(rev, ints, desc); done && !slices.Equal(rev, want) {
					t.Errorf("spans %v n=%d desc %v: reversed rows sort otherwise", spans, n, desc)
				}
			}
		}
	}
}
