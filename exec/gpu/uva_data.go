package gpu

import (
	"runtime"
	"sync"
)

// The tables of `gpusql bench uva` (Kaldewey et al.'s join experiment):
// 8-byte tuples {key, payload}. Build keys are unique and scattered
// (a bijection of the row number), so the hash table sees no clustering
// the generator put there; a probe tuple matches with probability rate,
// and a non-matching key is one no build row has, so the match count is
// known exactly without joining.

// UVATuple is one 8-byte tuple: a join key and a payload (the row number).
type UVATuple [2]int32

// uvaKey maps row i < 2^31 to a distinct key in [0, 2^31): multiplication
// by an odd constant is a bijection modulo 2^31. Keys are never -1, the
// kernels' empty-slot mark.
func uvaKey(i int64) int32 {
	return int32(uint32(uint64(i)*2654435761) & 0x7fffffff)
}

// splitmix64 is a well-mixed hash of a row number (Steele et al.).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// FillUVABuild writes build row i as {uvaKey(i), i}.
func FillUVABuild(r []UVATuple) {
	parallelRange(int64(len(r)), func(lo, hi int64) {
		for i := lo; i < hi; i++ {
			r[i] = UVATuple{uvaKey(i), int32(i)}
		}
	})
}

// FillUVAProbe writes probe row j as {key, j}: with probability rate the
// key of a random build row (of nBuild), else a key of a row past nBuild,
// which no build row has. It returns the number of matching rows.
func FillUVAProbe(s []UVATuple, nBuild int64, rate float64) int64 {
	var mu sync.Mutex
	var total int64
	cut := uint64(rate * (1 << 53))
	parallelRange(int64(len(s)), func(lo, hi int64) {
		var m int64
		for j := lo; j < hi; j++ {
			h := splitmix64(uint64(j))
			if h>>11 < cut {
				s[j] = UVATuple{uvaKey(int64(h % uint64(nBuild))), int32(j)}
				m++
			} else {
				s[j] = UVATuple{uvaKey(nBuild + int64(h%uint64(1<<31-nBuild))), int32(j)}
			}
		}
		mu.Lock()
		total += m
		mu.Unlock()
	})
	return total
}

// parallelRange runs f over [0, n) cut into one piece per CPU.
func parallelRange(n int64, f func(lo, hi int64)) {
	parts := int64(runtime.GOMAXPROCS(0))
	step := (n + parts - 1) / max(parts, 1)
	var wg sync.WaitGroup
	for lo := int64(0); lo < n; lo += step {
		wg.Add(1)
		go func(lo, hi int64) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+step, n))
	}
	wg.Wait()
}
