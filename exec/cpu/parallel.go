package cpu

import (
	"runtime"
	"sync"
)

// parallelRanges splits 0..n into one contiguous range per worker (all
// cores when workers <= 0), each of 4,096 rows or more.
func parallelRanges(n, workers int, f func(lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parallelWorkers(n, max(1, min(workers, n/4096)), func(_, lo, hi int) { f(lo, hi) })
}

// parallelWorkers runs f(w, lo, hi) for each of workers contiguous ranges
// of 0..n at once, in order of w, and waits: callers that merge per-worker
// results in range order (the radix sort's offsets) index them by w.
func parallelWorkers(n, workers int, f func(w, lo, hi int)) {
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() { defer wg.Done(); f(w, lo, hi) }()
	}
	wg.Wait()
}
