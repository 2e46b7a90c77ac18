package ssbgen

// kind is a column's type in schema.sql: INT, BIGINT or VARCHAR.
type kind uint8

const (
	kindInt32 kind = iota
	kindInt64
	kindString
)

// colSpec names a column and its type, in schema.sql's order.
type colSpec struct {
	name string
	kind kind
}

// column holds one block's values of a column. Integers of both widths are
// kept in ints; strings are concatenated in data with offs[i]..offs[i+1]
// delimiting row i (Arrow's string layout, so Parquet output is a copy).
type column struct {
	ints []int64
	offs []int32
	data []byte
}

func (c *column) int(v int64) { c.ints = append(c.ints, v) }

func (c *column) str(s string) {
	c.data = append(c.data, s...)
	c.end()
}

// end closes a string whose bytes were appended to data directly.
func (c *column) end() { c.offs = append(c.offs, int32(len(c.data))) }

// batch is one block of rows of a table, column by column. Generators fill
// it; encoders turn it into text or an Arrow record.
type batch struct {
	specs []colSpec
	cols  []column
	rows  int
}

func newBatch(specs []colSpec) *batch {
	b := &batch{specs: specs, cols: make([]column, len(specs))}
	b.reset()
	return b
}

func (b *batch) reset() {
	b.rows = 0
	for i := range b.cols {
		c := &b.cols[i]
		c.ints = c.ints[:0]
		c.data = c.data[:0]
		c.offs = append(c.offs[:0], 0)
	}
}

// strAt returns row r of string column c without copying.
func (b *batch) strAt(c, r int) []byte {
	col := &b.cols[c]
	return col.data[col.offs[r]:col.offs[r+1]]
}
