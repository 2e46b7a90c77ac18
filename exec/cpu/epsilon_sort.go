package cpu

import (
	"runtime"
	"slices"
	"sort"
	"sync"
)

// Sorting the points into grid cells is the largest serial step of
// building the ε-join's grid (2 M points: most of a second on one core),
// so it is a parallel sample sort: splitters from a sorted sample cut the
// keys into one bucket per worker, workers count and scatter their share
// into the buckets, then sort a bucket each. The order is total (cell id,
// then the SORTIDU coordinate, then the row), so the result is the same
// as one sort's.

// cellKey orders one point in the grid.
type cellKey struct {
	id  uint64
	u   float32 // the SORTIDU coordinate (0 without SORTIDU)
	row int32
}

func compareCellKeys(a, b cellKey) int {
	switch {
	case a.id != b.id:
		if a.id < b.id {
			return -1
		}
		return 1
	case a.u != b.u:
		if a.u < b.u {
			return -1
		}
		return 1
	}
	return int(a.row - b.row)
}

// sortCellKeys returns keys sorted (in keys or in a new slice).
func sortCellKeys(keys []cellKey, workers int) []cellKey {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := len(keys)
	workers = min(workers, n>>15)
	if workers <= 1 {
		slices.SortFunc(keys, compareCellKeys)
		return keys
	}
	sample := make([]cellKey, 0, 64*workers+1)
	for i := 0; i < n; i += n / (64 * workers) {
		sample = append(sample, keys[i])
	}
	slices.SortFunc(sample, compareCellKeys)
	split := make([]cellKey, workers-1)
	for b := range split {
		split[b] = sample[(b+1)*len(sample)/workers]
	}
	bucket := make([]uint16, n)
	counts := make([][]int, workers) // per worker's range, per bucket
	run := func(f func(w, lo, hi int)) {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() { defer wg.Done(); f(w, n*w/workers, n*(w+1)/workers) }()
		}
		wg.Wait()
	}
	run(func(w, lo, hi int) {
		counts[w] = make([]int, workers)
		for i := lo; i < hi; i++ {
			b := sort.Search(len(split), func(s int) bool { return compareCellKeys(keys[i], split[s]) < 0 })
			bucket[i] = uint16(b)
			counts[w][b]++
		}
	})
	starts := make([]int, workers+1) // bucket b: out[starts[b]:starts[b+1]]
	offs := make([][]int, workers)
	pos := 0
	for b := range workers {
		starts[b] = pos
		for w := range workers {
			if offs[w] == nil {
				offs[w] = make([]int, workers)
			}
			offs[w][b] = pos
			pos += counts[w][b]
		}
	}
	starts[workers] = n
	out := make([]cellKey, n)
	run(func(w, lo, hi int) {
		o := offs[w]
		for i := lo; i < hi; i++ {
			out[o[bucket[i]]] = keys[i]
			o[bucket[i]]++
		}
	})
	run(func(b, _, _ int) { slices.SortFunc(out[starts[b]:starts[b+1]], compareCellKeys) })
	return out
}
