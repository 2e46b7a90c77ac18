package cpu

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A DOUBLE frame that does not start at its partition's first row cannot
// take the difference of two running sums: a running sum that has passed
// 1e17 has lost every 1 added after it, and 1e17 + 1 + 1 − 1e17 is 0, not
// the 2 that MySQL (windowing_use_high_precision, on by default: each
// frame summed on its own) gives for the frame holding the two 1s. Such
// frames are summed from a segment tree over the sorted values instead:
// each frame adds at most two nodes a level, every node the pairwise sum
// of its own rows only, so the error is bounded by the frame's values and
// never by what came before it in the partition.

// floatSumTree is a bottom-up segment tree over the sorted positions'
// values (NULL as 0): leaves at [n, 2n), node i the sum of 2i and 2i+1.
type floatSumTree struct {
	n     int
	nodes []float64
}

// floatSumTreeBytes is what a tree holds per row, charged while it lives.
const floatSumTreeBytes = 16

func newFloatSumTree(wo *windowOrder, arg *columnar.Column) *floatSumTree {
	n := len(wo.perm)
	t := &floatSumTree{n: n, nodes: make([]float64, 2*n)}
	parallelRanges(n, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if row := int(wo.perm[i]); !arg.IsNull(row) {
				t.nodes[n+i] = arg.F64[row]
			}
		}
	})
	for i := n - 1; i > 0; i-- {
		t.nodes[i] = t.nodes[2*i] + t.nodes[2*i+1]
	}
	return t
}

// sum adds the values at sorted positions [lo, hi), left nodes before
// right ones.
func (t *floatSumTree) sum(lo, hi int) float64 {
	var left, right float64
	for l, r := lo+t.n, hi+t.n; l < r; l, r = l/2, r/2 {
		if l&1 == 1 {
			left += t.nodes[l]
			l++
		}
		if r&1 == 1 {
			r--
			right = t.nodes[r] + right
		}
	}
	return left + right
}

// slidingFloatSums fills sums[i] for every sorted position whose non-empty
// frame starts after its partition's first row; the others are left alone.
func slidingFloatSums(wo *windowOrder, arg *columnar.Column, fr *frames, starts []int, sums []float64) {
	var t *floatSumTree
	for i := range wo.perm {
		if fr.hi[i] > fr.lo[i] && fr.lo[i] != starts[i] {
			t = newFloatSumTree(wo, arg)
			break
		}
	}
	if t == nil {
		return
	}
	parallelRanges(len(wo.perm), 0, func(from, to int) {
		for i := from; i < to; i++ {
			if lo, hi := fr.lo[i], fr.hi[i]; hi > lo && lo != starts[i] {
				sums[i] = t.sum(lo, hi)
			}
		}
	})
}

// moments are a set of values' count, mean and sum of squared deviations
// (M2), which merge without cancelling (Chan, Golub and LeVeque): the
// variance of a frame of small values after a huge one comes out as the
// small values' own, where prefix sums of squares had lost them.
type moments struct{ n, mean, m2 float64 }

func (a moments) merge(b moments) moments {
	if a.n == 0 {
		return b
	}
	if b.n == 0 {
		return a
	}
	n := a.n + b.n
	d := b.mean - a.mean
	return moments{n: n, mean: a.mean + d*(b.n/n), m2: a.m2 + b.m2 + d*d*(a.n*b.n/n)}
}

// momentTree is floatSumTree's layout over moments.
type momentTree struct {
	n     int
	nodes []moments
}

// momentTreeBytes is what a tree holds per row, charged while it lives.
const momentTreeBytes = 48

func newMomentTree(wo *windowOrder, arg *columnar.Column) *momentTree {
	n := len(wo.perm)
	t := &momentTree{n: n, nodes: make([]moments, 2*n)}
	parallelRanges(n, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if row := int(wo.perm[i]); !arg.IsNull(row) {
				t.nodes[n+i] = moments{n: 1, mean: arg.F64[row]}
			}
		}
	})
	for i := n - 1; i > 0; i-- {
		t.nodes[i] = t.nodes[2*i].merge(t.nodes[2*i+1])
	}
	return t
}

// of merges the moments of sorted positions [lo, hi).
func (t *momentTree) of(lo, hi int) moments {
	var left, right moments
	for l, r := lo+t.n, hi+t.n; l < r; l, r = l/2, r/2 {
		if l&1 == 1 {
			left = left.merge(t.nodes[l])
			l++
		}
		if r&1 == 1 {
			r--
			right = t.nodes[r].merge(right)
		}
	}
	return left.merge(right)
}

// floatFrameBytes is what w's trees hold per row beyond windowScratchBytes,
// charged while the function is computed.
func floatFrameBytes(w *sql.WindowFunc) int64 {
	if w.Agg.Arg == nil || w.Agg.Arg.Type().Physical() != columnar.PhysFloat64 {
		return 0
	}
	switch w.Agg.Func {
	case sql.AggSum, sql.AggAvg:
		return floatSumTreeBytes
	case sql.AggVarPop, sql.AggVarSamp, sql.AggStddevPop, sql.AggStddevSamp:
		return momentTreeBytes + 9 // and the results by sorted position
	}
	return 0
}
