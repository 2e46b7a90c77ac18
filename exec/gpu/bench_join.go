//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
)

// IntersectTiming is one algorithm's intersection of two key sets on the
// GPU: Kernel is the device time with both key vectors resident (build,
// probe, and the count read back); Total adds copying both key vectors
// from host memory first. Matches is the intersection's size.
type IntersectTiming struct {
	Algorithm     string
	Kernel, Total time.Duration
	Matches       int64
}

// IntersectAlgorithms are the algorithms BenchIntersect runs.
var IntersectAlgorithms = []string{"hash", "bitmap", "bucketed", "merge", "merge-sorted", "merge-search"}

// BenchIntersect intersects the key sets r and s (8-byte keys on the
// device, the executor's join key width) with each algorithm of algos,
// runs times each, and reports the fastest run of each: the hash join
// (open addressing, join_probe), one global bitmap over the keys' domain
// (bitmap_join.cu), the bucketed bitmap with shared-memory buckets of
// 2^bucketBits values, the sort-merge join (radix sort both sides, merge
// path), "merge-sorted": the merge-path join alone on key sets sorted on
// the host beforehand, untimed (intersectInputs: as an input sorted on
// the key is, not sorted again), "merge-search": sort, then the earlier
// join stage (one thread per left row, two binary searches), for
// comparison; and "hash-P" / "hash-Pr": the hash join in P passes over
// partitions, scattered once or re-read each pass (hash_join_passes.go).
func BenchIntersect(r, s []int64, algos []string, bucketBits, runs int) ([]IntersectTiming, error) {
	d, err := getDevice()
	if err != nil {
		return nil, fmt.Errorf("gpu: no GPU available: %v", err)
	}
	var out []IntersectTiming
	err = d.do(func() error {
		for _, a := range algos {
			best := IntersectTiming{Algorithm: a}
			ra, sa := intersectInputs(r, s, a)
			for i := 0; i < max(runs, 1); i++ {
				t, err := d.intersectOnce(ra, sa, a, bucketBits)
				if err != nil {
					return fmt.Errorf("gpu: intersect %s: %w", a, err)
				}
				if i == 0 || t.Total < best.Total {
					best.Total = t.Total
				}
				if i == 0 || t.Kernel < best.Kernel {
					best.Kernel = t.Kernel
				}
				best.Matches = t.Matches
			}
			out = append(out, best)
		}
		return nil
	})
	return out, err
}

// intersectOnce uploads both key vectors (timed: the transfers) and
// intersects them (timed: the kernels).
func (d *device) intersectOnce(r, s []int64, algo string, bucketBits int) (IntersectTiming, error) {
	q := d.newQueryRun()
	defer q.close()
	t0 := time.Now()
	rv, err := q.uploadKeys(r)
	if err != nil {
		return IntersectTiming{}, err
	}
	sv, err := q.uploadKeys(s)
	if err != nil {
		return IntersectTiming{}, err
	}
	if err := cu.Synchronize(); err != nil {
		return IntersectTiming{}, err
	}
	// The bitmaps' domain is s's [min, max], which the planner knows from
	// statistics: found before the kernels are timed.
	var lo, hi int64
	if len(s) > 0 {
		lo, hi = slices.Min(s), slices.Max(s)
	}
	t1 := time.Now()
	m, err := q.intersect(rv, sv, int64(len(r)), int64(len(s)), algo, bucketBits, lo, hi)
	if err != nil {
		return IntersectTiming{}, err
	}
	if err := cu.Synchronize(); err != nil {
		return IntersectTiming{}, err
	}
	t2 := time.Now()
	return IntersectTiming{Algorithm: algo, Kernel: t2.Sub(t1), Total: t2.Sub(t0), Matches: m}, nil
}

func (r *queryRun) uploadKeys(keys []int64) (colView, error) {
	p, err := r.s.alloc(8 * int64(max(len(keys), 1)))
	if err != nil {
		return colView{}, err
	}
	if len(keys) > 0 {
		if err := cu.MemcpyHtoD(p, unsafe.Pointer(&keys[0]), int64(8*len(keys))); err != nil {
			return colView{}, err
		}
	}
	return colView{Data: uint64(p), Width: 8}, nil
}

// passesAlgorithm parses "hash-P" (the hash join in P passes over
// partitions scattered once) and "hash-Pr" (each pass re-reads both
// sides), P a power of two from 2 to 4096.
func passesAlgorithm(algo string) (np int, reread, ok bool) {
	rest, found := strings.CutPrefix(algo, "hash-")
	if !found {
		return 0, false, false
	}
	rest, reread = strings.CutSuffix(rest, "r")
	np, err := strconv.Atoi(rest)
	if err != nil || np < 2 || np > 4096 || np&(np-1) != 0 {
		return 0, false, false
	}
	return np, reread, true
}

// intersect counts the probe keys (r) found among the build keys (s),
// whose values lie in [lo, hi].
func (q *queryRun) intersect(rv, sv colView, nr, ns int64, algo string, bucketBits int, lo, hi int64) (int64, error) {
	switch algo {
	case "hash":
		jp := joinParams{NProbe: nr, NBuild: ns, NKeys: 1}
		jp.Probe[0], jp.Build[0] = rv, sv
		pr, err := q.equiPairs(&q.s, &jp, nr)
		return pr.m, err
	case "bitmap", "bucketed":
		if ns == 0 {
			return 0, nil
		}
		p := bitmapParams{NProbe: nr, NBuild: ns, Probe: rv, Build: sv, Min: lo, Span: uint64(hi-lo) + 1}
		var pr pairs
		var ok bool
		var err error
		if algo == "bitmap" {
			pr, ok, err = q.bitmapPairs(&p, false)
		} else {
			pr, ok, err = q.bucketedBitmapPairs(&p, bucketBits)
		}
		if err == nil && !ok {
			err = fmt.Errorf("the keys do not fit the %s join", algo)
		}
		return pr.m, err
	case "merge", "merge-sorted", "merge-search":
		sorted := algo == "merge-sorted"
		ls, err := q.joinSide(nr, []sortKey{{v: rv}}, sorted)
		if err != nil {
			return 0, err
		}
		rs, err := q.joinSide(ns, []sortKey{{v: sv}}, sorted)
		if err != nil {
			return 0, err
		}
		var pr pairs
		if algo == "merge-search" {
			pr, err = q.binarySearchPairs(ls, rs, 1, true)
		} else {
			pr, err = q.mergePathPairs(ls, rs, 1, true)
		}
		return pr.m, err
	}
	if np, reread, ok := passesAlgorithm(algo); ok {
		jp := joinParams{NProbe: nr, NBuild: ns, NKeys: 1}
		jp.Probe[0], jp.Build[0] = rv, sv
		var m int64
		err := q.forEachPass(&jp, &planner.GPUJoinPasses{Passes: np, Scatter: !reread}, nr, func(pr pairs) error {
			m += pr.m
			return nil
		})
		return m, err
	}
	return 0, fmt.Errorf("unknown algorithm %q (want %v, or hash-P / hash-Pr: the hash join in P passes, scattered once / re-read)", algo, IntersectAlgorithms)
}
