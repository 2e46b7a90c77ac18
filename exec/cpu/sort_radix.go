package cpu

// radixSortWords sorts words stably by their bits [lo, lo+width) (the
// rank bits above the row number sortPermByInts packs below them): an LSD
// radix sort over 8-bit digits, each pass a histogram of every worker's
// chunk, offsets in chunk order (which keeps it stable), and a scatter of
// every chunk in parallel. The words arrive in row order, so ties keep it.
// A pass reads and writes each word once: 10 M words of 27 rank bits take
// four passes, against some 23 comparisons a word for pdqsort on one core.
func radixSortWords(words []uint64, lo, width, workers int) {
	radixSort(words, func(w uint64) uint64 { return w }, lo, width, workers)
}

// radixSort is radixSortWords over any elements, keyed by key's bits
// [lo, lo+width).
func radixSort[T any](xs []T, key func(T) uint64, lo, width, workers int) {
	n := len(xs)
	if n < 2 || width <= 0 {
		return
	}
	workers = max(1, min(workers, n/radixMinChunk))
	tmp := make([]T, n)
	src, dst := xs, tmp
	counts := make([][256]int, workers)
	for shift := lo; shift < lo+width; shift += 8 {
		parallelWorkers(n, workers, func(w, a, b int) {
			c := &counts[w]
			*c = [256]int{}
			for _, x := range src[a:b] {
				c[byte(key(x)>>shift)]++
			}
		})
		at := 0
		for d := range 256 {
			for w := range workers {
				c := counts[w][d]
				counts[w][d] = at
				at += c
			}
		}
		parallelWorkers(n, workers, func(w, a, b int) {
			c := &counts[w]
			for _, x := range src[a:b] {
				d := byte(key(x) >> shift)
				dst[c[d]] = x
				c[d]++
			}
		})
		src, dst = dst, src
	}
	if &src[0] != &xs[0] {
		copy(xs, src)
	}
}

// radixMinChunk is the fewest words a worker is given: below it the
// goroutines cost more than they save. A variable for tests.
var radixMinChunk = 1 << 16
