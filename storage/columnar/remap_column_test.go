package columnar

import "testing"

// remapTable is a table of one nullable INT column: value 100 + v for the
// Zipf draws v, NULL every 97th row.
func remapTable(n int) *Table {
	col := NewColumn(TInt32, n, true)
	for w := range col.Valid {
		col.Valid[w] = ^uint64(0)
	}
	for i, v := range zipfValues(n, 50, 1.5, 2) {
		col.I32[i] = 100 + v
		if i%97 == 0 {
			col.Valid[i>>6] &^= 1 << (uint(i) & 63)
		}
	}
	t := &Table{Name: "f", Fields: []Field{{Name: "k", Type: TInt32, Nullable: true}}, Columns: []*Column{col}, Rows: n}
	ComputeStats(t)
	return t
}

// A column remap codes values from the column's minimum, NULL last; every
// row's slot holds the row's code; it matches its own column only.
func TestColumnRemap(t *testing.T) {
	tb := remapTable(10_007)
	if _, _, ok := RemapCandidate(tb, 0, RemapMinRows); ok {
		t.Fatalf("a %d-row table is a candidate under the %d-row minimum", tb.Rows, RemapMinRows)
	}
	lo, codes, ok := RemapCandidate(tb, 0, 1000)
	if !ok || lo != 100 || codes != 51 {
		t.Fatalf("candidate: lo %d codes %d ok %v, want 100, 51 (50 values and NULL), true", lo, codes, ok)
	}
	r, err := BuildColumnRemap(tb, 0, lo, codes, DefaultColumnRemapOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.NullCode != 50 {
		t.Errorf("NULL code %d, want 50", r.NullCode)
	}
	col := tb.Columns[0]
	for i, s := range r.Slots {
		want := r.NullCode
		if !col.IsNull(i) {
			want = col.I32[i] - 100
		}
		if got := r.SlotValue[s]; got != want {
			t.Fatalf("row %d: slot %d holds code %d, want %d", i, s, got, want)
		}
	}
	if r.MeanRounds() >= r.MeanPlainRounds() {
		t.Errorf("remapped %.2f rounds per warp, plain %.2f: want fewer", r.MeanRounds(), r.MeanPlainRounds())
	}
	if !r.Matches(tb, 0) {
		t.Error("the remap does not match the column it was built from")
	}
	other := *tb
	other.Columns = []*Column{NewColumn(TInt32, tb.Rows, true)}
	if r.Matches(&other, 0) || r.Matches(tb, 1) {
		t.Error("the remap matches another column")
	}
}
