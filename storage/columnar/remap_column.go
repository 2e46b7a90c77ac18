package columnar

import (
	"fmt"
	"sync"
	"time"
)

// A table column whose values fall in a small dense range, in a table
// large enough for shared-memory conflicts to cost, may carry a remap
// (remap.go) beside it: the foreign keys of a small dimension and the
// grouping columns of few groups both look like that in the statistics
// (no foreign-key constraints are declared). One remap serves both uses:
// it is built for atomics (rows of a chunk on distinct copies, copies not
// reused within the window), which is conflict-free for reads as well.
// The column itself is untouched; every other use reads it as before.

// Limits of the columns that get a remap.
const (
	// RemapMinRows: below this many rows a table scan is too short for
	// conflicts to matter next to the launch and the table's load.
	RemapMinRows = 1 << 20
	// RemapMaxDomain bounds the range of values (a NULL code included):
	// the remapped table, a few copies of each, must fit shared memory.
	RemapMaxDomain = 4096
)

// DefaultColumnRemapOptions are the options remaps stored with columns are
// built with: atomics, a window of 2 chunks, at most 4 copies a value. The
// budget is `bench conflicts`' measurement on the H100 (50 M rows, 1,024
// values): a shared-memory join over a remap of budget 4 lost 9 % to the
// plain layout on uniform keys where budget 8 lost 18 % (each block loads
// twice the copies), while the grouped SUM ran at the same speed under
// budgets 4, 8 and 16 at every skew; and half the copies let twice the
// keys fit a block's shared memory.
func DefaultColumnRemapOptions() RemapOptions {
	o := DefaultRemapOptions()
	o.Atomic, o.Window, o.Budget = true, 2, 4
	return o
}

// ColumnRemap is the remap of one table column: code = value - Min, NULL
// coded Codes-1 when the column has NULLs. Source is the column vector it
// was built from: a snapshot whose column is another vector (a write) or
// has other rows does not match it.
type ColumnRemap struct {
	Column string
	Source *Column
	Rows   int
	Min    int64
	// Codes is the values the remap distinguishes (the table's entries
	// before copies); NullCode is the code of NULL, -1 when none.
	Codes    int
	NullCode int32
	*Remap
	Options RemapOptions
	Elapsed time.Duration

	slotOnce sync.Once
	slotCol  *Column
}

// SlotColumn is Slots as an INT column, the same object on every call, so
// that executors caching columns by identity (the GPU's column cache) copy
// it once.
func (r *ColumnRemap) SlotColumn() *Column {
	r.slotOnce.Do(func() { r.slotCol = &Column{Type: TInt32, Len: len(r.Slots), I32: r.Slots} })
	return r.slotCol
}

// Matches reports whether r was built from column c of t as it is now.
func (r *ColumnRemap) Matches(t *Table, c int) bool {
	return c >= 0 && c < len(t.Columns) && t.Columns[c] == r.Source && t.Rows == r.Rows
}

// MeanRounds and MeanPlainRounds are the serialization rounds per warp
// of the remapped and the plain layout (atomics).
func (r *ColumnRemap) MeanRounds() float64 { return ratio(r.Rounds, r.Chunks) }

// MeanPlainRounds: see MeanRounds.
func (r *ColumnRemap) MeanPlainRounds() float64 { return ratio(r.PlainRounds, r.Chunks) }

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// RemapCandidate reports whether column c of t should carry a remap: an
// integer (or date, or dictionary code) column of a table of at least
// minRows rows whose values, NULL included, span at most RemapMaxDomain
// codes. lo is the smallest value and codes the span.
func RemapCandidate(t *Table, c, minRows int) (lo int64, codes int, ok bool) {
	if t.Rows < max(minRows, 1) || t.Rows == 0 {
		return 0, 0, false
	}
	switch t.Fields[c].Type.Physical() {
	case PhysInt32, PhysInt64:
	default:
		return 0, 0, false
	}
	s := t.ColumnSummary(c)
	if s.NullCount >= t.Rows {
		return 0, 0, false
	}
	span := s.Max - s.Min + 1
	if s.NullCount > 0 {
		span++
	}
	if span <= 0 || span > RemapMaxDomain {
		return 0, 0, false
	}
	return s.Min, int(span), true
}

// BuildColumnRemap remaps column c of t, whose values span codes from lo
// (RemapCandidate).
func BuildColumnRemap(t *Table, c int, lo int64, codes int, o RemapOptions) (*ColumnRemap, error) {
	col := t.Columns[c]
	r := &ColumnRemap{Column: t.Fields[c].Name, Source: col, Rows: t.Rows, Min: lo, Codes: codes, NullCode: -1, Options: o}
	if col.HasNulls() {
		r.NullCode = int32(codes - 1)
	}
	vals := make([]int32, t.Rows)
	for i := range vals {
		if col.IsNull(i) {
			vals[i] = r.NullCode
			continue
		}
		v := col.Int64At(i) - lo
		if v < 0 || v >= int64(codes) || int32(v) == r.NullCode {
			return nil, fmt.Errorf("remap %s.%s: row %d: value %d outside the statistics' range [%d, %d]", t.Name, r.Column, i, v+lo, lo, lo+int64(codes)-1)
		}
		vals[i] = int32(v)
	}
	start := time.Now()
	rm, err := BuildRemap(vals, codes, o)
	if err != nil {
		return nil, fmt.Errorf("remap %s.%s: %w", t.Name, r.Column, err)
	}
	r.Remap, r.Elapsed = rm, time.Since(start)
	return r, nil
}
