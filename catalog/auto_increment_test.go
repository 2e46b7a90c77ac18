package catalog

import (
	"testing"

	"gpusql/storage/columnar"
)

// The counter takes values in order, moves past explicit values, stops
// at the column's limit, and gives values back only when no one took one
// since.
func TestAutoCounter(t *testing.T) {
	a := &AutoCounter{}
	if a.Next() != 1 {
		t.Fatalf("a new counter is at %d, want 1", a.Next())
	}
	a.Lock()
	v1, _ := a.Take(10)
	a.Passed(5)
	v2, _ := a.Take(10)
	a.Passed(3) // below the counter: no change
	v3, _ := a.Take(10)
	a.Unlock()
	if v1 != 1 || v2 != 6 || v3 != 7 || a.Next() != 8 {
		t.Fatalf("took %d %d %d, next %d; want 1 6 7, next 8", v1, v2, v3, a.Next())
	}
	a.Lock()
	a.Take(10)
	a.Take(10)
	v, ok := a.Take(10)
	if !ok || v != 10 {
		t.Fatalf("the limit itself: %d %v", v, ok)
	}
	if _, ok := a.Take(10); ok {
		t.Fatal("took past the limit")
	}
	a.Unlock()
	a.GiveBack(8, 11)
	if a.Next() != 8 {
		t.Fatalf("given back: next %d, want 8", a.Next())
	}
	a.Raise(20)
	a.GiveBack(8, 11) // someone moved it since: nothing given back
	if a.Next() != 20 {
		t.Fatalf("after a stale give-back: next %d, want 20", a.Next())
	}
	a.Reset()
	if a.Next() != 1 {
		t.Fatalf("reset: %d", a.Next())
	}
}

// A transaction's clone shares the counters; State carries them and a
// Restore never moves one back; a rename moves it, a drop forgets it.
func TestCountersShareAndRestore(t *testing.T) {
	c := New()
	fields := []columnar.Field{{Name: "id", Type: columnar.TInt64, AutoIncrement: true}}
	if err := c.CreateIndexed("t", fields, []Index{{Name: PrimaryName, Columns: []int{0}, Unique: true, Primary: true}}, false); err != nil {
		t.Fatal(err)
	}
	work := Clone(c.Tables())
	work.ShareCounters(c)
	work.Counter("t").Raise(42)
	if c.Counter("t").Next() != 42 {
		t.Fatalf("shared counter: %d, want 42", c.Counter("t").Next())
	}
	st := c.State()
	if st.AutoIncrement["t"] != 42 {
		t.Fatalf("State: %v", st.AutoIncrement)
	}
	c.Counter("t").Raise(50)
	c.Restore(st)
	if c.Counter("t").Next() != 50 {
		t.Fatalf("Restore moved the counter back to %d", c.Counter("t").Next())
	}
	if !c.CountersMoved(st) {
		t.Fatal("CountersMoved: want true past the state's 42")
	}
	if err := c.Rename([]string{"t"}, []string{"u"}); err != nil {
		t.Fatal(err)
	}
	if c.Counter("u").Next() != 50 {
		t.Fatalf("after rename: %d", c.Counter("u").Next())
	}
	if err := c.DropIndex("u", PrimaryName, false); err == nil {
		t.Fatal("dropping the auto column's only key: want error 1075")
	}
	if err := c.Drop("u", false); err != nil {
		t.Fatal(err)
	}
	if c.Counter("u").Next() != 1 {
		t.Fatal("a dropped table's counter lives on")
	}
}
