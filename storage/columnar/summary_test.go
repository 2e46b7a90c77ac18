package columnar

import "testing"

// ColumnSummary's distinct count for the two shapes a star schema has: a
// sorted unique key (chunks hold disjoint ranges) and a foreign key repeated
// all over the fact table (every chunk draws from one small domain).
func TestColumnSummaryDistinct(t *testing.T) {
	const rows = 5*ChunkRows + 123
	sorted := NewColumn(TInt32, rows, false)
	dates := NewColumn(TInt32, rows, false)
	const domain = 2400
	x := uint32(1)
	for i := range rows {
		sorted.I32[i] = int32(i + 1)
		x = x*1664525 + 1013904223
		// yyyymmdd-like values: 2400 distinct values spread over a range
		// 25 times wider.
		dates.I32[i] = 19920101 + int32(x>>8%domain)*25
	}
	tab := &Table{Name: "f", Rows: rows,
		Fields:  []Field{{Name: "k", Type: TInt32}, {Name: "d", Type: TInt32}},
		Columns: []*Column{sorted, dates}}
	ComputeStats(tab)
	if got := tab.ColumnSummary(0).Distinct; got < rows*98/100 || got > rows {
		t.Errorf("sorted key: distinct %d, want about %d", got, rows)
	}
	if got := tab.ColumnSummary(1).Distinct; got < domain*9/10 || got > domain*11/10 {
		t.Errorf("repeated key: distinct %d, want about %d (not the value range %d)", got, domain, domain*25)
	}
}
