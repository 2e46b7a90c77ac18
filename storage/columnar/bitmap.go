package columnar

import "math/bits"

// Validity bitmap helpers: bit i of word i>>6 is row i, set when not NULL
// (the layout of Column.Valid, and of Arrow validity bitmaps read as
// little-endian words).

// copyBits copies n bits from src at sOff to dst at dOff.
func copyBits(dst []uint64, dOff int, src []uint64, sOff, n int) {
	for n > 0 {
		w, sh := dOff>>6, uint(dOff&63)
		k := min(n, 64-int(sh))
		v := readBits(src, sOff, k) & lowMask(k)
		dst[w] = dst[w]&^(lowMask(k)<<sh) | v<<sh
		dOff, sOff, n = dOff+k, sOff+k, n-k
	}
}

// readBits returns k <= 64 bits of src starting at off in the low bits
// (higher bits are garbage).
func readBits(src []uint64, off, k int) uint64 {
	w, sh := off>>6, uint(off&63)
	v := src[w] >> sh
	if sh != 0 && int(sh)+k > 64 {
		v |= src[w+1] << (64 - sh)
	}
	return v
}

func lowMask(k int) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(k) - 1
}

// countSet counts set bits in [from, to).
func countSet(bm []uint64, from, to int) int {
	n := 0
	for from < to {
		k := min(to-from, 64)
		n += bits.OnesCount64(readBits(bm, from, k) & lowMask(k))
		from += k
	}
	return n
}
