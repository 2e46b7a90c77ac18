//go:build cuda

package gpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gpusql/storage/columnar"
)

// The digits of slots visited in increasing order (small and large gaps)
// and then out of order equal those by division (no device needed).
func TestGroupDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, sizes := range [][]int64{{1}, {7}, {3, 1, 5}, {10, 10, 6}, {2, 40, 10}, {1, 1}, {1000, 3}} {
		total := int64(1)
		for _, s := range sizes {
			total *= s
		}
		d := newGroupDigits(sizes)
		var slots []int64
		for s := int64(0); s < total; s += 1 + r.Int64N(max(2, sizes[0]*2)) {
			slots = append(slots, s)
		}
		for range 20 {
			slots = append(slots, r.Int64N(total))
		}
		for _, s := range slots {
			d.moveTo(s)
			want := make([]int64, len(sizes))
			x := s
			for c, size := range sizes {
				want[c], x = x%size, x/size
			}
			if !slices.Equal(d.digits, want) {
				t.Fatalf("sizes %v slot %d: digits %v, want %v", sizes, s, d.digits, want)
			}
		}
	}
}

// A key of a dimension grouping by several columns (one nullable) reads
// its column's part of the rank's combined value.
func TestKeyDecoder(t *testing.T) {
	dr := &dimRun{sizes: []int64{3, 4, 5}, mins: []int64{10, -2, 100}, nullable: []bool{false, true, false}}
	for raw := int64(0); raw < 60; raw += 7 {
		dr.ranks = append(dr.ranks, raw)
	}
	dr.k = int64(len(dr.ranks))
	fk := factKey{lo: 5, size: 9, nullable: true}
	digits := make([]int32, len(dr.ranks))
	for d := range digits {
		digits[d] = int32(d)
	}
	for j := range dr.sizes {
		kd := newKeyDecoder(starKey{dim: 0, j: j}, []*dimRun{dr}, []factKey{fk})
		col := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, len(digits), true)
		kd.fill(col, make([]int64, len(digits)), digits)
		for digit, raw := range dr.ranks {
			inner := int64(1)
			for c := j + 1; c < len(dr.sizes); c++ {
				inner *= dr.sizes[c]
			}
			dj := raw / inner % dr.sizes[j]
			null := dr.nullable[j] && dj == dr.sizes[j]-1
			if col.IsNull(digit) != null || !null && col.I64[digit] != dr.mins[j]+dj {
				t.Fatalf("column %d rank %d (raw %d): %d null %v", j, digit, raw, col.I64[digit], col.IsNull(digit))
			}
		}
	}
	kd := newKeyDecoder(starKey{dim: -1, j: 0}, []*dimRun{dr}, []factKey{fk})
	col := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, 2, true)
	kd.fill(col, make([]int64, 2), []int32{3, 8})
	if col.I32[0] != 8 || col.IsNull(0) || kd.comp != 1 {
		t.Fatalf("fact key digit 3: %d %v (component %d)", col.I32[0], col.IsNull(0), kd.comp)
	}
	if !col.IsNull(1) {
		t.Fatal("a nullable fact key's last digit is its NULL slot")
	}
}

// avgScaled's int64 path rounds as the big-integer one (half away from
// zero), for sums of both signs, small and extreme counts, and scalings
// from none to past what int64 holds.
func TestAvgScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sums := []int64{0, 1, -1, 5, -5, 15, -15, math.MaxInt64, math.MinInt64 + 1, 1 << 40, -(1 << 40)}
	counts := []int64{1, 2, 3, 4, 7, 10, 1 << 33, math.MaxInt64}
	for range 2000 {
		sums = append(sums, r.Int64N(1<<50)-1<<49)
		counts = append(counts, 1+r.Int64N(1000))
	}
	for i, sum := range sums {
		for _, count := range []int64{counts[i%len(counts)], counts[(i*7)%len(counts)], 2, 3} {
			for _, up := range []int{0, 1, 4, 6, 12, 18, 20} {
				if got, want := avgScaled(sum, count, up), avgScaledBig(sum, count, up); got != want {
					t.Fatalf("avg(%d / %d, up %d) = %d, want %d", sum, count, up, got, want)
				}
			}
		}
	}
}
