//go:build cuda

package gpu

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

// value is the key's value for digit (null: the NULL slot).
func (kd *keyDecoder) value(digit int64) (v int64, null bool) {
	if kd.dim == nil {
		return kd.fact.lo + digit, kd.fact.nullable && digit == kd.fact.size-1
	}
	dr := kd.dim
	dj := dr.ranks[digit]
	if !kd.single {
		dj = dj / kd.inner % dr.sizes[kd.j]
	}
	return dr.mins[kd.j] + dj, dr.nullable[kd.j] && dj == dr.sizes[kd.j]-1
}
