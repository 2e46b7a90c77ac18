package columnar

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gpusql/internal/decimal"
)

// Builder accumulates the values of one column row by row and turns them
// into a Column. It parses text fields straight from the caller's buffer
// into the physical domain of its type, so loading a number allocates
// nothing; strings are collected in first-seen order and sorted into an
// order-preserving dictionary only when the column is finished.
//
// Vectors grow in the builder's allocator (the default one for NewBuilder),
// so the finished column usually keeps the builder's memory without a copy.
// A Builder is not safe for concurrent use.
type Builder struct {
	typ   Type
	alloc Allocator
	n     int
	// The vectors' lengths are the capacity; rows [0, n) are filled.
	i32 []int32
	i64 []int64
	f64 []float64
	w   []decimal.Num // wide DECIMAL
	// Vector columns: f32 holds Dim elements per row of capacity (VECTOR(n));
	// rows holds each row's elements (VECTOR of any length), flattened by
	// finish. Both let the parallel loader fill rows out of order.
	f32  []float32
	rows [][]float32
	// valid is allocated at the first NULL with every bit set, so appending
	// a value never touches it; AppendNull clears the row's bit.
	valid []uint64
	nulls int

	// String columns: i32 holds ids into vals (first-seen order) for rows
	// from baseRows on; ids maps a string to its id.
	ids  map[string]int32
	vals []string
	// Rows [0, baseRows) were seeded from an existing column; for strings
	// their codes index baseDict.
	baseRows int
	baseDict *Dictionary
}

// NewBuilder returns an empty builder for a column of type t whose vectors
// come from the default allocator.
func NewBuilder(t Type) *Builder { return newBuilderIn(nil, t) }

// newBuilderIn is NewBuilder in allocator a (nil: the default).
func newBuilderIn(a Allocator, t Type) *Builder {
	if a == nil {
		a = defaultAllocator
	}
	b := &Builder{typ: t, alloc: a}
	if t.ID == String {
		b.ids = map[string]int32{}
	}
	return b
}

// Type is the column type being built.
func (b *Builder) Type() Type { return b.typ }

// Len is the number of rows appended so far.
func (b *Builder) Len() int { return b.n }

func (b *Builder) capacity() int {
	switch b.typ.Physical() {
	case PhysInt64:
		return len(b.i64)
	case PhysFloat64:
		return len(b.f64)
	case PhysWide:
		return len(b.w)
	case PhysVector:
		if d := b.typ.Dim; d > 0 {
			return len(b.f32) / d
		}
		return len(b.rows)
	}
	return len(b.i32)
}

// Reserve makes room for n more rows without further allocation.
func (b *Builder) Reserve(n int) {
	if need := b.n + n; need > b.capacity() {
		b.resize(need)
	}
}

// grow makes room for at least one more row, amortized.
func (b *Builder) grow() { b.resize(max(b.n+1, b.capacity()*3/2, 1024)) }

func (b *Builder) resize(c int) {
	switch b.typ.Physical() {
	case PhysInt64:
		b.i64 = realloc(b.alloc, b.i64, c)
	case PhysFloat64:
		b.f64 = realloc(b.alloc, b.f64, c)
	case PhysWide:
		b.w = realloc(b.alloc, b.w, c)
	case PhysVector:
		if d := b.typ.Dim; d > 0 {
			b.f32 = realloc(b.alloc, b.f32, c*d)
		} else {
			rows := make([][]float32, c)
			copy(rows, b.rows)
			b.rows = rows
		}
	default:
		b.i32 = realloc(b.alloc, b.i32, c)
	}
	if b.valid != nil {
		old := b.valid
		b.valid = allocSlice[uint64](b.alloc, (c+63)/64)
		copy(b.valid, old)
		for i := len(old); i < len(b.valid); i++ {
			b.valid[i] = ^uint64(0)
		}
		b.alloc.Free(asBytes(old))
	}
}

// realloc moves s into a new vector of c elements. It copies all of s, not
// only the rows appended: the delimited loader writes rows past n.
func realloc[T int32 | int64 | float64 | uint64 | float32 | decimal.Num](a Allocator, s []T, c int) []T {
	out := allocSlice[T](a, c)
	copy(out, s)
	if s != nil {
		a.Free(asBytes(s))
	}
	return out
}

// ensureValid allocates the validity bitmap, every row valid.
func (b *Builder) ensureValid() {
	if b.valid != nil {
		return
	}
	b.valid = allocSlice[uint64](b.alloc, (b.capacity()+63)/64)
	for i := range b.valid {
		b.valid[i] = ^uint64(0)
	}
}

// AppendNull appends a NULL.
func (b *Builder) AppendNull() {
	if b.n == b.capacity() {
		b.grow()
	}
	b.setZero(b.n)
	b.ensureValid()
	b.valid[b.n>>6] &^= 1 << (uint(b.n) & 63)
	b.nulls++
	b.n++
}

func (b *Builder) appendI32(v int32) {
	if b.n == len(b.i32) {
		b.grow()
	}
	b.i32[b.n] = v
	b.n++
}

func (b *Builder) appendI64(v int64) {
	if b.n == len(b.i64) {
		b.grow()
	}
	b.i64[b.n] = v
	b.n++
}

func (b *Builder) appendF64(v float64) {
	if b.n == len(b.f64) {
		b.grow()
	}
	b.f64[b.n] = v
	b.n++
}

// AppendString appends a value to a String column.
func (b *Builder) AppendString(s string) {
	id, ok := b.ids[s]
	if !ok {
		id = int32(len(b.vals))
		b.ids[s] = id
		b.vals = append(b.vals, s)
	}
	b.appendI32(id)
}

// appendStringBytes is AppendString without allocating for a string
// already seen.
func (b *Builder) appendStringBytes(f []byte) {
	id, ok := b.ids[string(f)]
	if !ok {
		s := string(f)
		id = int32(len(b.vals))
		b.ids[s] = id
		b.vals = append(b.vals, s)
	}
	b.appendI32(id)
}

// AppendText parses one text field and appends it. For every type but
// String an empty (or blank) field is NULL and blanks around a number are
// ignored; for String the field is the value as is, empty included. The
// `\N` NULL marker is the loaders' business, not the builder's. The error
// says why the text is not a value of the type, e.g. `"abc" is not a
// valid INT`.
func (b *Builder) AppendText(f []byte) error {
	if b.typ.ID == String {
		b.appendStringBytes(f)
		return nil
	}
	if b.n == b.capacity() {
		b.grow()
	}
	null, err := b.parseText(b.n, f)
	switch {
	case err != nil:
		return err
	case null:
		b.AppendNull()
	default:
		b.n++
	}
	return nil
}

// setZero stores the zero value at row i (a NULL's slot).
func (b *Builder) setZero(i int) {
	switch b.typ.Physical() {
	case PhysInt64:
		b.i64[i] = 0
	case PhysFloat64:
		b.f64[i] = 0
	case PhysWide:
		b.w[i] = decimal.Num{}
	case PhysVector:
		if d := b.typ.Dim; d > 0 {
			clear(b.f32[i*d : (i+1)*d])
		} else {
			b.rows[i] = nil
		}
	default:
		b.i32[i] = 0
	}
}

// parseText parses a non-string field into row i (within capacity) of the
// vector. An empty field is NULL: the row gets the zero value, null is
// true, and the validity bitmap is left to the caller.
func (b *Builder) parseText(i int, f []byte) (null bool, err error) {
	f = trimSpace(f)
	if len(f) == 0 {
		b.setZero(i)
		return true, nil
	}
	switch b.typ.ID {
	case Int32:
		if b.typ.Year {
			y, ok := ParseYear(viewString(f))
			if !ok {
				return false, fmt.Errorf("%s is not a valid YEAR (want 1901 to 2155, 0000, or two digits)", quoteField(f))
			}
			b.i32[i] = y
			break
		}
		v, ok, inRange := parseInt(f)
		if !ok {
			return false, errNotValid(f, b.typ)
		}
		if lo, hi, _ := b.typ.IntBounds(); !inRange || v < lo || v > hi {
			return false, errOutOfRange(f, b.typ)
		}
		b.i32[i] = int32(v)
	case Int64:
		v, ok, inRange := parseInt(f)
		if b.typ.Unsigned {
			v, ok, inRange = parseUnsigned(f, b.typ)
		}
		if !ok {
			return false, errNotValid(f, b.typ)
		}
		if !inRange {
			return false, errOutOfRange(f, b.typ)
		}
		b.i64[i] = v
	case Float64:
		v, err := parseFloat(f)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return false, errOutOfRange(f, b.typ)
			}
			return false, errNotValid(f, b.typ)
		}
		b.f64[i] = v
	case Decimal:
		if b.typ.IsWide() {
			return false, b.parseWide(i, f)
		}
		v, ok, fits := parseDecimal(f, b.typ.Precision, b.typ.Scale)
		if !ok {
			return false, errNotValid(f, b.typ)
		}
		if !fits {
			return false, errOutOfRange(f, b.typ)
		}
		b.i64[i] = v
	case Date:
		v, ok := parseDate(f)
		if !ok {
			return false, errNotValid(f, b.typ)
		}
		b.i32[i] = v
	case Datetime:
		v, ok := ParseDatetime(viewString(f), b.typ.Scale)
		if !ok {
			return false, errNotValid(f, b.typ)
		}
		if !b.typ.InDatetimeRange(v) {
			return false, errOutOfRange(f, b.typ)
		}
		b.i64[i] = v
	case Bool:
		v, ok := parseBool(f)
		if !ok {
			return false, errNotValid(f, b.typ)
		}
		b.i32[i] = v
	case Time:
		v, ok := ParseTime(viewString(f), b.typ.Scale)
		if !ok {
			return false, fmt.Errorf("%s is not a valid %s (want [-][D ]HH:MM:SS[.ffffff] or HHMMSS, within ±838:59:59)", quoteField(f), b.typ)
		}
		b.i64[i] = v
	case Vector:
		return false, b.parseVector(i, f)
	default:
		return false, errors.New("cannot parse text into " + b.typ.String())
	}
	return false, nil
}

// AppendInt64 appends a value given in the physical domain (days for DATE,
// the scaled integer for DECIMAL, 0/1 for BOOLEAN); it fails when the value
// does not fit a 32-bit column.
func (b *Builder) AppendInt64(v int64) error {
	switch b.typ.Physical() {
	case PhysInt64:
		b.appendI64(v)
	case PhysFloat64:
		b.appendF64(float64(v))
	case PhysWide:
		return b.AppendWide(decimal.FromInt64(v))
	case PhysVector:
		return errors.New("AppendInt64 on a VECTOR column")
	default:
		if b.typ.ID == String {
			return errors.New("AppendInt64 on a VARCHAR column")
		}
		lo, hi, ok := b.typ.IntBounds()
		if !ok {
			lo, hi = math.MinInt32, math.MaxInt32
		}
		if v < lo || v > hi || (b.typ.ID == Bool && v != 0 && v != 1) {
			return errOutOfRange([]byte(strconv.FormatInt(v, 10)), b.typ)
		}
		b.appendI32(int32(v))
	}
	return nil
}

// AppendFloat64 appends to a DOUBLE column.
func (b *Builder) AppendFloat64(v float64) { b.appendF64(v) }

// seed copies an existing column's rows into the empty builder and makes
// room for extra more, so that appending builds the table's next snapshot.
func (b *Builder) seed(old *Column, extra int) {
	b.Reserve(old.Len + extra)
	switch b.typ.Physical() {
	case PhysInt64:
		copy(b.i64, old.I64[:old.Len])
	case PhysFloat64:
		copy(b.f64, old.F64[:old.Len])
	case PhysWide:
		copy(b.w, old.W[:old.Len])
	case PhysVector:
		b.seedVectors(old)
	default:
		copy(b.i32, old.I32[:old.Len])
	}
	if old.Valid != nil {
		if nulls := old.Len - countSet(old.Valid, 0, old.Len); nulls > 0 {
			b.ensureValid()
			copyBits(b.valid, 0, old.Valid, 0, old.Len)
			b.nulls = nulls
		}
	}
	b.n = old.Len
	if b.typ.ID == String {
		b.baseRows, b.baseDict = old.Len, old.Dict
	}
}

// Reset empties the builder, keeping its memory for reuse.
func (b *Builder) Reset() {
	b.n = 0
	if b.nulls > 0 {
		for i := range b.valid {
			b.valid[i] = ^uint64(0)
		}
		b.nulls = 0
	}
	if b.typ.ID == String {
		clear(b.ids)
		b.vals = b.vals[:0]
	}
	b.baseRows, b.baseDict = 0, nil
}

// Column finishes the column and empties the builder. Strings get their
// sorted dictionary here.
func (b *Builder) Column() *Column {
	c, _ := b.finish()
	return c
}

// finish builds the column. For a String builder seeded from a column,
// baseRemap maps the seed's old codes to the merged dictionary's codes (nil
// when they are unchanged); old chunk statistics are remapped through it.
func (b *Builder) finish() (c *Column, baseRemap []int32) {
	n := b.n
	c = &Column{Type: b.typ, Len: n, alloc: b.alloc}
	// Keep the builder's vectors unless much of them is unused.
	keep := b.capacity()-n <= n/8+1024
	switch b.typ.Physical() {
	case PhysInt64:
		c.I64 = fit(b.alloc, b.i64, n, keep)
	case PhysFloat64:
		c.F64 = fit(b.alloc, b.f64, n, keep)
	case PhysWide:
		c.W = fit(b.alloc, b.w, n, keep)
	case PhysVector:
		b.finishVectors(c, keep)
	default:
		c.I32 = fit(b.alloc, b.i32, n, keep)
	}
	if b.nulls > 0 {
		words := (n + 63) / 64
		c.Valid = fit(b.alloc, b.valid, words, keep)
		if r := n & 63; r != 0 {
			c.Valid[words-1] &= lowMask(r)
		}
	} else if b.valid != nil {
		b.alloc.Free(asBytes(b.valid))
	}
	if b.typ.ID == String {
		c.Dict, baseRemap = b.buildDictionary(c.I32)
	}
	*b = Builder{typ: b.typ, alloc: b.alloc}
	if b.typ.ID == String {
		b.ids = map[string]int32{}
	}
	return c, baseRemap
}

// fit returns s[:n], or a copy of exactly n elements (freeing s) when keep
// is false. The result is never nil, so a column's vector identifies its
// physical type even with zero rows.
func fit[T int32 | int64 | float64 | uint64 | float32 | decimal.Num](a Allocator, s []T, n int, keep bool) []T {
	if keep && s != nil {
		return s[:n]
	}
	out := allocSlice[T](a, n)
	copy(out, s)
	if s != nil {
		a.Free(asBytes(s))
	}
	if out == nil {
		out = []T{}
	}
	return out
}

// buildDictionary sorts the strings seen since the seed, merges them with
// the seed's dictionary and rewrites codes: ids of new rows become codes of
// the merged dictionary, and so do the seed rows' old codes when new
// strings sort between them.
func (b *Builder) buildDictionary(codes []int32) (*Dictionary, []int32) {
	order := make([]int32, len(b.vals))
	for i := range order {
		order[i] = int32(i)
	}
	vals := b.vals
	slices.SortFunc(order, func(x, y int32) int {
		switch sx, sy := vals[x], vals[y]; {
		case sx < sy:
			return -1
		case sx > sy:
			return 1
		}
		return 0
	})
	sorted := make([]string, len(order))
	for r, id := range order {
		sorted[r] = vals[id]
	}
	newDict := &Dictionary{Values: sorted}
	idToCode := make([]int32, len(order))
	var baseRemap []int32
	dict := newDict
	if b.baseDict != nil && b.baseDict.Len() > 0 {
		var fromNew []int32
		dict, baseRemap, fromNew = b.baseDict.Merge(newDict)
		for r, id := range order {
			idToCode[id] = fromNew[r]
		}
		if isIdentity(baseRemap) {
			baseRemap = nil
		}
	} else {
		for r, id := range order {
			idToCode[id] = int32(r)
		}
	}
	if baseRemap != nil {
		for i, c := range codes[:b.baseRows] {
			codes[i] = baseRemap[c]
		}
	}
	if len(idToCode) > 0 {
		for i, id := range codes[b.baseRows:] {
			codes[b.baseRows+i] = idToCode[id]
		}
	}
	return dict, baseRemap
}

func isIdentity(m []int32) bool {
	for i, v := range m {
		if v != int32(i) {
			return false
		}
	}
	return true
}
