package catalog

import (
	"errors"
	"strings"
	"testing"

	"gpusql/storage/columnar"
)

// TestPublish: a clone's creates, drops and replacements reach the catalog
// all at once, and not at all when another writer changed one of the same
// tables after the clone was taken.
func TestPublish(t *testing.T) {
	fields := []columnar.Field{{Name: "x", Type: columnar.TInt32}}
	c := New()
	for _, n := range []string{"keep", "drop", "swap"} {
		if err := c.Create(n, fields, false); err != nil {
			t.Fatal(err)
		}
	}
	base := c.Tables()
	work := Clone(base)
	work.Drop("drop", false)
	work.Create("New", fields, false)
	work.Put(columnar.NewEmptyTable("swap", fields))
	// Another session changes a table the clone did not touch.
	c.Put(columnar.NewEmptyTable("keep", fields))
	kept, _ := c.Table("keep")
	if err := c.Publish(base, work, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Table("drop"); ok {
		t.Error("dropped table still there")
	}
	if _, ok := c.Table("new"); !ok {
		t.Error("created table missing")
	}
	if s, _ := c.Table("swap"); s == base["swap"] {
		t.Error("replaced table not published")
	}
	if k, _ := c.Table("keep"); k != kept {
		t.Error("publish overwrote another session's table")
	}

	// Conflict: both change "swap"; nothing of the loser is applied.
	base = c.Tables()
	work = Clone(base)
	work.Put(columnar.NewEmptyTable("swap", fields))
	work.Create("other", fields, false)
	c.Put(columnar.NewEmptyTable("swap", fields))
	winner, _ := c.Table("swap")
	var ce *ConflictError
	if err := c.Publish(base, work, nil); !errors.As(err, &ce) || ce.Table != "swap" {
		t.Fatalf("got %v, want a conflict on swap", err)
	}
	if s, _ := c.Table("swap"); s != winner {
		t.Error("conflicting publish replaced the winner's table")
	}
	if _, ok := c.Table("other"); ok {
		t.Error("conflicting publish applied part of its changes")
	}

	// Both create the same name: conflict too.
	base = c.Tables()
	work = Clone(base)
	work.Create("dup", fields, false)
	c.Create("dup", fields, false)
	if err := c.Publish(base, work, nil); !errors.As(err, &ce) {
		t.Errorf("two creates of one name: got %v, want a conflict", err)
	}

	// A table read with a locking read and changed by another session is
	// a conflict too, though the transaction did not change it; one the
	// transaction neither changed nor locked is not.
	base = c.Tables()
	work = Clone(base)
	work.Create("mine", fields, false)
	c.Put(columnar.NewEmptyTable("keep", fields))
	if err := c.Publish(base, work, map[string]bool{"keep": true}); !errors.As(err, &ce) || ce.Table != "keep" || !ce.Read || !strings.Contains(err.Error(), "FOR UPDATE") {
		t.Errorf("locked table changed: got %v, want a conflict on keep", err)
	}
	if _, ok := c.Table("mine"); ok {
		t.Error("a conflicting publish created its table")
	}
	base = c.Tables()
	work = Clone(base)
	work.Create("mine", fields, false)
	c.Put(columnar.NewEmptyTable("keep", fields))
	if err := c.Publish(base, work, map[string]bool{"swap": true}); err != nil {
		t.Errorf("unlocked table changed: %v", err)
	}
}
