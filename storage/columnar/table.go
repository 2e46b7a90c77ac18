package columnar

import (
	"math"
	"sort"
	"sync"
)

// ChunkRows is the number of rows a statistics chunk covers. Chunks are row
// ranges of the contiguous column vectors, so executors see one vector per
// column while the planner and the scans can skip chunks by their min and max.
const ChunkRows = 1 << 16

// Field names a column and gives its type.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
	// HasDefault marks a column DEFAULT: Default is the value as text in
	// the column's type (what DESCRIBE shows; 'x' is x, DATE '2024-01-02'
	// is 2024-01-02), read back by the binder for columns an INSERT
	// leaves out. A column without one defaults to NULL. Both are omitted
	// from manifests when unset, so older manifests read unchanged.
	HasDefault bool   `json:",omitempty"`
	Default    string `json:",omitempty"`
	// OnUpdateNow marks a DATETIME/TIMESTAMP column ON UPDATE
	// CURRENT_TIMESTAMP: an UPDATE that changes a row and does not set the
	// column sets it to the statement's clock.
	OnUpdateNow bool `json:",omitempty"`
	// AutoIncrement marks the table's AUTO_INCREMENT column (an integer
	// key column): an INSERT that leaves it out, or gives NULL or 0,
	// stores the table's next counter value (catalog/auto_increment.go).
	AutoIncrement bool `json:",omitempty"`
	// Collation is a string column's case-insensitive collation
	// (COLLATE utf8mb4_0900_ai_ci in its definition; sql/collation.go),
	// "" for gpusql's comparison by bytes.
	Collation string `json:",omitempty"`
	// Generated is a generated column's expression as MySQL prints it
	// (information_schema.COLUMNS.GENERATION_EXPRESSION: "(`a` * 2)"),
	// GeneratedStored marks GENERATED ... STORED. Both kinds are stored
	// materialized: the engine computes the column whenever a statement
	// writes the table (engine/generated.go).
	Generated       string `json:",omitempty"`
	GeneratedStored bool   `json:",omitempty"`
	// Comment is the column's COMMENT 'text', which SHOW CREATE TABLE,
	// SHOW FULL COLUMNS and information_schema.COLUMNS show.
	Comment string `json:",omitempty"`
}

// ChunkStats describes one chunk of one column. Min and Max are in the
// column's physical domain (codes for strings, days for dates, scaled
// integers for decimals; float bits are not used: MinF/MaxF hold doubles).
type ChunkStats struct {
	Min, Max   int64
	MinF, MaxF float64
	NullCount  int
	Distinct   int
	// Sorted: the chunk's non-NULL integer values (codes, dates) never
	// decrease in row order, so the planner can take a column sorted on
	// load as a merge join's sorted input. Not stored in a database
	// directory: chunks read back from one say false.
	Sorted bool
	// Runs: of an integer column, its runs of equal values (a run of NULLs
	// is one) with a run broken every PackChunkRows rows, as the GPU's
	// run-length transfer form counts them (runs.go); 0 when not known (a
	// database written before it was kept) or not an integer column.
	Runs int
}

// Table is an immutable snapshot of a table's rows.
type Table struct {
	Name    string
	Fields  []Field
	Columns []*Column
	Rows    int
	// Stats[c][k] describes chunk k of column c.
	Stats [][]ChunkStats
	// summaries remembers ColumnSummary's answers (ComputeStats makes it);
	// nil: computed at every call.
	summaries *summaryMemo
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
	// Distinct is exact for dictionary columns and an estimate otherwise
	// (see estimateDistinct).
	Distinct int
}

// ColumnSummary merges the chunk statistics of column c. Planning asks
// for it many times a query, and a fact table of hundreds of millions of
// rows has thousands of chunks, so answers are remembered per column, as
// long as the column and its statistics are the ones they came from.
func (t *Table) ColumnSummary(c int) Summary {
	m := t.summaries
	if m == nil || len(t.Stats[c]) == 0 {
		return t.columnSummary(c)
	}
	key := summaryKey{col: t.Columns[c], stats: &t.Stats[c][0], chunks: len(t.Stats[c]), rows: t.Rows}
	m.mu.Lock()
	e, ok := m.byCol[c]
	m.mu.Unlock()
	if ok && e.key == key {
		return e.s
	}
	s := t.columnSummary(c)
	m.mu.Lock()
	m.byCol[c] = summaryEntry{key, s}
	m.mu.Unlock()
	return s
}

// RememberSummaries makes t keep its ColumnSummary answers, as
// ComputeStats does, for a table whose statistics came from elsewhere (a
// database's files): the planner asks for each column's summary many
// times a plan, and a fact table's takes a sort over its chunks.
func (t *Table) RememberSummaries() {
	if t.summaries == nil {
		t.summaries = &summaryMemo{byCol: map[int]summaryEntry{}}
	}
}

// summaryMemo holds a table's column summaries; tables copied by value
// share it, each entry checked against the copy's column and statistics.
type summaryMemo struct {
	mu    sync.Mutex
	byCol map[int]summaryEntry
}

type summaryKey struct {
	col    *Column
	stats  *ChunkStats // the first chunk's: held, so never reused
	chunks int
	rows   int
}

type summaryEntry struct {
	key summaryKey
	s   Summary
}

func (t *Table) columnSummary(c int) Summary {
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
	case len(chunks) > 1 && col.Type.Physical() != PhysFloat64 && !col.Type.IsWide():
		s.Distinct = estimateDistinct(chunks, t.Rows, int(min(int64(t.Rows), s.Max-s.Min+1)))
	}
	return s
}

// estimateDistinct estimates a column's distinct count from per-chunk counts.
// Chunks whose ranges do not overlap (a sorted or clustered key) hold
// different values: the counts add up. Otherwise every chunk draws from one
// domain of D values; a chunk of n rows then shows d = D·(1 - e^(-n/D))
// distinct values, which is inverted for D from the largest chunk count. (A
// date key repeated all over a fact table has D ≈ d, not the width of its
// range: lo_orderdate spans 61K integers but holds 2.4K dates.) fallback,
// the value range capped by the rows, is the answer when the chunks say
// nothing better.
func estimateDistinct(chunks []ChunkStats, rows int, fallback int) int {
	type span struct{ lo, hi int64 }
	spans := make([]span, 0, len(chunks))
	sum, dmax := 0, 0
	for _, c := range chunks {
		spans = append(spans, span{c.Min, c.Max})
		sum += c.Distinct
		dmax = max(dmax, c.Distinct)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	overlaps := 0
	for i := 1; i < len(spans); i++ {
		if spans[i].lo <= spans[i-1].hi {
			overlaps++
		}
	}
	if overlaps*10 <= len(spans) {
		return min(sum, rows)
	}
	n := float64(min(ChunkRows, rows))
	d := float64(dmax)
	if d >= n*0.99 {
		return fallback
	}
	lo, hi := d, math.Max(d, float64(fallback))*4+1
	for range 60 {
		mid := (lo + hi) / 2
		if mid*(1-math.Exp(-n/mid)) < d {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int(math.Min(math.Round(hi), float64(rows)))
}
