package cpu

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The ε-similarity join on the CPU: every query point looks up the 3^k
// grid cells around its own (binary search over the non-empty cell ids),
// narrows each cell to the SORTIDU window (points sorted by the first
// unindexed dimension, searched then scanned within ε) and tests the
// candidates with EpsilonTest (SHORTC). Queries are split into morsels
// that the workers take in turn; a worker's pairs collect in a local
// buffer handed to the sink when full, so memory stays bounded whatever
// the number of pairs. Same grid, same predicate, same pairs as the GPU.

// epsilonMorsel is the number of queries a worker takes at a time.
const epsilonMorsel = 512

// EpsilonPairBuffer is the number of pairs a worker buffers before
// handing them to the sink.
const EpsilonPairBuffer = 1 << 16

// EpsilonSink receives pairs as original rows, interleaved: pairs[2i] (an
// outer row) is within ε of pairs[2i+1] (an inner row). Calls are
// serialized; the slice is reused after it returns.
type EpsilonSink func(pairs []int32) error

// neighbourOffsets lists the 3^k offset vectors, k per entry.
func neighbourOffsets(k int) []int32 {
	total := 1
	for range k {
		total *= 3
	}
	out := make([]int32, total*k)
	for t := range total {
		v := t
		for d := k - 1; d >= 0; d-- {
			out[t*k+d] = int32(v%3) - 1
			v /= 3
		}
	}
	return out
}

// epsilonProbe visits, for one query, the candidate points of the grid.
type epsilonProbe struct {
	g        *EpsilonGrid
	offsets  []int32 // the 3^(k-1) offset vectors of the first k-1 dimensions
	prefixes int     // their number
}

func newEpsilonProbe(g *EpsilonGrid) epsilonProbe {
	off := neighbourOffsets(g.K - 1)
	return epsilonProbe{g: g, offsets: off, prefixes: max(1, len(off)/max(1, g.K-1))}
}

// candidates calls f with each candidate range lo..hi of grid points for
// query point q (stored order) at cell coordinates coords. The three
// neighbours along the last indexed dimension have consecutive ids, so
// one binary search finds the first of them and the others follow it in
// CellIDs: 3^(k-1) searches per query instead of the paper's 3^k.
func (p *epsilonProbe) candidates(q []float32, coords []int32, f func(lo, hi int)) {
	g, k := p.g, p.g.K
	last := k - 1
	lo := max(coords[last]-1, 0)
	hi := min(coords[last]+1, g.Cells[last]-1)
	if lo > hi {
		return
	}
	for t := range p.prefixes {
		id, inside := uint64(0), true
		for d := range last {
			c := coords[d] + p.offsets[t*last+d]
			if c < 0 || c >= g.Cells[d] {
				inside = false
				break
			}
			id += uint64(c) * g.Stride[d]
		}
		if !inside {
			continue
		}
		first, end := id+uint64(lo), id+uint64(hi)
		cell, _ := slices.BinarySearch(g.CellIDs, first)
		for ; cell < len(g.CellIDs) && g.CellIDs[cell] <= end; cell++ {
			a, b := int(g.CellStart[cell]), int(g.CellStart[cell+1])
			if g.SortDim >= 0 {
				a, b = p.window(q, a, b)
			}
			if a < b {
				f(a, b)
			}
		}
	}
}

// window narrows a cell's range to the points whose SORTIDU coordinate
// lies within the reach of the query's.
func (p *epsilonProbe) window(q []float32, lo, hi int) (int, int) {
	g := p.g
	n, u := g.Dims, g.SortDim
	from, to := float64(q[u])-g.Reach, float64(q[u])+g.Reach
	a, b := lo, hi
	for a < b { // first point with coordinate ≥ from
		m := int(uint(a+b) >> 1)
		if float64(g.Data[m*n+u]) < from {
			a = m + 1
		} else {
			b = m
		}
	}
	end := a
	for end < hi && float64(g.Data[end*n+u]) <= to {
		end++
	}
	return a, end
}

// forEachQuery runs work over the queries in morsels on all workers.
func forEachQuery(q *EpsilonQueries, workers int, work func(w, lo, hi int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(epsilonMorsel)) - epsilonMorsel
				if lo >= q.N() {
					return
				}
				if err := work(w, lo, min(lo+epsilonMorsel, q.N())); err != nil {
					errs[w] = err
					next.Store(int64(q.N()))
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// EpsilonJoinCount counts, for every outer row, the inner points within
// ε; the pairs are never materialized. counts is indexed by outer row.
func EpsilonJoinCount(g *EpsilonGrid, q *EpsilonQueries, workers int) (counts []int32, total int64) {
	counts = make([]int32, q.N())
	var sum atomic.Int64
	p := new(epsilonProbe)
	*p = newEpsilonProbe(g)
	n, k := g.Dims, g.K
	forEachQuery(q, workers, func(_, lo, hi int) error {
		var local int64
		for i := lo; i < hi; i++ {
			qp := q.Data[i*n : i*n+n]
			c := int32(0)
			p.candidates(qp, q.Coords[i*k:i*k+k], func(a, b int) {
				for j := a; j < b; j++ {
					if g.Test.Within(qp, g.Data[j*n:j*n+n]) {
						c++
					}
				}
			})
			counts[q.Rows[i]] = c
			local += int64(c)
		}
		sum.Add(local)
		return nil
	})
	return counts, sum.Load()
}

// EpsilonJoinPairs finds every pair within ε and hands them to sink in
// batches of at most EpsilonPairBuffer; it returns the number of pairs.
func EpsilonJoinPairs(g *EpsilonGrid, q *EpsilonQueries, workers int, sink EpsilonSink) (int64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	var total atomic.Int64
	p := new(epsilonProbe)
	*p = newEpsilonProbe(g)
	n, k := g.Dims, g.K
	bufs := make([][]int32, workers)
	flush := func(w int) error {
		if len(bufs[w]) == 0 {
			return nil
		}
		total.Add(int64(len(bufs[w]) / 2))
		mu.Lock()
		err := sink(bufs[w])
		mu.Unlock()
		bufs[w] = bufs[w][:0]
		return err
	}
	err := forEachQuery(q, workers, func(w, lo, hi int) error {
		if bufs[w] == nil {
			bufs[w] = make([]int32, 0, 2*EpsilonPairBuffer)
		}
		var err error
		for i := lo; i < hi && err == nil; i++ {
			qp, row := q.Data[i*n:i*n+n], q.Rows[i]
			p.candidates(qp, q.Coords[i*k:i*k+k], func(a, b int) {
				for j := a; j < b && err == nil; j++ {
					if !g.Test.Within(qp, g.Data[j*n:j*n+n]) {
						continue
					}
					bufs[w] = append(bufs[w], row, g.Rows[j])
					if len(bufs[w]) == 2*EpsilonPairBuffer {
						err = flush(w)
					}
				}
			})
		}
		return err
	})
	if err != nil {
		return total.Load(), err
	}
	for w := range workers {
		if err := flush(w); err != nil {
			return total.Load(), err
		}
	}
	return total.Load(), nil
}

// EpsilonProber finds the inner points within ε of one query point at a
// time: the SQL operator streams its outer rows through one per worker.
type EpsilonProber struct {
	g      *EpsilonGrid
	probe  epsilonProbe
	q      []float32
	coords []int32
}

// NewProber returns a prober over g (not safe for concurrent use).
func (g *EpsilonGrid) NewProber() *EpsilonProber {
	return &EpsilonProber{g: g, probe: newEpsilonProbe(g),
		q: make([]float32, g.Dims), coords: make([]int32, g.K)}
}

// Probe calls emit with the original row of every inner point within ε of
// point (in its original dimension order).
func (pr *EpsilonProber) Probe(point []float32, emit func(row int32) error) error {
	g := pr.g
	if len(point) != g.Dims {
		return fmt.Errorf("epsilon join: vectors of %d and %d dimensions cannot be compared", len(point), g.Dims)
	}
	for j, d := range g.Perm {
		pr.q[j] = point[d]
	}
	g.coords(pr.q, pr.coords)
	n := g.Dims
	var err error
	pr.probe.candidates(pr.q, pr.coords, func(a, b int) {
		for j := a; j < b && err == nil; j++ {
			if g.Test.Within(pr.q, g.Data[j*n:j*n+n]) {
				err = emit(g.Rows[j])
			}
		}
	})
	return err
}
