package catalog

import (
	"errors"
	"sync"
	"testing"

	"gpusql/storage/columnar"
)

// UpdateTables commits every table or none: a repeated key in the second
// table leaves the first as it was; success swaps both.
func TestUpdateTablesAllOrNothing(t *testing.T) {
	c := New()
	ix := Index{Name: PrimaryName, Columns: []int{0}, Unique: true, Primary: true}
	fields := []columnar.Field{{Name: "a", Type: columnar.TInt32}}
	for _, name := range []string{"x", "y"} {
		if err := c.CreateIndexed(name, fields, []Index{ix}, false); err != nil {
			t.Fatal(err)
		}
	}
	err := c.UpdateTables([]string{"x", "y"}, func(old []*columnar.Table) ([]*columnar.Table, error) {
		return []*columnar.Table{uniqTable("x", 1, 2), uniqTable("y", 3, 3)}, nil
	})
	var dup *DuplicateKeyError
	if !errors.As(err, &dup) || err.Error() != "Duplicate entry '3' for key 'y.PRIMARY'" {
		t.Fatalf("got %v", err)
	}
	if cur, _ := c.Table("x"); cur.Rows != 0 {
		t.Fatalf("x changed by a failed statement: %d rows", cur.Rows)
	}
	err = c.UpdateTables([]string{"y", "x"}, func(old []*columnar.Table) ([]*columnar.Table, error) {
		if old[0].Name != "y" || old[1].Name != "x" {
			t.Errorf("snapshots out of order: %s, %s", old[0].Name, old[1].Name)
		}
		return []*columnar.Table{uniqTable("y", 5), uniqTable("x", 1, 2)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := c.Table("x"); x.Rows != 2 {
		t.Errorf("x: %d rows, want 2", x.Rows)
	}
	if y, _ := c.Table("y"); y.Rows != 1 {
		t.Errorf("y: %d rows, want 1", y.Rows)
	}
	if err := c.UpdateTables([]string{"x", "nope"}, nil); err == nil {
		t.Error("a missing table was not reported")
	}
}

// Statements locking the same tables in opposite orders do not deadlock
// (locks are taken in name order) and each sees the other's commit.
func TestUpdateTablesNoDeadlock(t *testing.T) {
	c := New()
	c.Put(intTable("p", 0))
	c.Put(intTable("q", 0))
	var wg sync.WaitGroup
	grow := func(names []string) {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			err := c.UpdateTables(names, func(old []*columnar.Table) ([]*columnar.Table, error) {
				next := make([]*columnar.Table, len(old))
				for j, o := range old {
					next[j] = intTable(o.Name, o.Rows+1)
				}
				return next, nil
			})
			if err != nil {
				t.Error(err)
				return
			}
		}
	}
	wg.Add(2)
	go grow([]string{"p", "q"})
	go grow([]string{"q", "p"})
	wg.Wait()
	for _, name := range []string{"p", "q"} {
		if cur, _ := c.Table(name); cur.Rows != 400 {
			t.Errorf("%s: %d rows, want 400 (a lost update)", name, cur.Rows)
		}
	}
}
