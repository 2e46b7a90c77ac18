package ssbgen

import (
	"math"
	"runtime"
	"sort"
	"sync"
)

// ZipfColumn draws n values in [0, c) under Zipf skew theta: the value of
// rank k (1-based) has probability proportional to 1/k^theta (0: uniform;
// 1: the top value takes ~13 % of 1024 values' rows, 2: ~61 %). Ranks are
// mapped to values by a seeded permutation, so the hot values fall in
// arbitrary shared-memory banks rather than in banks 0, 1, 2, .... Rows
// are drawn in blocks on all cores, each block from its own generator, so
// the column depends only on (n, c, theta, seed).
func ZipfColumn(n, c int, theta float64, seed uint64) []int32 {
	out := make([]int32, n)
	if n == 0 || c <= 0 {
		return out
	}
	cdf := make([]float64, c)
	sum := 0.0
	for k := range cdf {
		sum += 1 / math.Pow(float64(k+1), theta)
		cdf[k] = sum
	}
	perm := make([]int32, c)
	r := newRNG(seed, streamZipf, -1)
	for i := range perm {
		j := int(r.next() % uint64(i+1))
		perm[i], perm[j] = perm[j], int32(i)
	}
	const block = 1 << 16
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				g := newRNG(seed, streamZipf, int64(b))
				for i := b * block; i < min(n, (b+1)*block); i++ {
					x := float64(g.next()>>11) / (1 << 53) * sum
					out[i] = perm[min(sort.SearchFloat64s(cdf, x), c-1)]
				}
			}
		}()
	}
	for b := 0; b*block < n; b++ {
		next <- b
	}
	close(next)
	wg.Wait()
	return out
}
