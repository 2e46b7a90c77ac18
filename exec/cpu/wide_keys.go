package cpu

import (
	"unsafe"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Wide DECIMAL keys (GROUP BY, DISTINCT, joins, set operations) are
// interned by their 32 bytes, exact within one type (both sides of a join
// key share its scale), and decoded back from them.

func wideKeyText(w *decimal.Num) string {
	return string(unsafe.Slice((*byte)(unsafe.Pointer(w)), unsafe.Sizeof(*w)))
}

// encodeWide writes the interned id of each value at sel (-1 for one a
// lookup-only encoder has not seen).
func (k *keyEncoder) encodeWide(v *vec, sel []int32, out []int64) {
	for _, p := range sel {
		if v.isNull(p) {
			out[p] = 0
			continue
		}
		out[p] = int64(k.in.intern(wideKeyText(&v.w[p]), k.insert))
	}
}

// decodeWideKey fills col's values from interned ids.
func decodeWideKey(col *columnar.Column, words []int64, nulls []bool, in *interner) {
	strs := in.strings()
	for i, w := range words {
		if nulls != nil && nulls[i] {
			col.SetNull(i)
			continue
		}
		if col.Valid != nil {
			col.SetValid(i)
		}
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&col.W[i])), unsafe.Sizeof(col.W[i])), strs[w])
	}
}
