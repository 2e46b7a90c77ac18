//go:build cuda

package gpu

import "gpusql/storage/columnar"

// A group's slot in the star's dense table is a mixed-radix number: one
// digit per dimension (the rank of its surviving group values) and per
// fact group column (the offset from its minimum), the first component
// least significant. Decoding the keys of the non-empty groups walks the
// slots in increasing order, so the digits follow from the previous
// slot's by an addition with carries (groupDigits) instead of a division
// per key and component, which made the decoding of 800 groups cost tens
// of microseconds; a dimension key with one group column reads its value
// straight from the rank.

// groupDigits holds the digits of the current slot.
type groupDigits struct {
	sizes  []int64
	digits []int64
	slot   int64
}

func newGroupDigits(sizes []int64) *groupDigits {
	return &groupDigits{sizes: sizes, digits: make([]int64, len(sizes))}
}

// moveTo makes slot the current one: from a nearby later slot by adding
// the difference with carries, else by division.
func (d *groupDigits) moveTo(slot int64) {
	delta := slot - d.slot
	if delta < 0 || len(d.sizes) == 0 || delta >= d.sizes[0] {
		d.set(slot)
		return
	}
	d.slot = slot
	d.digits[0] += delta
	for c := 0; c+1 < len(d.digits) && d.digits[c] >= d.sizes[c]; c++ {
		d.digits[c] -= d.sizes[c] // delta < sizes[0]: one carry at most
		d.digits[c+1]++
	}
}

func (d *groupDigits) set(slot int64) {
	d.slot = slot
	for c, size := range d.sizes {
		d.digits[c] = slot % size
		slot /= size
	}
}

// keyDecoder turns its component's digit into one GROUP BY key's value.
type keyDecoder struct {
	comp int
	// A dimension key: column j of dimension run dim, whose combined raw
	// group value (ranks[digit]) holds it at inner stride (1 and single
	// when the dimension groups by this column alone).
	dim    *dimRun
	j      int
	inner  int64
	single bool
	// A fact key (dim nil).
	fact factKey
}

func newKeyDecoder(k starKey, dims []*dimRun, fkeys []factKey) keyDecoder {
	if k.dim < 0 {
		return keyDecoder{comp: len(dims) + k.j, fact: fkeys[k.j]}
	}
	dr := dims[k.dim]
	inner := int64(1)
	for j := len(dr.sizes) - 1; j > k.j; j-- {
		inner *= dr.sizes[j]
	}
	return keyDecoder{comp: k.dim, dim: dr, j: k.j, inner: inner, single: len(dr.sizes) == 1}
}

// fill writes the key's value for each row's digit into vals and, where
// col has a validity bitmap, marks the rows of the NULL slot NULL (their
// value 0); then stores vals into col.
func (kd *keyDecoder) fill(col *columnar.Column, vals []int64, digits []int32) {
	nullAt := int64(-1) // the raw value of the NULL slot, -1: none
	var lo int64
	switch {
	case kd.dim == nil:
		for i, d := range digits {
			vals[i] = int64(d)
		}
		lo = kd.fact.lo
		if kd.fact.nullable {
			nullAt = kd.fact.size - 1
		}
	default:
		dr, j := kd.dim, kd.j
		if kd.single {
			for i, d := range digits {
				vals[i] = dr.ranks[d]
			}
		} else {
			inner, size := kd.inner, dr.sizes[j]
			for i, d := range digits {
				vals[i] = dr.ranks[d] / inner % size
			}
		}
		lo = dr.mins[j]
		if dr.nullable[j] {
			nullAt = dr.sizes[j] - 1
		}
	}
	if col.Valid != nil {
		allValid(col, len(vals))
		if nullAt >= 0 {
			for i, v := range vals {
				if v == nullAt {
					col.SetNull(i)
					vals[i] = -lo
				}
			}
		}
	}
	for i := range vals {
		vals[i] += lo
	}
	storeInts(col, vals)
}

// dimValue is a dimension key's value at digit d, and whether it is NULL
// (the value then 0), as fill writes it.
func (kd *keyDecoder) dimValue(d int) (int64, bool) {
	dr, j := kd.dim, kd.j
	raw := dr.ranks[d]
	if !kd.single {
		raw = raw / kd.inner % dr.sizes[j]
	}
	if dr.nullable[j] && raw == dr.sizes[j]-1 {
		return 0, true
	}
	return raw + dr.mins[j], false
}
