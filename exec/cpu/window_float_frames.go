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
// never by what came before it in the partition. The variances merge
// moments the same way.

// segTree is a bottom-up segment tree over the sorted positions' values:
// leaves at [n, 2n) (a NULL the zero T, merge's identity), node i the
// merge of 2i and 2i+1.
type segTree[T any] struct {
	n     int
	nodes []T
	merge func(a, b T) T
}

// newSegTree builds the tree of leaf(row) (false: NULL) in wo's order.
func newSegTree[T any](wo *windowOrder, leaf func(row int) (T, bool), merge func(a, b T) T) *segTree[T] {
	n := len(wo.perm)
	t := &segTree[T]{n: n, nodes: make([]T, 2*n), merge: merge}
	parallelRanges(n, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if v, ok := leaf(int(wo.perm[i])); ok {
				t.nodes[n+i] = v
			}
		}
	})
	for i := n - 1; i > 0; i-- {
		t.nodes[i] = merge(t.nodes[2*i], t.nodes[2*i+1])
	}
	return t
}

// of merges the values at sorted positions [lo, hi), left nodes before
// right ones.
func (t *segTree[T]) of(lo, hi int) T {
	var left, right T
	for l, r := lo+t.n, hi+t.n; l < r; l, r = l/2, r/2 {
		if l&1 == 1 {
			left = t.merge(left, t.nodes[l])
			l++
		}
		if r&1 == 1 {
			r--
			right = t.merge(t.nodes[r], right)
		}
	}
	return t.merge(left, right)
}

// floatSumTreeBytes is what a sum tree holds per row, charged while it lives.
const floatSumTreeBytes = 16

// slidingFloatSums fills sums[i] for every sorted position whose non-empty
// frame starts after its partition's first row; the others are left alone.
func slidingFloatSums(wo *windowOrder, arg *columnar.Column, fr *frames, starts []int, sums []float64) {
	sliding := func(i int) bool { return fr.hi[i] > fr.lo[i] && fr.lo[i] != starts[i] }
	found := false
	for i := range wo.perm {
		if found = sliding(i); found {
			break
		}
	}
	if !found {
		return
	}
	t := newSegTree(wo, func(row int) (float64, bool) { return arg.F64[row], !arg.IsNull(row) },
		func(a, b float64) float64 { return a + b })
	parallelRanges(len(wo.perm), 0, func(from, to int) {
		for i := from; i < to; i++ {
			if sliding(i) {
				sums[i] = t.of(fr.lo[i], fr.hi[i])
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

// momentTreeBytes is what a moments tree holds per row, charged while it
// lives.
const momentTreeBytes = 48

func newMomentTree(wo *windowOrder, arg *columnar.Column) *segTree[moments] {
	return newSegTree(wo, func(row int) (moments, bool) { return moments{n: 1, mean: arg.F64[row]}, !arg.IsNull(row) },
		moments.merge)
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
