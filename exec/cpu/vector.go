// Package cpu is the CPU executor: one implementation of every physical
// operator of package planner, vectorized over batches of up to batchSize
// rows with selection vectors, and morsel-parallel over all cores. A
// pipeline (scan → filters → hash probes → sink) runs fused: each worker
// pushes a batch of its morsel through every operator before reading the
// next, so intermediate rows stay in cache and are never materialized.
package cpu

import (
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

const (
	// batchSize rows are processed per operator call: large enough to
	// amortize the per-batch dispatch, small enough that a few vectors fit in
	// L1/L2.
	batchSize = 4096
	// morselRows is the unit of work a worker takes from a source; it equals
	// the statistics chunk so a morsel can be skipped by its min/max.
	morselRows = columnar.ChunkRows
)

// identSel is the selection of a full batch: 0, 1, ..., batchSize-1.
var identSel = func() []int32 {
	s := make([]int32, batchSize)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}()

// vec is one column of a batch: values at positions 0..n-1 of the physical
// type of t (exactly one slice used), NULL flags (nil: none), and for strings
// the dictionary the codes index. Only positions in the batch's selection are
// meaningful. Vectors either borrow storage (a slice of a table column) or
// own it (an operator's output buffer, reused from batch to batch).
type vec struct {
	t   columnar.Type
	i32 []int32
	i64 []int64
	f64 []float64
	// w holds wide DECIMAL values (unscaled, at t's scale).
	w []decimal.Num
	// vecs holds a VECTOR value per position: slices of the table
	// column (borrowed) or of an operator's own results.
	vecs  [][]float32
	nulls []bool
	dict  *columnar.Dictionary

	nullBuf []bool
}

func newVec(t columnar.Type) *vec { return &vec{t: t} }

// ensure makes v's own buffers hold n positions and clears its NULL flags
// (NULLs are switched on with setNull).
func (v *vec) ensure(n int) {
	switch v.t.Physical() {
	case columnar.PhysInt32:
		if cap(v.i32) < n {
			v.i32 = make([]int32, max(n, batchSize))
		}
		v.i32 = v.i32[:cap(v.i32)]
	case columnar.PhysInt64:
		if cap(v.i64) < n {
			v.i64 = make([]int64, max(n, batchSize))
		}
		v.i64 = v.i64[:cap(v.i64)]
	case columnar.PhysFloat64:
		if cap(v.f64) < n {
			v.f64 = make([]float64, max(n, batchSize))
		}
		v.f64 = v.f64[:cap(v.f64)]
	case columnar.PhysWide:
		if cap(v.w) < n {
			v.w = make([]decimal.Num, max(n, batchSize))
		}
		v.w = v.w[:cap(v.w)]
	case columnar.PhysVector:
		if cap(v.vecs) < n {
			v.vecs = make([][]float32, max(n, batchSize))
		}
		v.vecs = v.vecs[:cap(v.vecs)]
	}
	v.nulls = nil
}

// nullsFor returns v's NULL flags, allocating cleared ones if v had none.
func (v *vec) nullsFor(n int) []bool {
	if v.nulls != nil {
		return v.nulls
	}
	if cap(v.nullBuf) < n {
		v.nullBuf = make([]bool, max(n, batchSize))
	}
	v.nulls = v.nullBuf[:cap(v.nullBuf)]
	clear(v.nulls)
	return v.nulls
}

func (v *vec) setNull(n int, p int32) { v.nullsFor(n)[p] = true }

func (v *vec) isNull(p int32) bool { return v.nulls != nil && v.nulls[p] }

// int64At reads position p widened to int64 (codes, dates, decimals raw).
func (v *vec) int64At(p int32) int64 {
	switch {
	case v.i32 != nil:
		return int64(v.i32[p])
	case v.i64 != nil:
		return v.i64[p]
	}
	return int64(v.f64[p])
}

func (v *vec) stringAt(p int32) string { return v.dict.Values[v.i32[p]] }

// batch is a set of rows flowing through a pipeline: n positions, of which
// sel (ascending) are live, in columns cols (the operator's output schema;
// a column nothing reads may be nil).
type batch struct {
	n    int
	sel  []int32
	cols []*vec
	// morsel is the source morsel the rows came from (orders collected
	// output deterministically).
	morsel int
	// off is the source row of position 0 (for operators indexing
	// per-source-row state).
	off int
	// weight, when set, makes the row at position p count as weight[p]
	// rows for count(*): an EpsilonJoin counted on the GPU (CountOnly)
	// hands each left row on once with its number of pairs.
	weight []int64
}

// mergeNulls sets out's NULL flags at sel to a OR b (either may be nil).
func mergeNulls(out *vec, n int, sel []int32, a, b *vec) {
	an, bn := a != nil && a.nulls != nil, b != nil && b.nulls != nil
	if !an && !bn {
		return
	}
	nl := out.nullsFor(n)
	for _, p := range sel {
		nl[p] = (an && a.nulls[p]) || (bn && b.nulls[p])
	}
}
