package cpu

import (
	"unsafe"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Wide DECIMAL keys (GROUP BY, DISTINCT, joins, set operations) are
// interned by their four words, exact within one type (both sides of a
// join key share its scale), one lock per batch, and decoded back from
// the interner's list.

// wideKeyText is a wide value's 32 bytes as a string (the distinct-
// aggregate set keys on it).
func wideKeyText(w *decimal.Num) string {
	return string(unsafe.Slice((*byte)(unsafe.Pointer(w)), unsafe.Sizeof(*w)))
}

// encodeWide writes the interned id of each value at sel (-1 for one a
// lookup-only encoder has not seen).
func (k *keyEncoder) encodeWide(v *vec, sel []int32, out []int64) {
	in := k.in
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.wide == nil {
		in.wide = map[decimal.Num]int32{}
	}
	for _, p := range sel {
		if v.isNull(p) {
			out[p] = 0
			continue
		}
		id, ok := in.wide[v.w[p]]
		switch {
		case ok:
		case !k.insert:
			id = -1
		default:
			id = int32(len(in.wideVals))
			in.wide[v.w[p]] = id
			in.wideVals = append(in.wideVals, v.w[p])
		}
		out[p] = int64(id)
	}
}

// decodeWideKey fills col's values from interned ids.
func decodeWideKey(col *columnar.Column, words []int64, nulls []bool, in *interner) {
	in.mu.Lock()
	vals := in.wideVals
	in.mu.Unlock()
	for i, w := range words {
		if nulls != nil && nulls[i] {
			col.SetNull(i)
			continue
		}
		if col.Valid != nil {
			col.SetValid(i)
		}
		col.W[i] = vals[w]
	}
}
