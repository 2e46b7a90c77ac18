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
			bp := hashBuckets(rk, c.nr, c.w, c.nb)
			pp := hashBuckets(lk, c.nl, c.w, c.nb)
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

// TestTwoPassBitmap: the range-bucketed bitmap variant (semi and anti
// joins over one integer key) with several workers marks exactly the probe
// rows whose key a build row holds, over a narrow domain and over a sparse
// 32-bit one with probe keys outside the build's range.
func TestTwoPassBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	keys := func(n int, span int64) *relKeys {
		k := &relKeys{words: [][]int64{make([]int64, n)}, anyNull: make([]bool, n)}
		for r := range k.anyNull {
			k.words[0][r] = rng.Int64N(span) - span/4
			k.anyNull[r] = rng.IntN(40) == 0
		}
		return k
	}
	for _, c := range []struct {
		nl, nr, w int
		span      int64
	}{{0, 5, 2, 100}, {5, 0, 2, 100}, {3000, 2000, 3, 5000}, {4000, 3000, 4, 1 << 31}, {2500, 2500, 5, 1 << 20}} {
		lk, rk := keys(c.nl, c.span), keys(c.nr, c.span)
		matched, ok := twoPassBitmap(lk, rk, c.nl, c.nr, c.w)
		if !ok {
			t.Fatalf("%+v: refused", c)
		}
		for p := 0; p < c.nl; p++ {
			want := false
			for b := 0; b < c.nr && !lk.anyNull[p]; b++ {
				want = want || (!rk.anyNull[b] && lk.words[0][p] == rk.words[0][b])
			}
			if matched[p] != want {
				t.Fatalf("%+v: probe row %d (key %d): got %v", c, p, lk.words[0][p], matched[p])
			}
		}
	}
}
