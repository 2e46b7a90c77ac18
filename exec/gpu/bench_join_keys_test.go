package gpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIntersectInputs: merge-sorted, which skips the radix sort, gets
// both key sets sorted (the bench once gave it the keys as drawn, and the
// merge join trusted them); every other algorithm gets them unchanged.
func TestIntersectInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 1000, 70001} {
		r, s := make([]int64, n), make([]int64, n)
		for i := range r {
			r[i] = int64(rng.Uint32())
			s[i] = rng.Int64N(1<<40) - 1<<39 // negatives, more than 32 bits
		}
		for _, a := range []string{"hash", "bitmap", "bucketed", "merge", "merge-sorted", "merge-search"} {
			gr, gs := intersectInputs(r, s, a)
			if a != "merge-sorted" {
				if !slices.Equal(gr, r) || !slices.Equal(gs, s) {
					t.Errorf("%s n=%d: keys changed", a, n)
				}
				continue
			}
			wr, ws := slices.Clone(r), slices.Clone(s)
			slices.Sort(wr)
			slices.Sort(ws)
			if !slices.Equal(gr, wr) || !slices.Equal(gs, ws) {
				t.Errorf("merge-sorted n=%d: keys not a sorted copy", n)
			}
		}
	}
	// Extremes and equal keys.
	k := []int64{5, -1 << 63, 1<<63 - 1, 0, -1, 5, 1 << 32, -(1 << 32)}
	w := slices.Clone(k)
	slices.Sort(w)
	if got := sortedKeyCopy(k); !slices.Equal(got, w) {
		t.Errorf("sortedKeyCopy(%v) = %v, want %v", k, got, w)
	}
}
