package cpu

import (
	"math"

	"gpusql/storage/columnar"
)

// Vectors as keys (GROUP BY, DISTINCT, set operations, equi-joins) are
// interned by their text form, which is exact: the shortest decimal that
// reads back as the same float32. -0 is written as 0 first, so keys agree
// with comparisons (element-wise, where -0 = 0). Key decoding parses the
// text back.

// Wide DECIMALs are interned too (by their 32 bytes: one type, one scale).
func isVectorKey(t columnar.Type) bool { return t.ID == columnar.Vector || t.IsWide() }

// encodeVectors writes the interned id of each vector at sel (-1 for one
// a lookup-only encoder has not seen).
func (k *keyEncoder) encodeVectors(v *vec, sel []int32, out []int64) {
	for _, p := range sel {
		if v.isNull(p) {
			out[p] = 0
			continue
		}
		out[p] = int64(k.in.intern(vectorKeyText(v.vecs[p]), k.insert))
	}
}

// vectorKeyText is the text form of x with every -0 written as 0.
func vectorKeyText(x []float32) string {
	for i, e := range x {
		if e == 0 && math.Signbit(float64(e)) {
			y := append([]float32(nil), x...)
			for j := i; j < len(y); j++ {
				if y[j] == 0 {
					y[j] = 0
				}
			}
			x = y
			break
		}
	}
	return columnar.VectorText(x)
}

// intern returns s's id, adding s when insert is set (else -1 when absent).
func (in *interner) intern(s string, insert bool) int32 {
	in.mu.Lock()
	defer in.mu.Unlock()
	id, ok := in.ids[s]
	if !ok {
		if !insert {
			return -1
		}
		id = int32(len(in.vals))
		in.ids[s] = id
		in.vals = append(in.vals, s)
	}
	return id
}

// decodeVectorKey turns interned vector ids back into a column.
func decodeVectorKey(t columnar.Type, words []int64, nulls []bool, in *interner) *columnar.Column {
	strs := in.strings()
	return vectorColumn(t, len(words), func(k int) ([]float32, bool) {
		if nulls != nil && nulls[k] {
			return nil, true
		}
		v, err := columnar.ParseVector(nil, []byte(strs[words[k]]))
		if err != nil {
			raise(err) // the text came from FormatVector
		}
		return v, false
	})
}
