package columnar

import "gpusql/internal/decimal"

// Column is one column of a table: a contiguous vector of Len values of the
// physical type of Type (exactly one of I32, I64, F64, F32 is set), an
// optional validity bitmap and, for strings, the dictionary the codes index.
// Vector columns keep their elements in F32 (and, without a fixed
// dimension, row boundaries in Offsets): see vector.go and VectorAt.
//
// Columns are immutable once a table is published in the catalog: loads and
// inserts build new columns and swap the table, so readers never see a partial
// write.
type Column struct {
	Type Type
	Len  int
	I32  []int32
	I64  []int64
	F64  []float64
	// F32 holds a Vector column's elements, row after row: Type.Dim per
	// row, or Offsets[i]..Offsets[i+1] when Type.Dim is 0.
	F32     []float32
	Offsets []int64
	// W holds a wide DECIMAL column's unscaled values (Type.IsWide).
	W []decimal.Num
	// Valid has bit i set when row i is not NULL; nil means no NULLs.
	Valid []uint64
	// Dict maps codes to strings for String columns.
	Dict *Dictionary
	// alloc is where the vectors came from, so Free can return them.
	alloc Allocator
	// check verifies a mapped column's bytes on first use (check.go).
	check *deferredCheck
}

// IsNull reports whether row i is NULL.
func (c *Column) IsNull(i int) bool {
	return c.Valid != nil && c.Valid[i>>6]&(1<<(uint(i)&63)) == 0
}

// HasNulls reports whether any row may be NULL.
func (c *Column) HasNulls() bool { return c.Valid != nil }

// Int64At returns row i widened to int64 (codes, dates, bools included).
func (c *Column) Int64At(i int) int64 {
	switch {
	case c.I32 != nil:
		return int64(c.I32[i])
	case c.I64 != nil:
		return c.I64[i]
	case c.F64 != nil:
		return int64(c.F64[i])
	}
	return 0
}

// Float64At returns row i as float64 (decimals unscaled).
func (c *Column) Float64At(i int) float64 {
	switch {
	case c.F64 != nil:
		return c.F64[i]
	case c.I32 != nil:
		return float64(c.I32[i])
	case c.I64 != nil:
		return float64(c.I64[i])
	case c.W != nil:
		return decimal.Float64(c.W[i], 0)
	}
	return 0
}

// StringAt returns the string of row i of a String column.
func (c *Column) StringAt(i int) string { return c.Dict.Values[c.I32[i]] }

// Bytes is the size of the value vector plus the validity bitmap.
func (c *Column) Bytes() int64 {
	n := int64(len(c.I32))*4 + int64(len(c.I64))*8 + int64(len(c.F64))*8 + int64(len(c.Valid))*8
	return n + int64(len(c.F32))*4 + int64(len(c.Offsets))*8 + int64(len(c.W))*32
}

// NewColumn allocates a zeroed column of n rows from the default allocator.
func NewColumn(t Type, n int, withValidity bool) *Column {
	return NewColumnIn(defaultAllocator, t, n, withValidity)
}

// NewColumnIn allocates a zeroed column of n rows from a.
func NewColumnIn(a Allocator, t Type, n int, withValidity bool) *Column {
	c := &Column{Type: t, Len: n, alloc: a}
	switch t.Physical() {
	case PhysInt32:
		c.I32 = allocSlice[int32](a, n)
		if c.I32 == nil {
			c.I32 = []int32{}
		}
	case PhysInt64:
		c.I64 = allocSlice[int64](a, n)
		if c.I64 == nil {
			c.I64 = []int64{}
		}
	case PhysFloat64:
		c.F64 = allocSlice[float64](a, n)
		if c.F64 == nil {
			c.F64 = []float64{}
		}
	case PhysWide:
		c.W = allocSlice[decimal.Num](a, n)
		if c.W == nil {
			c.W = []decimal.Num{}
		}
	case PhysVector:
		// Fixed dimension: n rows of zeros. Any dimension: n empty rows.
		c.F32 = allocSlice[float32](a, n*t.Dim)
		if c.F32 == nil {
			c.F32 = []float32{}
		}
		if t.Dim == 0 {
			c.Offsets = make([]int64, n+1)
		}
	}
	if withValidity {
		c.Valid = allocSlice[uint64](a, (n+63)/64)
		if c.Valid == nil {
			c.Valid = []uint64{}
		}
	}
	if t.ID == String {
		c.Dict = &Dictionary{}
	}
	return c
}

// SetNull marks row i NULL; the column must have a validity bitmap.
func (c *Column) SetNull(i int) { c.Valid[i>>6] &^= 1 << (uint(i) & 63) }

// SetValid marks row i not NULL.
func (c *Column) SetValid(i int) { c.Valid[i>>6] |= 1 << (uint(i) & 63) }

// Free returns the column's memory to its allocator; the column must no
// longer be reachable from any table.
func (c *Column) Free() {
	if c.alloc == nil {
		return
	}
	c.alloc.Free(asBytes(c.I32))
	c.alloc.Free(asBytes(c.I64))
	c.alloc.Free(asBytes(c.F64))
	c.alloc.Free(asBytes(c.Valid))
	c.alloc.Free(asBytes(c.F32))
	c.alloc.Free(asBytes(c.W))
	c.I32, c.I64, c.F64, c.F32, c.Offsets, c.Valid, c.W = nil, nil, nil, nil, nil, nil, nil
}

// Pointer identifies the value vector (for caches keyed by column identity).
func (c *Column) Data() []byte {
	switch {
	case c.I32 != nil:
		return asBytes(c.I32)
	case c.I64 != nil:
		return asBytes(c.I64)
	case c.F32 != nil:
		return asBytes(c.F32)
	case c.W != nil:
		return asBytes(c.W)
	default:
		return asBytes(c.F64)
	}
}
