package catalog

import (
	"testing"

	"gpusql/storage/columnar"
)

func remapFixture(t *testing.T) (*Catalog, *columnar.Table, *columnar.ColumnRemap) {
	t.Helper()
	a, b := columnar.NewColumn(columnar.TInt32, 4096, false), columnar.NewColumn(columnar.TInt32, 4096, false)
	for i := range a.I32 {
		a.I32[i], b.I32[i] = int32(i%7), int32(i)
	}
	tb := &columnar.Table{Name: "F", Fields: []columnar.Field{{Name: "k", Type: columnar.TInt32}, {Name: "v", Type: columnar.TInt32}},
		Columns: []*columnar.Column{a, b}, Rows: 4096}
	columnar.ComputeStats(tb)
	c := New()
	c.Put(tb)
	lo, codes, ok := columnar.RemapCandidate(tb, 0, 1)
	if !ok {
		t.Fatal("column k is no remap candidate")
	}
	r, err := columnar.BuildColumnRemap(tb, 0, lo, codes, columnar.DefaultColumnRemapOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !c.SetRemap(tb, r) {
		t.Fatal("SetRemap refused the current snapshot")
	}
	return c, tb, r
}

// A remap lives as long as its column vector: a write that keeps the
// column keeps it, one that replaces the column, the table or drops it
// ends it, and a remap of a stale snapshot is refused.
func TestRemapLifetime(t *testing.T) {
	c, tb, r := remapFixture(t)
	if c.Remap(tb, 0) != r || len(c.Remaps("f")) != 1 || c.Remap(tb, 1) != nil {
		t.Fatal("the remap of k is not found, or v has one")
	}
	// A write to v only: k's vector is kept, so is its remap.
	err := c.Update("f", func(old *columnar.Table) (*columnar.Table, error) {
		next := *old
		next.Columns = []*columnar.Column{old.Columns[0], columnar.NewColumn(columnar.TInt32, old.Rows, false)}
		return &next, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	now, _ := c.Table("f")
	if c.Remap(now, 0) != r {
		t.Error("a write to another column dropped the remap")
	}
	if c.SetRemap(tb, r) {
		t.Error("SetRemap kept a remap for a stale snapshot")
	}
	// A write to k: gone.
	err = c.Update("f", func(old *columnar.Table) (*columnar.Table, error) {
		next := *old
		next.Columns = []*columnar.Column{columnar.NewColumn(columnar.TInt32, old.Rows, false), old.Columns[1]}
		return &next, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	now, _ = c.Table("f")
	if c.Remap(now, 0) != nil || c.Remap(tb, 0) != nil || len(c.remaps) != 0 {
		t.Error("a write to k left its remap in place")
	}
	c2, tb2, _ := remapFixture(t)
	if err := c2.Drop("f", false); err != nil {
		t.Fatal(err)
	}
	if c2.Remap(tb2, 0) != nil || len(c2.remaps) != 0 {
		t.Error("DROP TABLE left the remap")
	}
}
