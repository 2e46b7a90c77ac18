package columnar

import "slices"

// The Builder's side of Vector columns (see vector.go for the layout).

// parseVector parses the text form of a vector into row i (within
// capacity). A VECTOR(n) row is parsed straight into its slot of f32,
// capped so a longer vector cannot spill into the next row.
func (b *Builder) parseVector(i int, f []byte) error {
	if d := b.typ.Dim; d > 0 {
		slot := b.f32[i*d : i*d : (i+1)*d]
		v, err := ParseVector(slot, f)
		if err != nil {
			return err
		}
		return CheckVectorDim(len(v), b.typ)
	}
	v, err := ParseVector(nil, f)
	if err != nil {
		return err
	}
	if v == nil {
		v = []float32{}
	}
	b.rows[i] = v
	return nil
}

// AppendVector appends a vector value (copied); its length must fit the
// column's dimension.
func (b *Builder) AppendVector(v []float32) error {
	if err := CheckVectorDim(len(v), b.typ); err != nil {
		return err
	}
	if b.n == b.capacity() {
		b.grow()
	}
	if d := b.typ.Dim; d > 0 {
		copy(b.f32[b.n*d:(b.n+1)*d], v)
	} else {
		b.rows[b.n] = append([]float32{}, v...)
	}
	b.n++
	return nil
}

// seedVectors copies old's vectors into rows [0, old.Len) of the builder,
// whose capacity the caller has reserved. Rows of a VECTOR column are
// copied, not aliased: old may be freed once the new snapshot replaces it.
func (b *Builder) seedVectors(old *Column) {
	if d := b.typ.Dim; d > 0 {
		copy(b.f32, old.F32[:old.Len*d])
		return
	}
	for i := range old.Len {
		b.rows[i] = slices.Clone(old.VectorAt(i))
		if b.rows[i] == nil {
			b.rows[i] = []float32{}
		}
	}
}

// finishVectors moves the built rows into c: VECTOR(n) keeps (or fits) the
// f32 vector; VECTOR of any length is flattened into F32 and Offsets.
func (b *Builder) finishVectors(c *Column, keep bool) {
	n := b.n
	if d := b.typ.Dim; d > 0 {
		c.F32 = fit(b.alloc, b.f32, n*d, keep)
		return
	}
	total := 0
	for _, r := range b.rows[:n] {
		total += len(r)
	}
	c.F32 = allocSlice[float32](b.alloc, total)
	if c.F32 == nil {
		c.F32 = []float32{}
	}
	c.Offsets = make([]int64, n+1)
	off := 0
	for i, r := range b.rows[:n] {
		copy(c.F32[off:], r)
		off += len(r)
		c.Offsets[i+1] = int64(off)
	}
	b.rows = nil
}

// GatherVectors returns a new Vector column of c's rows at the given
// positions (a negative position is NULL).
func GatherVectors(c *Column, rows []int) *Column {
	b := NewBuilder(c.Type)
	b.Reserve(len(rows))
	for _, r := range rows {
		if r < 0 || c.IsNull(r) {
			b.AppendNull()
			continue
		}
		// Rows of c fit c's own type.
		_ = b.AppendVector(c.VectorAt(r))
	}
	return b.Column()
}
