package cpu

import "gpusql/storage/columnar"

// VECTOR values in flight are one []float32 per position (vec.vecs),
// slices of the table column they were scanned from or of an operator's
// results, so scans, filters, joins and top-N move 24-byte headers, not
// elements. They become contiguous columns (columnar.Column.F32) again
// where rows are materialized: results, sorts, build sides.

// vectorRows points buf at rows [off, off+n) of a vector column.
func vectorRows(buf [][]float32, c *columnar.Column, off, n int) [][]float32 {
	if cap(buf) < n {
		buf = make([][]float32, max(n, batchSize))
	}
	buf = buf[:n]
	for j := range buf {
		buf[j] = c.VectorAt(off + j)
	}
	return buf
}

// vectorColumn builds a Go-heap column of type t from n values; at returns
// row k's vector or that it is NULL.
func vectorColumn(t columnar.Type, n int, at func(k int) ([]float32, bool)) *columnar.Column {
	total, nulls := 0, false
	for k := range n {
		v, null := at(k)
		nulls = nulls || null
		if t.Dim == 0 && !null {
			total += len(v)
		}
	}
	if t.Dim > 0 {
		total = n * t.Dim
	}
	col := &columnar.Column{Type: t, Len: n, F32: make([]float32, total)}
	if t.Dim == 0 {
		col.Offsets = make([]int64, n+1)
	}
	if nulls {
		col.Valid = make([]uint64, (n+63)/64)
	}
	off := 0
	for k := range n {
		v, null := at(k)
		if nulls && !null {
			col.SetValid(k)
		}
		if t.Dim > 0 {
			if !null {
				copy(col.F32[k*t.Dim:(k+1)*t.Dim], v)
			}
			continue
		}
		if !null {
			off += copy(col.F32[off:], v)
		}
		col.Offsets[k+1] = int64(off)
	}
	return col
}

// concatVectors is concatVecs for VECTOR columns.
func concatVectors(t columnar.Type, parts []*vec, lens []int, rows int) *columnar.Column {
	part, base := make([]int, rows), make([]int, len(parts))
	off := 0
	for i, n := range lens {
		base[i] = off
		for k := range n {
			part[off+k] = i
		}
		off += n
	}
	return vectorColumn(t, rows, func(k int) ([]float32, bool) {
		v := parts[part[k]]
		p := int32(k - base[part[k]])
		if v == nil || v.isNull(p) {
			return nil, true
		}
		return v.vecs[p], false
	})
}

// gatherVectors is gatherColumn for VECTOR columns.
func gatherVectors(col *columnar.Column, idx []int32) *columnar.Column {
	return vectorColumn(col.Type, len(idx), func(k int) ([]float32, bool) {
		i := idx[k]
		if i < 0 || col.IsNull(int(i)) {
			return nil, true
		}
		return col.VectorAt(int(i)), false
	})
}
