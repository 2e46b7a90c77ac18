//go:build cuda

package gpu

import (
	"cmp"
	"math/bits"
	"slices"

	"gpusql/storage/columnar"
)

// The host tail's ORDER BY over a star's groups (hundreds of rows) sorts
// most often by dictionary codes and small integers: their ranges over
// the rows fit one machine word together. Each row's keys are then packed
// into one uint64 whose unsigned order is the keys' order — first key in
// the highest bits, a nullable key's NULL as its lowest code (first
// ascending, last descending, as MySQL), a descending key complemented
// within its field — and, when the row number fits beside them, the rows
// sort as plain integers (ties by row number: stable), without a
// comparison function dispatching per key.

// packedSortOrder returns the row order of the sort by cols (desc per
// key), or ok false when a key is a DOUBLE or the keys' ranges do not fit
// 64 bits together. Its buffers come from s (nil: new ones).
func packedSortOrder(cols []*columnar.Column, desc []bool, n int, s *hostScratch) (idx []int, ok bool) {
	for _, c := range cols {
		if c.F64 != nil {
			return nil, false
		}
	}
	keys := s.sortKeys(n)
	clear(keys)
	vals := s.values(n)
	total := uint(0)
	for i, c := range cols {
		loadInts(c, vals)
		lo, hi, any := int64(0), int64(-1), false
		for r, v := range vals {
			if c.Valid != nil && c.IsNull(r) {
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
		span := uint64(0) // largest code: hi - lo, one more with a NULL code
		if any {
			span = uint64(hi) - uint64(lo)
		}
		nullCode := c.Valid != nil
		if nullCode {
			if span == ^uint64(0) {
				return nil, false
			}
			span++
		}
		width := uint(bits.Len64(span))
		if total += width; total > 64 {
			return nil, false
		}
		packKeyField(keys, vals, c, lo, width, nullCode, desc[i])
	}
	idx = s.order(n)
	if rowBits := uint(bits.Len(uint(n))); total+rowBits <= 64 {
		for r, k := range keys {
			keys[r] = k<<rowBits | uint64(r)
		}
		radixSort(keys, total+rowBits, s)
		for i, k := range keys {
			idx[i] = int(k & (1<<rowBits - 1))
		}
		return idx, true
	}
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return idx, true
}

// loadInts reads an integer-physical column into vals.
func loadInts(c *columnar.Column, vals []int64) {
	switch {
	case c.I32 != nil:
		for i := range vals {
			vals[i] = int64(c.I32[i])
		}
	case c.I64 != nil:
		copy(vals, c.I64)
	}
}

// packKeyField shifts each key left by width and puts the row's code in
// the low bits: its value less lo (plus one past a NULL's code 0 when the
// column has one), complemented within the field when descending.
func packKeyField(keys []uint64, vals []int64, c *columnar.Column, lo int64, width uint, nullCode, desc bool) {
	if width == 0 {
		return
	}
	base := uint64(lo)
	if nullCode {
		base--
	}
	flip := uint64(0)
	if desc {
		flip = 1<<width - 1
	}
	for r, v := range vals {
		code := uint64(v) - base
		if nullCode && c.IsNull(r) {
			code = 0
		}
		keys[r] = keys[r]<<width | (code ^ flip)
	}
}

// radixSort sorts keys whose set bits lie in the low width bits: a byte a
// pass from the lowest, the counts of every pass taken in one read of the
// keys, each pass a scatter, skipped when all keys share its byte. For the
// hundreds of groups a tail sorts it takes half a comparison sort's time
// (2.9 against 5.1 µs for 800 keys of 21 bits). Its buffer comes from s.
func radixSort(keys []uint64, width uint, s *hostScratch) {
	if len(keys) < 256 {
		slices.Sort(keys)
		return
	}
	passes := int(width+7) / 8
	var counts [8][256]int
	for _, k := range keys {
		for p := range passes {
			counts[p][(k>>(8*p))&255]++
		}
	}
	var tmp []uint64
	if s == nil {
		tmp = make([]uint64, len(keys))
	} else {
		tmp = grow(&s.words, len(keys))
	}
	src, dst := keys, tmp
	for p := range passes {
		count := &counts[p]
		if count[(src[0]>>(8*p))&255] == len(src) {
			continue
		}
		at := 0
		for d, c := range count {
			count[d] = at
			at += c
		}
		shift := uint(8 * p)
		for _, k := range src {
			d := (k >> shift) & 255
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
