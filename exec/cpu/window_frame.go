package cpu

import (
	"math"
	"sort"

	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// frames holds each sorted position's frame as the sorted positions
// [lo, hi) (empty when hi <= lo). Both ends never move backwards within a
// partition, whatever the frame: that is what lets aggregates slide.
type frames struct {
	lo, hi []int
}

func newFrames(w *sql.WindowFunc, wo *windowOrder) *frames {
	n := len(wo.perm)
	fr := &frames{lo: make([]int, n), hi: make([]int, n)}
	starts, ends := wo.peerBounds()
	var ord *rangeKey
	if w.Frame.RangeOffsets() {
		ord = newRangeKey(wo)
	}
	wo.eachPartition(func(ps, pe int) {
		var nnLo, nnHi int
		if ord != nil {
			nnLo, nnHi = ord.nonNull(wo, ps, pe)
		}
		for i := ps; i < pe; i++ {
			b := frameCtx{i: i, ps: ps, pe: pe, peerLo: starts[i], peerHi: ends[i], nnLo: nnLo, nnHi: nnHi, ord: ord, wo: wo}
			fr.lo[i] = b.bound(w.Frame, w.Frame.Start, false)
			fr.hi[i] = b.bound(w.Frame, w.Frame.End, true)
			fr.lo[i] = min(max(fr.lo[i], ps), pe)
			fr.hi[i] = min(max(fr.hi[i], fr.lo[i]), pe)
		}
	})
	return fr
}

// frameCtx is what a bound is computed from for sorted position i.
type frameCtx struct {
	i, ps, pe      int
	peerLo, peerHi int
	nnLo, nnHi     int // the partition's rows with a non-NULL order key
	ord            *rangeKey
	wo             *windowOrder
}

// bound is the sorted position a frame bound stands for: the first row of
// the frame for a start, one past its last row for an end.
func (c *frameCtx) bound(f sql.Frame, b sql.FrameBound, end bool) int {
	switch b.Kind {
	case sql.BoundUnboundedPreceding:
		return c.ps
	case sql.BoundUnboundedFollowing:
		return c.pe
	case sql.BoundCurrentRow:
		switch {
		case f.Rows && end:
			return c.i + 1
		case f.Rows:
			return c.i
		case end:
			return c.peerHi
		}
		return c.peerLo
	}
	n := int(b.N)
	if f.Rows {
		// An offset past the partition lands outside it whatever its size
		// (and i + 2^63-1 would wrap).
		n = min(n, c.pe-c.ps+1)
	}
	if b.Kind == sql.BoundPreceding {
		n = -n
	}
	if f.Rows {
		if end {
			return c.i + n + 1
		}
		return c.i + n
	}
	// RANGE with an offset: a row whose key is NULL has its NULL peers as
	// the frame; otherwise the frame holds the non-NULL keys within the
	// distance, found by binary search in the sorted partition.
	row := c.wo.perm[c.i]
	if c.ord.null(row) {
		if end {
			return c.peerHi
		}
		return c.peerLo
	}
	if b.Unit != "" {
		return c.intervalBound(row, b, end)
	}
	sign := 1.0
	if b.Kind == sql.BoundPreceding {
		sign = -1
	}
	return c.nnLo + sort.Search(c.nnHi-c.nnLo, func(k int) bool {
		d := c.ord.diff(c.wo.perm[c.nnLo+k], row, b, sign)
		if end {
			return d > 0
		}
		return d >= 0
	})
}

// intervalBound is a RANGE bound over a DATE or DATETIME key: the current
// row's key moved by the INTERVAL with calendar arithmetic (AddDatetime, so
// 1 MONTH before March 31 is February's last day, as DATE_SUB gives), then
// found by binary search among the partition's non-NULL keys. Preceding
// moves toward the partition's start: down ascending, up descending.
func (c *frameCtx) intervalBound(row int32, b sql.FrameBound, end bool) int {
	n := b.N
	if (b.Kind == sql.BoundPreceding) != c.ord.desc {
		n = -n
	}
	target, ok := sql.AddDatetime(c.ord.micros(row), n, b.Unit)
	if !ok { // past years 0..9999: every key lies on the near side
		target = math.MaxInt64
		if n < 0 {
			target = math.MinInt64
		}
	}
	return c.nnLo + sort.Search(c.nnHi-c.nnLo, func(k int) bool {
		d := cmp3(c.ord.micros(c.wo.perm[c.nnLo+k]), target)
		if c.ord.desc {
			d = -d
		}
		if end {
			return d > 0
		}
		return d >= 0
	})
}

// rangeKey is the single order key of a RANGE frame with offsets, read in
// sort direction (negated for DESC, so values never decrease along a
// partition).
type rangeKey struct {
	col  *columnar.Column
	desc bool
}

func newRangeKey(wo *windowOrder) *rangeKey {
	return &rangeKey{col: wo.order.cols[0], desc: wo.order.desc[0]}
}

func (k *rangeKey) null(row int32) bool { return k.col.IsNull(int(row)) }

// micros is a DATE or DATETIME key in microseconds since 1970.
func (k *rangeKey) micros(row int32) int64 {
	v := k.col.Int64At(int(row))
	if k.col.Type.ID == columnar.Date {
		return v * columnar.MicrosPerDay
	}
	return v
}

// nonNull returns the positions of ps..pe whose key is not NULL: NULLs sort
// first ascending and last descending.
func (k *rangeKey) nonNull(wo *windowOrder, ps, pe int) (int, int) {
	lo, hi := ps, pe
	if k.desc {
		for hi > lo && k.null(wo.perm[hi-1]) {
			hi--
		}
	} else {
		for lo < hi && k.null(wo.perm[lo]) {
			lo++
		}
	}
	return lo, hi
}

// diff compares row r's key with the current row's key shifted by the
// bound's offset (sign -1 preceding, +1 following), all in sort direction:
// negative when r comes before that point.
func (k *rangeKey) diff(r, cur int32, b sql.FrameBound, sign float64) int {
	c := k.col
	if c.W != nil {
		a, v, off := c.W[r], c.W[cur], b.W
		if k.desc {
			a, v = decimal.Neg(a), decimal.Neg(v)
		}
		if sign < 0 {
			off = decimal.Neg(off)
		}
		return decimal.Cmp(a, decimal.Add(v, off))
	}
	if c.F64 != nil || b.F != 0 {
		a, v := c.Float64At(int(r)), c.Float64At(int(cur))
		if k.desc {
			a, v = -a, -v
		}
		return cmp3(a, v+sign*b.F)
	}
	// In the keys' own order: the offset moves against a descending sort,
	// and a target past int64 lies beyond every key.
	a, v, d := c.Int64At(int(r)), c.Int64At(int(cur)), int64(sign)*b.N
	if k.desc {
		d = -d
	}
	t := v + d
	var out int
	switch {
	case d > 0 && t < v:
		out = -1
	case d < 0 && t > v:
		out = 1
	default:
		out = cmp3(a, t)
	}
	if k.desc {
		out = -out
	}
	return out
}

// valueRows is, per input row, the row FIRST_VALUE, LAST_VALUE or
// NTH_VALUE reads (-1: none, the result is NULL).
func (fr *frames) valueRows(w *sql.WindowFunc, wo *windowOrder) []int32 {
	idx := make([]int32, len(wo.perm))
	for i, row := range wo.perm {
		lo, hi := fr.lo[i], fr.hi[i]
		j := -1
		switch w.Func {
		case sql.WinFirstValue:
			j = lo
		case sql.WinLastValue:
			j = hi - 1
		default:
			j = lo + min(int(w.N), hi-lo+1) - 1 // past the frame when N passes it
		}
		if lo < hi && j >= lo && j < hi {
			idx[row] = wo.perm[j]
		} else {
			idx[row] = -1
		}
	}
	return idx
}
