package catalog

import (
	"errors"
	"testing"

	"gpusql/storage/columnar"
)

func uniqTable(name string, vals ...int32) *columnar.Table {
	t := columnar.NewEmptyTable(name, []columnar.Field{{Name: "a", Type: columnar.TInt32}})
	c := columnar.NewColumn(columnar.TInt32, len(vals), false)
	copy(c.I32, vals)
	t.Columns[0], t.Rows = c, len(vals)
	columnar.ComputeStats(t)
	return t
}

// A snapshot that repeats a unique key is not committed, and the error is
// MySQL's duplicate-entry error naming the key.
func TestUpdateEnforcesUniqueIndexes(t *testing.T) {
	c := New()
	ix := Index{Name: PrimaryName, Columns: []int{0}, Unique: true, Primary: true}
	fields := []columnar.Field{{Name: "a", Type: columnar.TInt32}}
	if err := c.CreateIndexed("t", fields, []Index{ix}, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Update("t", func(*columnar.Table) (*columnar.Table, error) { return uniqTable("t", 1, 2), nil }); err != nil {
		t.Fatal(err)
	}
	err := c.Update("t", func(*columnar.Table) (*columnar.Table, error) { return uniqTable("t", 1, 2, 2), nil })
	var dup *DuplicateKeyError
	if !errors.As(err, &dup) || err.Error() != "Duplicate entry '2' for key 't.PRIMARY'" {
		t.Fatalf("got %v", err)
	}
	if cur, _ := c.Table("t"); cur.Rows != 2 {
		t.Fatalf("table changed: %d rows", cur.Rows)
	}
	if err := c.DropIndex("t", "primary", false); err != nil {
		t.Fatal(err)
	}
	if err := c.Update("t", func(*columnar.Table) (*columnar.Table, error) { return uniqTable("t", 1, 1), nil }); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateIndex("t", Index{Name: "u", Columns: []int{0}, Unique: true}, false); err == nil {
		t.Fatal("unique index over duplicates was created")
	}
	if len(c.Indexes("t")) != 0 {
		t.Fatalf("indexes: %v", c.Indexes("t"))
	}
}
