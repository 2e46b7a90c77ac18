package columnar

import "testing"

// A remembered column summary is the one computing it gives, and a table
// whose column or statistics changed (a copy with a new column, stats
// computed again over more rows) gets its own.
func TestColumnSummaryMemo(t *testing.T) {
	mk := func(n int, scale int32) *Column {
		c := NewColumn(TInt32, n, false)
		for i := range n {
			c.I32[i] = int32(i%1000) * scale
		}
		return c
	}
	tb := &Table{Name: "t", Rows: 3 * ChunkRows, Fields: []Field{{Name: "a", Type: TInt32}}, Columns: []*Column{mk(3*ChunkRows, 1)}}
	ComputeStats(tb)
	first := tb.ColumnSummary(0)
	if first != tb.columnSummary(0) || tb.ColumnSummary(0) != first || first.Max != 999 {
		t.Fatalf("remembered %+v, computed %+v", first, tb.columnSummary(0))
	}
	cp := *tb // shares the memo
	cp.Columns, cp.Stats = []*Column{mk(3*ChunkRows, 2)}, nil
	ComputeStats(&cp)
	if got := cp.ColumnSummary(0); got.Max != 1998 || got != cp.columnSummary(0) {
		t.Errorf("copy with a new column: %+v", got)
	}
	shared := *tb
	shared.Columns = []*Column{mk(3*ChunkRows, 3)}
	shared.Stats = [][]ChunkStats{append([]ChunkStats(nil), tb.Stats[0]...)}
	if got := shared.ColumnSummary(0); got != shared.columnSummary(0) {
		t.Errorf("copy sharing the memo, other column: %+v, want %+v", got, shared.columnSummary(0))
	}
	if tb.ColumnSummary(0) != first {
		t.Errorf("the original's summary changed")
	}
}
