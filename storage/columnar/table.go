package columnar

// ChunkRows is the number of rows a statistics chunk covers. Chunks are row
// ranges of the contiguous column vectors, so executors see one vector per
// column while the planner and the scans can skip chunks by their min and max.
const ChunkRows = 1 << 16

// Field names a column and gives its type.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
}

// ChunkStats describes one chunk of one column. Min and Max are in the
// column's physical domain (codes for strings, days for dates, scaled
// integers for decimals; float bits are not used: MinF/MaxF hold doubles).
type ChunkStats struct {
	Min, Max   int64
	MinF, MaxF float64
	NullCount  int
	Distinct   int
}

// Table is an immutable snapshot of a table's rows.
type Table struct {
	Name    string
	Fields  []Field
	Columns []*Column
	Rows    int
	// Stats[c][k] describes chunk k of column c.
	Stats [][]ChunkStats
}

// NumChunks is the number of statistics chunks.
func (t *Table) NumChunks() int { return (t.Rows + ChunkRows - 1) / ChunkRows }

// ColumnIndex returns the index of the named column, or -1.
func (t *Table) ColumnIndex(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// NewEmptyTable returns a table with the given schema and no rows.
func NewEmptyTable(name string, fields []Field) *Table {
	t := &Table{Name: name, Fields: fields, Columns: make([]*Column, len(fields))}
	for i, f := range fields {
		t.Columns[i] = NewColumn(f.Type, 0, false)
	}
	t.Stats = make([][]ChunkStats, len(fields))
	return t
}

// Summary is table-wide statistics for one column, merged from its chunks.
type Summary struct {
	Min, Max   int64
	MinF, MaxF float64
	NullCount  int
	// Distinct is an estimate: exact for dictionary columns, otherwise the
	// largest chunk count scaled by how much the chunks' ranges spread.
	Distinct int
}

// ColumnSummary merges the chunk statistics of column c.
func (t *Table) ColumnSummary(c int) Summary {
	var s Summary
	chunks := t.Stats[c]
	for k, cs := range chunks {
		if k == 0 {
			s.Min, s.Max, s.MinF, s.MaxF = cs.Min, cs.Max, cs.MinF, cs.MaxF
		} else {
			s.Min, s.Max = min(s.Min, cs.Min), max(s.Max, cs.Max)
			s.MinF, s.MaxF = min(s.MinF, cs.MinF), max(s.MaxF, cs.MaxF)
		}
		s.NullCount += cs.NullCount
		s.Distinct = max(s.Distinct, cs.Distinct)
	}
	col := t.Columns[c]
	switch {
	case col.Type.ID == String && col.Dict != nil:
		s.Distinct = col.Dict.Len()
	case len(chunks) > 1 && col.Type.Physical() != PhysFloat64:
		// Keys spread over disjoint chunk ranges (a sorted key) have as many
		// distinct values as rows; uniformly spread ones are capped by the
		// value range.
		span := s.Max - s.Min + 1
		sum := 0
		for _, cs := range chunks {
			sum += cs.Distinct
		}
		s.Distinct = int(min(int64(sum), max(int64(s.Distinct), span)))
	}
	return s
}
