package cpu

import (
	"gpusql/storage/columnar"
)

// Rows read back from spill files arrive one at a time from blocks that
// each have their own string dictionaries; the builders below copy them
// into whole output columns (relBuilder) or into the blocks of a new spill
// file (blockBuilder), coding strings as they come and sorting the
// dictionary at the end.

// stringCodes numbers strings in order of arrival.
type stringCodes struct {
	ids    map[string]int32
	values []string
}

func newStringCodes() *stringCodes { return &stringCodes{ids: map[string]int32{}} }

func (s *stringCodes) code(str string) int32 {
	id, ok := s.ids[str]
	if !ok {
		id = int32(len(s.values))
		s.ids[str] = id
		s.values = append(s.values, str)
	}
	return id
}

// relBuilder fills the preallocated columns of out row by row.
type relBuilder struct {
	out  *rel
	k    int
	strs []*stringCodes
}

func newRelBuilder(out *rel) *relBuilder {
	b := &relBuilder{out: out, strs: make([]*stringCodes, len(out.cols))}
	for c, t := range out.types {
		if t.ID == columnar.String {
			b.strs[c] = newStringCodes()
		}
	}
	return b
}

// add appends row p of cols (one vector per output column, then any
// more, which are ignored).
func (b *relBuilder) add(cols []*vec, p int) error {
	for c := range b.out.cols {
		b.set(c, cols[c], p)
	}
	b.k++
	return nil
}

// set writes row p of v (nil: NULL) as column c of the row being added.
func (b *relBuilder) set(c int, v *vec, p int) {
	col, k := b.out.cols[c], b.k
	if v == nil || v.isNull(int32(p)) {
		col.SetNull(k)
		return
	}
	if col.Valid != nil {
		col.SetValid(k)
	}
	switch {
	case b.strs[c] != nil:
		col.I32[k] = b.strs[c].code(v.dict.Values[v.i32[p]])
	case col.I32 != nil:
		col.I32[k] = v.i32[p]
	case col.I64 != nil:
		col.I64[k] = v.i64[p]
	case col.W != nil:
		col.W[k] = v.w[p]
	default:
		col.F64[k] = v.f64[p]
	}
}

// finish gives each string column its sorted dictionary.
func (b *relBuilder) finish() {
	for c, sc := range b.strs {
		if sc == nil {
			continue
		}
		col := b.out.cols[c]
		col.Dict = sortedCodes(sc, col)
	}
}

// sortedCodes returns the sorted dictionary of sc's strings and recodes
// col's rows from arrival order into it.
func sortedCodes(sc *stringCodes, col *columnar.Column) *columnar.Dictionary {
	d := columnar.BuildDictionary(sc.values)
	m := make([]int32, len(sc.values))
	for i, s := range sc.values {
		m[i], _ = d.Lookup(s)
	}
	for k := range col.I32[:col.Len] {
		if !col.IsNull(k) {
			col.I32[k] = m[col.I32[k]]
		}
	}
	return d
}

// blockBuilder gathers rows into blocks of a spill file.
type blockBuilder struct {
	types []columnar.Type
	w     *spillWriter
	cols  []*vec
	strs  []*stringCodes
	n     int
}

func newBlockBuilder(types []columnar.Type, w *spillWriter) *blockBuilder {
	b := &blockBuilder{types: types, w: w, cols: make([]*vec, len(types)), strs: make([]*stringCodes, len(types))}
	for c, t := range types {
		b.cols[c] = &vec{t: t, nulls: make([]bool, spillBlockRows)}
		b.cols[c].ensure(spillBlockRows)
		b.cols[c].nulls = make([]bool, spillBlockRows)
		if t.ID == columnar.String {
			b.strs[c] = newStringCodes()
		}
	}
	return b
}

func (b *blockBuilder) add(cols []*vec, p int) error {
	k := b.n
	for c, o := range b.cols {
		v := cols[c]
		o.nulls[k] = v == nil || v.isNull(int32(p))
		switch {
		case o.nulls[k]:
		case b.strs[c] != nil:
			o.i32[k] = b.strs[c].code(v.dict.Values[v.i32[p]])
		case o.i32 != nil:
			o.i32[k] = v.i32[p]
		case o.i64 != nil:
			o.i64[k] = v.i64[p]
		case o.w != nil:
			o.w[k] = v.w[p]
		default:
			o.f64[k] = v.f64[p]
		}
	}
	if b.n++; b.n == spillBlockRows {
		return b.flush()
	}
	return nil
}

// flush writes the rows gathered as one block.
func (b *blockBuilder) flush() error {
	if b.n == 0 {
		return nil
	}
	for c, sc := range b.strs {
		if sc != nil {
			b.cols[c].dict = &columnar.Dictionary{Values: sc.values}
		}
	}
	err := b.w.writeBlock(b.cols, b.n)
	for c := range b.strs {
		if b.strs[c] != nil {
			b.strs[c] = newStringCodes()
		}
	}
	b.n = 0
	return err
}
