//go:build cuda

package gpu

import (
	"math/rand/v2"
	"testing"
)

// TestBenchIntersect runs bench join's own path (BenchIntersect: upload,
// each algorithm, the count read back) at small sizes, none a multiple of
// a tile, and checks every algorithm's count against a brute-force set
// intersection. The first H100 run of bench join failed every
// merge-sorted line with a garbage join size; this catches that.
func TestBenchIntersect(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(12, 1))
	for _, c := range []struct {
		n, m   int
		domain int64
	}{{1, 1, 10}, {1000, 3000, 1 << 12}, {50001, 40003, 1 << 32}, {70001, 70001, 1 << 17}} {
		r, s := uniqueKeys(rng, c.n, c.domain), uniqueKeys(rng, c.m, c.domain)
		in := map[int64]bool{}
		for _, k := range s {
			in[k] = true
		}
		var want int64
		for _, k := range r {
			if in[k] {
				want++
			}
		}
		ts, err := BenchIntersect(r, s, IntersectAlgorithms, 18, 1)
		if err != nil {
			t.Fatalf("n=%d m=%d: %v", c.n, c.m, err)
		}
		for _, x := range ts {
			if x.Matches != want {
				t.Errorf("n=%d m=%d domain=%d %s: %d matches, want %d", c.n, c.m, c.domain, x.Algorithm, x.Matches, want)
			}
		}
	}
}

// uniqueKeys draws n distinct keys from [0, domain) (domain ≥ n).
func uniqueKeys(rng *rand.Rand, n int, domain int64) []int64 {
	seen := map[int64]bool{}
	out := make([]int64, 0, n)
	for len(out) < n {
		k := rng.Int64N(domain)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
