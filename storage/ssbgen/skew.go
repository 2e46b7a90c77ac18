package ssbgen

import (
	"math"
	"sort"
)

// Skewed foreign keys (Options.Skew): lo_custkey and lo_partkey drawn
// under Zipf θ instead of dbgen's uniform draws, for the shared-memory
// conflict experiments of Sitaridi and Ross: the key of rank k (0-based)
// is (k·step mod n) + 1, step coprime with n, so the hot keys are spread
// over the key range (and over shared-memory banks) rather than being
// 1, 2, 3, .... Customer mortality (no orders for multiples of 3) is not
// applied to skewed keys.

// zipfKeys draws keys 1..n under Zipf θ by inverting the cumulative
// weights 1/(k+1)^θ.
type zipfKeys struct {
	cdf  []float64
	step int64
}

func newZipfKeys(n int64, theta float64) *zipfKeys {
	z := &zipfKeys{cdf: make([]float64, n), step: 1}
	sum := 0.0
	for k := range z.cdf {
		sum += 1 / math.Pow(float64(k+1), theta)
		z.cdf[k] = sum
	}
	// A step near n/φ that shares no factor with n.
	for s := max(int64(float64(n)*0.618), 1); n > 1; s++ {
		if gcd(s, n) == 1 {
			z.step = s
			break
		}
	}
	return z
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (z *zipfKeys) draw(r *rng) int64 {
	n := int64(len(z.cdf))
	x := float64(r.next()>>11) / (1 << 53) * z.cdf[n-1]
	rank := min(int64(sort.SearchFloat64s(z.cdf, x)), n-1)
	return rank*z.step%n + 1
}
