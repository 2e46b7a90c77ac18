//go:build cuda

package gpu

import (
	"fmt"
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

// BenchmarkIntersectKernels runs bench join's intersection of two sets of
// 16 M uniform 32-bit keys (8-byte on the device, half shared) once warm,
// then once under the kernel profiler, and logs the per-kernel table (ms,
// bytes moved, GB/s, % of HBM) of the sort-merge join, the merge on
// presorted keys and the hash join: where each one's time goes.
func BenchmarkIntersectKernels(b *testing.B) {
	d := needGPU(b)
	const n = 16 << 20
	keys := make([]int64, n+n/2)
	for i := range keys {
		keys[i] = int64(uint32(uint32(i)*0x9E3779B1 + 0x7F4A7C15))
	}
	r, s := keys[:n], keys[n/2:]
	for _, algo := range []string{"merge", "merge-sorted", "hash"} {
		b.Run(algo, func(b *testing.B) {
			ra, sa := intersectInputs(r, s, algo)
			var prof *QueryProfile
			for i := 0; i < b.N; i++ {
				err := d.do(func() error {
					if _, err := d.intersectOnce(ra, sa, algo, 18); err != nil {
						return err
					}
					q := d.newQueryRun()
					defer q.close()
					rv, err := q.uploadKeys(ra)
					if err != nil {
						return err
					}
					sv, err := q.uploadKeys(sa)
					if err != nil {
						return err
					}
					return d.profiled(true, func() error {
						m, err := q.intersect(rv, sv, n, n, algo, 18, 0, 0)
						if err == nil && m != n/2 {
							err = fmt.Errorf("%s: %d matches, want %d", algo, m, n/2)
						}
						return err
					}, &prof)
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.Logf("%s, n = 16M:\n%s", algo, prof.Table())
		})
	}
}
