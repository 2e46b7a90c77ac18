package cpu

import (
	"fmt"
	"math"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// frameMoreAggregate computes the statistical and bitwise aggregates
// (VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP and their aliases, BIT_AND,
// BIT_OR, BIT_XOR) over each row's frame in time linear in the partition,
// whatever the frames' sizes; ok is false for any other aggregate.
func frameMoreAggregate(w *sql.WindowFunc, wo *windowOrder, fr *frames, arg *columnar.Column) (*columnar.Column, bool) {
	switch w.Agg.Func {
	case sql.AggVarPop, sql.AggVarSamp, sql.AggStddevPop, sql.AggStddevSamp:
		return frameVariance(w.Agg.Func, wo, fr, arg), true
	case sql.AggBitAnd, sql.AggBitOr, sql.AggBitXor:
		return frameBits(w.Agg.Func, wo, fr, arg), true
	}
	return nil, false
}

// frameVariance merges each frame's moments from a segment tree
// (window_float_frames.go): O(log n) a row whatever the frame, and no
// cancellation between what lies inside the frame and what came before.
// NULLs are skipped; a frame with too few values is NULL, as in GROUP BY.
func frameVariance(f sql.AggFunc, wo *windowOrder, fr *frames, arg *columnar.Column) *columnar.Column {
	n := len(wo.perm)
	t := newMomentTree(wo, arg)
	// By sorted position, in parallel (the column's validity words are
	// shared by rows of different workers: set after).
	vals, null := make([]float64, n), make([]bool, n)
	parallelRanges(n, 0, func(from, to int) {
		for i := from; i < to; i++ {
			m := t.of(fr.lo[i], max(fr.hi[i], fr.lo[i]))
			div := m.n
			if f == sql.AggVarSamp || f == sql.AggStddevSamp {
				div--
			}
			if div <= 0 {
				null[i] = true
				continue
			}
			v := max(m.m2, 0) / div
			if f == sql.AggStddevPop || f == sql.AggStddevSamp {
				v = math.Sqrt(v)
			}
			vals[i] = v
		}
	})
	col := newColumn(columnar.TFloat64, n, true)
	for i, row := range wo.perm {
		if null[i] {
			col.SetNull(int(row))
			continue
		}
		col.SetValid(int(row))
		col.F64[row] = vals[i]
	}
	return dropValidity(col)
}

// frameBits folds BIT_AND, BIT_OR or BIT_XOR over each frame with a
// two-stack queue: frames only slide forward within a partition, so each
// position is pushed once and folded into a suffix at most once. NULLs
// fold as the identity; an empty frame is the identity, as an empty group
// is (and BIT_AND's all-ones is out of BIGINT's range there too).
func frameBits(f sql.AggFunc, wo *windowOrder, fr *frames, arg *columnar.Column) *columnar.Column {
	op, id := func(a, b uint64) uint64 { return a | b }, uint64(0)
	switch f {
	case sql.AggBitAnd:
		op, id = func(a, b uint64) uint64 { return a & b }, math.MaxUint64
	case sql.AggBitXor:
		op = func(a, b uint64) uint64 { return a ^ b }
	}
	val := func(p int) uint64 {
		if r := int(wo.perm[p]); !arg.IsNull(r) {
			return uint64(arg.Int64At(r))
		}
		return id
	}
	n := len(wo.perm)
	col := newColumn(columnar.TInt64, n, false)
	suffix := make([]uint64, n+1)
	wo.partitions(func(ps, pe int) {
		qlo, mid, qhi, back := ps, ps, ps, id
		for i := ps; i < pe; i++ {
			lo, hi := fr.lo[i], max(fr.hi[i], fr.lo[i])
			for ; qhi < hi; qhi++ {
				back = op(back, val(qhi))
			}
			for qlo < lo {
				if qlo == mid { // the front stack is empty: move the back into it
					mid = qhi
					suffix[mid] = id
					for p := mid - 1; p >= qlo; p-- {
						suffix[p] = op(val(p), suffix[p+1])
					}
					back = id
				}
				qlo++
			}
			v := back
			if qlo < mid {
				v = op(suffix[qlo], back)
			}
			if int64(v) < 0 {
				raise(fmt.Errorf("%s() OVER a window: result %d is out of BIGINT range (MySQL returns BIGINT UNSIGNED; gpusql has no unsigned type)", sql.AggName(f), v))
			}
			col.I64[wo.perm[i]] = int64(v)
		}
	})
	return col
}

// frameJSONAgg is JSON_ARRAYAGG or JSON_OBJECTAGG over each row's frame,
// the values in frame order (JSON_OBJECTAGG: the last value of a repeated
// key wins), NULL for an empty frame. Each row's text holds its whole
// frame, so the work and the result grow with the frames' total size:
// every text is charged before it is kept.
func frameJSONAgg(a sql.AggExpr, wo *windowOrder, fr *frames, arg *columnar.Column, charge func(int64) error) (*columnar.Column, error) {
	n := len(wo.perm)
	out := make([]string, n)
	has := make([]bool, n)
	var items []gcItem
	for i, row := range wo.perm {
		items = items[:0]
		for p := fr.lo[i]; p < fr.hi[i]; p++ {
			if r := int(wo.perm[p]); !arg.IsNull(r) {
				items = append(items, gcItem{s: arg.StringAt(r)})
			}
		}
		if len(items) == 0 {
			continue
		}
		s := jsonAggText(a.Func, items)
		if err := charge(int64(len(s)) + 16); err != nil {
			return nil, err
		}
		out[row], has[row] = s, true
	}
	col := stringColumn(out, has)
	col.Type = a.T
	return col, nil
}
