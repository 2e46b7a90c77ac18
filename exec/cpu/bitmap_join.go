package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
)

// joinBitmap is the build side of a Bitmap or BucketedBitmap join (Kruliš &
// Yaghob): one bit per key value in [min, min+span). The domain is split
// into buckets of 2^shift values; a bucket's bitmap is allocated only when a
// build key falls in it, so a sparse 32-bit domain costs only the buckets
// its keys touch. A plain Bitmap is one bucket over the whole span.
type joinBitmap struct {
	min     int64
	span    uint64
	shift   uint
	buckets [][]uint64
}

// Executor limits: a plain bitmap spans at most maxBitmapBits values (as the
// planner's bitmapMaxBits), a bucketed one at most maxBucketedSpan.
const (
	maxBitmapBits   = 1 << 27
	maxBucketedSpan = 1 << 33
)

// has reports whether key k was set.
func (m *joinBitmap) has(k int64) bool {
	d := uint64(k - m.min)
	if d >= m.span {
		return false
	}
	b := m.buckets[d>>m.shift]
	if b == nil {
		return false
	}
	o := d & (1<<m.shift - 1)
	return b[o>>6]>>(o&63)&1 != 0
}

// set sets key k (within the span), allocating its bucket; it returns the
// bytes it allocated.
func (m *joinBitmap) set(k int64) int64 {
	d := uint64(k - m.min)
	bi := d >> m.shift
	b := m.buckets[bi]
	grew := int64(0)
	if b == nil {
		words := uint64(1) << m.shift >> 6
		if m.span>>m.shift == 0 {
			words = (m.span + 63) >> 6 // one bucket: just the span
		}
		b = make([]uint64, max(words, 1))
		m.buckets[bi] = b
		grew = int64(8 * len(b))
	}
	o := d & (1<<m.shift - 1)
	b[o>>6] |= 1 << (o & 63)
	return grew
}

// buildBitmap indexes t's one integer key by a bitmap (bucketed as hj
// says, or when the data spans more than one bitmap may); false when the
// data's span is too wide, and the caller builds a hash table. Inner and
// left joins also get the direct array of build rows behind the bitmap.
func (x *executor) buildBitmap(hj *planner.HashJoin, t *joinTable) (bool, error) {
	k := t.keys[0]
	lo, hi, any := keyBounds(k, t.keyNull)
	span := uint64(hi-lo) + 1
	if !any {
		span = 1
	}
	semiAnti := hj.Kind == sql.JoinSemi || hj.Kind == sql.JoinAnti
	m := &joinBitmap{min: lo, span: span, shift: 64}
	switch {
	case hj.Strategy == planner.BucketedBitmap || span > maxBitmapBits:
		if !semiAnti || span > maxBucketedSpan || hj.BucketBits < 6 || hj.BucketBits > 30 {
			return false, nil
		}
		m.shift = uint(hj.BucketBits)
		m.buckets = make([][]uint64, (span>>m.shift)+1)
	default:
		m.buckets = make([][]uint64, 1)
	}
	// The bucket table, then each bitmap as a build key first touches it,
	// are charged to the query (they live until it ends).
	if err := x.reserve(hj, int64(24*len(m.buckets))); err != nil {
		return false, err
	}
	for r, key := range k {
		if t.keyNull[r] {
			continue
		}
		if grew := m.set(key); grew > 0 {
			if err := x.reserve(hj, grew); err != nil {
				return false, err
			}
		}
	}
	if !semiAnti && !t.buildDirect() {
		return false, nil
	}
	t.bitmap = m
	if semiAnti {
		t.unique = true // a bit test finds at most one "match" per row
	}
	return true, nil
}

// keyBounds returns the least and greatest non-NULL key; any is false when
// every key is NULL.
func keyBounds(k []int64, null []bool) (lo, hi int64, any bool) {
	for r, v := range k {
		if null[r] {
			continue
		}
		if !any || v < lo {
			lo = v
		}
		if !any || v > hi {
			hi = v
		}
		any = true
	}
	return lo, hi, any
}

// probeBitmap is the probe of a bitmap join with one integer key: per row a
// subtract, a bounds check and a bit test; inner and left joins load the
// direct array only for the rows whose bit is set. NULL keys never match
// (a NULL-aware anti join drops them).
func (op *hashJoinOp) probeBitmap(b *batch, v *vec) error {
	m := op.t.bitmap
	idx := op.idx
	sel := b.sel
	keep := growSel(op.keep, len(sel))
	op.keep = keep
	k := 0
	kind := op.j.Kind
	want := b2n(kind != sql.JoinAnti)
	payload := kind == sql.JoinInner || kind == sql.JoinLeft
	key := func(p int32) int64 {
		if v.i32 != nil {
			return int64(v.i32[p])
		}
		return v.i64[p]
	}
	for _, p := range sel {
		hit := false
		if v.nulls != nil && v.nulls[p] {
			hit = op.j.NullAware && kind == sql.JoinAnti // NOT IN never keeps a NULL key
		} else {
			hit = m.has(key(p))
		}
		if payload {
			r := int32(-1)
			if hit {
				r = op.t.heads[key(p)-op.t.min] - 1
			}
			idx[p] = r
		}
		keep[k] = p
		k += b2n(hit) ^ want ^ 1
	}
	if kind == sql.JoinLeft {
		return op.output(b, sel)
	}
	return op.output(b, keep[:k])
}
