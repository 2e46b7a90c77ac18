package cpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTwoPassMatch: the two-pass scatter and per-bucket build and probe,
// with several workers and buckets (more buckets than workers, fewer, one),
// find exactly the pairs of equal non-NULL keys a nested loop finds, with
// duplicates, NULLs, one heavy key and two-word keys.
func TestTwoPassMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := func(n, words int) *relKeys {
		k := &relKeys{words: make([][]int64, words), anyNull: make([]bool, n)}
		for c := range k.words {
			k.words[c] = make([]int64, n)
			for r := range k.words[c] {
				switch {
				case rng.IntN(10) == 0:
					k.words[c][r] = 7 // heavy
				default:
					k.words[c][r] = int64(rng.IntN(n/2 + 1))
				}
			}
		}
		for r := range k.anyNull {
			k.anyNull[r] = rng.IntN(30) == 0
		}
		return k
	}
	for _, c := range []struct{ nl, nr, words, w, nb int }{
		{0, 10, 1, 2, 4}, {10, 0, 1, 2, 4}, {1, 1, 1, 1, 1}, {1000, 300, 1, 3, 8},
		{5000, 4000, 2, 4, 2}, {3001, 2999, 1, 5, 64}, {777, 1234, 2, 2, 1},
	} {
		t.Run(fmt.Sprintf("%d×%d/%dw/%db", c.nl, c.nr, c.w, c.nb), func(t *testing.T) {
			lk, rk := keys(c.nl, c.words), keys(c.nr, c.words)
			bp := bucketRows(rk, c.nr, c.w, c.nb)
			pp := bucketRows(lk, c.nl, c.w, c.nb)
			lo, hi, runs := twoPassMatch(lk, rk, bp, pp, c.nl, c.w, c.nb)
			for p := 0; p < c.nl; p++ {
				var want []int32
				for b := 0; b < c.nr; b++ {
					if !lk.anyNull[p] && !rk.anyNull[b] && sameKeys(lk, p, rk, b) {
						want = append(want, int32(b))
					}
				}
				got := slices.Clone(runs[lo[p]:hi[p]])
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("probe row %d: got %v, want %v", p, got, want)
				}
			}
		})
	}
}
