package catalog

import (
	"errors"
	"sync"
	"testing"

	"gpusql/storage/columnar"
)

func intTable(name string, rows int) *columnar.Table {
	t := columnar.NewEmptyTable(name, []columnar.Field{{Name: "a", Type: columnar.TInt32}})
	col := columnar.NewColumn(columnar.TInt32, rows, false)
	for i := range col.I32 {
		col.I32[i] = int32(i)
	}
	t.Columns[0], t.Rows = col, rows
	return t
}

func TestCreateDropNames(t *testing.T) {
	c := New()
	fields := []columnar.Field{{Name: "a", Type: columnar.TInt32}}
	if err := c.Create("T1", fields, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Create("t1", fields, false); err == nil {
		t.Fatal("creating t1 twice (names are case-insensitive) succeeded")
	}
	if err := c.Create("t1", fields, true); err != nil {
		t.Fatalf("IF NOT EXISTS: %v", err)
	}
	dup := []columnar.Field{{Name: "a", Type: columnar.TInt32}, {Name: "A", Type: columnar.TInt64}}
	if err := c.Create("t2", dup, false); err == nil {
		t.Fatal("duplicate column accepted")
	}
	if got := c.Names(); len(got) != 1 || got[0] != "T1" {
		t.Fatalf("Names() = %v", got)
	}
	if err := c.Drop("nosuch", false); err == nil {
		t.Fatal("dropping a missing table succeeded")
	}
	if err := c.Drop("nosuch", true); err != nil {
		t.Fatalf("DROP IF EXISTS: %v", err)
	}
	if err := c.Drop("t1", false); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Table("t1"); ok {
		t.Fatal("dropped table still visible")
	}
}

func TestFailedUpdateLeavesTable(t *testing.T) {
	c := New()
	c.Put(intTable("t", 3))
	before, _ := c.Table("t")
	v := c.Version()
	boom := errors.New("boom")
	err := c.Update("t", func(old *columnar.Table) (*columnar.Table, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("Update error = %v", err)
	}
	after, _ := c.Table("t")
	if after != before || c.Version() != v {
		t.Fatal("a failed update changed the table")
	}
}

// Readers that hold a snapshot keep seeing it, whole, while writers commit new
// ones: run with -race.
func TestReadersSeeWholeSnapshots(t *testing.T) {
	c := New()
	c.Put(intTable("t", 1))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 2; n <= 200; n++ {
			if err := c.Update("t", func(*columnar.Table) (*columnar.Table, error) {
				return intTable("t", n), nil
			}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				snap, _ := c.Table("t")
				col := snap.Columns[0]
				if col.Len != snap.Rows || len(col.I32) != snap.Rows {
					t.Errorf("torn snapshot: rows %d, column %d", snap.Rows, len(col.I32))
					return
				}
			}
		}()
	}
	wg.Wait()
	final, _ := c.Table("t")
	if final.Rows != 200 {
		t.Fatalf("final rows = %d, want 200", final.Rows)
	}
}
