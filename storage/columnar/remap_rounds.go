package columnar

import (
	"runtime"
	"sync"
)

// LayoutRounds is the mean serialization rounds per warp (ChunkRounds) of
// a column's values hitting a shared-memory table laid out as replicas
// copies stride words apart, row r of a chunk (lane r mod 32) using copy
// r mod replicas: replicas 1 is the plain layout, value v in word v. The
// chunks are counted on all cores.
func LayoutRounds(values []int32, replicas, stride, banks, chunk int, atomic bool) float64 {
	chunks := (len(values) + chunk - 1) / chunk
	if chunks == 0 {
		return 0
	}
	workers := runtime.GOMAXPROCS(0)
	per := (chunks + workers - 1) / workers
	sums := make([]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			words := make([]int32, chunk)
			for c := w * per; c < min(chunks, (w+1)*per); c++ {
				rows := values[c*chunk : min(len(values), (c+1)*chunk)]
				for r, v := range rows {
					words[r] = int32(r%replicas*stride) + v
				}
				sums[w] += int64(ChunkRounds(words[:len(rows)], banks, atomic))
			}
		}()
	}
	wg.Wait()
	total := int64(0)
	for _, s := range sums {
		total += s
	}
	return float64(total) / float64(chunks)
}
