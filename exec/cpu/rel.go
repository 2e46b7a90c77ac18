package cpu

import (
	"sort"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// rel is a materialized intermediate result (or a table's columns): whole
// column vectors, each string column with one dictionary.
type rel struct {
	types []columnar.Type
	cols  []*columnar.Column
	rows  int
	// mem is the bytes reserved for r's columns (see memory.go).
	mem int64
}

// chunk is one batch's selected rows, compacted: what a collecting sink
// keeps per batch.
type chunk struct {
	morsel, seq int
	rows        int
	cols        []*vec
}

// compact copies the selected rows of the needed columns of b.
func compact(b *batch, types []columnar.Type) *chunk {
	ch := &chunk{morsel: b.morsel, rows: len(b.sel), cols: make([]*vec, len(types))}
	for i, v := range b.cols {
		if i >= len(types) {
			break
		}
		if v == nil {
			continue
		}
		ch.cols[i] = gatherVec(v, b.sel)
	}
	return ch
}

// gatherVec returns a new vector of v's values at positions idx.
func gatherVec(v *vec, idx []int32) *vec {
	o := &vec{t: v.t, dict: v.dict}
	n := len(idx)
	switch {
	case v.i32 != nil:
		o.i32 = make([]int32, n)
		for k, p := range idx {
			o.i32[k] = v.i32[p]
		}
	case v.i64 != nil:
		o.i64 = make([]int64, n)
		for k, p := range idx {
			o.i64[k] = v.i64[p]
		}
	case v.f64 != nil:
		o.f64 = make([]float64, n)
		for k, p := range idx {
			o.f64[k] = v.f64[p]
		}
	case v.vecs != nil:
		o.vecs = make([][]float32, n)
		for k, p := range idx {
			o.vecs[k] = v.vecs[p]
		}
	case v.w != nil:
		o.w = make([]decimal.Num, n)
		for k, p := range idx {
			o.w[k] = v.w[p]
		}
	default:
		switch v.t.Physical() {
		case columnar.PhysInt32:
			o.i32 = make([]int32, n)
		case columnar.PhysInt64:
			o.i64 = make([]int64, n)
		case columnar.PhysVector:
			o.vecs = make([][]float32, n)
		case columnar.PhysWide:
			o.w = make([]decimal.Num, n)
		default:
			o.f64 = make([]float64, n)
		}
	}
	if v.nulls != nil {
		o.nulls = make([]bool, n)
		for k, p := range idx {
			o.nulls[k] = v.nulls[p]
		}
	}
	return o
}

// concatChunks orders chunks by morsel and sequence and concatenates them
// into a rel of the given column types.
func concatChunks(chunks []*chunk, types []columnar.Type) *rel {
	sort.SliceStable(chunks, func(i, j int) bool {
		if chunks[i].morsel != chunks[j].morsel {
			return chunks[i].morsel < chunks[j].morsel
		}
		return chunks[i].seq < chunks[j].seq
	})
	rows := 0
	for _, ch := range chunks {
		rows += ch.rows
	}
	r := &rel{types: types, rows: rows, cols: make([]*columnar.Column, len(types))}
	for c, t := range types {
		parts := make([]*vec, 0, len(chunks))
		lens := make([]int, 0, len(chunks))
		for _, ch := range chunks {
			parts = append(parts, ch.cols[c])
			lens = append(lens, ch.rows)
		}
		r.cols[c] = concatVecs(t, parts, lens, rows)
	}
	return r
}

// concatVecs concatenates vectors (nil parts are all NULL) into one column,
// unifying string dictionaries.
func concatVecs(t columnar.Type, parts []*vec, lens []int, rows int) *columnar.Column {
	hasNulls := false
	for i, v := range parts {
		if v == nil || v.nulls != nil {
			if v == nil && lens[i] == 0 {
				continue
			}
			hasNulls = true
			break
		}
	}
	if t.ID == columnar.Vector {
		return concatVectors(t, parts, lens, rows)
	}
	col := newColumn(t, rows, hasNulls)
	var remaps map[*columnar.Dictionary][]int32
	if t.ID == columnar.String {
		col.Dict, remaps = unifyDicts(parts)
	}
	off := 0
	for i, v := range parts {
		n := lens[i]
		if v == nil {
			off += n
			continue
		}
		switch {
		case col.I32 != nil:
			if m := remaps[v.dict]; m != nil {
				for k := 0; k < n; k++ {
					// A NULL row's code is meaningless (a NULL literal
					// carries an empty dictionary): leave it 0.
					if v.nulls == nil || !v.nulls[k] {
						col.I32[off+k] = m[v.i32[k]]
					}
				}
			} else {
				copy(col.I32[off:off+n], v.i32[:n])
			}
		case col.I64 != nil:
			copy(col.I64[off:off+n], v.i64[:n])
		case col.F64 != nil:
			copy(col.F64[off:off+n], v.f64[:n])
		case col.W != nil:
			copy(col.W[off:off+n], v.w[:n])
		}
		off += n
	}
	if hasNulls {
		off = 0
		for i, v := range parts {
			for k := 0; k < lens[i]; k++ {
				if v == nil || (v.nulls != nil && v.nulls[k]) {
					col.SetNull(off + k)
				} else {
					col.SetValid(off + k)
				}
			}
			off += lens[i]
		}
	}
	return col
}

// unifyDicts returns the dictionary of a string column made of parts: the
// parts' own when they share one, else the sorted union with each part
// dictionary's code mapping.
func unifyDicts(parts []*vec) (*columnar.Dictionary, map[*columnar.Dictionary][]int32) {
	var first *columnar.Dictionary
	same := true
	for _, v := range parts {
		if v == nil || v.dict == nil {
			continue
		}
		if first == nil {
			first = v.dict
		} else if v.dict != first {
			same = false
		}
	}
	if first == nil {
		return &columnar.Dictionary{}, nil
	}
	if same {
		return first, nil
	}
	seen := map[*columnar.Dictionary]bool{}
	var all []string
	for _, v := range parts {
		if v != nil && v.dict != nil && !seen[v.dict] {
			seen[v.dict] = true
			all = append(all, v.dict.Values...)
		}
	}
	d := columnar.BuildDictionary(all)
	remaps := map[*columnar.Dictionary][]int32{}
	for pd := range seen {
		m := make([]int32, pd.CodeSpace())
		for i, s := range pd.Values {
			m[i], _ = d.Lookup(s)
		}
		remaps[pd] = m
	}
	return d, remaps
}

// gatherRel returns the rows idx of r, in that order.
func gatherRel(r *rel, idx []int32) *rel {
	out := &rel{types: r.types, rows: len(idx), cols: make([]*columnar.Column, len(r.cols))}
	for c, col := range r.cols {
		if col == nil {
			continue
		}
		out.cols[c] = gatherColumn(col, idx)
	}
	return out
}

// gatherColumn returns col's rows idx (idx < 0: NULL).
func gatherColumn(col *columnar.Column, idx []int32) *columnar.Column {
	nullable := col.Valid != nil
	if !nullable {
		for _, i := range idx {
			if i < 0 {
				nullable = true
				break
			}
		}
	}
	if col.Type.ID == columnar.Vector {
		return gatherVectors(col, idx)
	}
	o := newColumn(col.Type, len(idx), nullable)
	o.Dict = col.Dict
	switch {
	case col.I32 != nil:
		for k, i := range idx {
			if i >= 0 {
				o.I32[k] = col.I32[i]
			}
		}
	case col.I64 != nil:
		for k, i := range idx {
			if i >= 0 {
				o.I64[k] = col.I64[i]
			}
		}
	case col.F64 != nil:
		for k, i := range idx {
			if i >= 0 {
				o.F64[k] = col.F64[i]
			}
		}
	case col.W != nil:
		for k, i := range idx {
			if i >= 0 {
				o.W[k] = col.W[i]
			}
		}
	}
	if nullable {
		for k, i := range idx {
			if i < 0 || col.IsNull(int(i)) {
				o.SetNull(k)
			} else {
				o.SetValid(k)
			}
		}
	}
	return o
}

// newColumn allocates an executor column on the Go heap, whatever the
// default allocator (a GPU build makes that pinned host memory, which is
// scarce and slow to allocate; intermediate results do not need it).
func newColumn(t columnar.Type, n int, withValidity bool) *columnar.Column {
	return columnar.NewColumnIn(columnar.HeapAllocator, t, n, withValidity)
}
