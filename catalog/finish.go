package catalog

import (
	"fmt"
	"sort"
	"time"

	"gpusql/storage/columnar"
)

// Every snapshot a statement builds goes through the engine's Finisher
// before it is committed: generated columns are computed, CHECK
// constraints and foreign keys checked, and ON DELETE / ON UPDATE CASCADE
// and SET NULL turned into changes of the referencing tables (Cascades),
// which commit together with the snapshot or not at all.

// FinishOptions are the statement's settings the Finisher obeys.
type FinishOptions struct {
	// NoForeignKeyChecks is SET foreign_key_checks = 0: foreign keys are
	// neither checked nor cascaded.
	NoForeignKeyChecks bool
	// InPlace says the statement changes rows where they are (UPDATE, ON
	// DUPLICATE KEY UPDATE): the new snapshot's first rows are the old
	// ones, so a changed key is an update of that row (ON UPDATE), not a
	// deletion (ON DELETE).
	InPlace bool
	// Deleted, when set, lists rows of the old snapshot the statement
	// deleted even where new rows take their keys (REPLACE): their
	// children see a DELETE (called after the change has run).
	Deleted func() []int
	// Appended says the new snapshot is the old one's rows, unchanged,
	// followed by new ones (INSERT, LOAD DATA): what is computed from a
	// row (generated columns) is computed for the new rows only.
	Appended bool
}

// Cascade is a change a snapshot makes to another table: Next replaces
// Base, the table's snapshot it was computed from.
type Cascade struct {
	Table      string
	Base, Next *columnar.Table
}

// Finisher completes next, the snapshot a statement built from old, and
// rejects one that breaks a constraint of its table in catalog c (a
// transaction's clone or the shared catalog). It returns the snapshot to
// commit and the changes it cascades into other tables.
type Finisher func(c *Catalog, opts FinishOptions, old, next *columnar.Table) (*columnar.Table, []Cascade, error)

// SetFinisher installs the function every snapshot goes through before it
// is committed.
func (c *Catalog) SetFinisher(f Finisher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finisher = f
}

// finish runs the finisher, when one is installed.
func (c *Catalog) finish(opts FinishOptions, old, next *columnar.Table) (*columnar.Table, []Cascade, error) {
	c.mu.RLock()
	f := c.finisher
	c.mu.RUnlock()
	if f == nil {
		return next, nil, nil
	}
	return f(c, opts, old, next)
}

// finishAlone is finish for a change that cannot carry cascades (several
// tables changed at once, ALTER TABLE).
func (c *Catalog) finishAlone(opts FinishOptions, old, next *columnar.Table) (*columnar.Table, error) {
	next, cascades, err := c.finish(opts, old, next)
	if err == nil && len(cascades) > 0 {
		err = fmt.Errorf("unsupported: ON DELETE / ON UPDATE CASCADE or SET NULL into %s from this statement (change the parent table in a single-table statement)", cascades[0].Table)
	}
	return next, err
}

// lockCascades takes the writer locks of the tables cascades change (the
// statement's own table, whose lock the caller holds, excluded) and
// returns the function that releases them. Another statement may hold one
// while it waits for the caller's table, so a lock not free within a
// while fails the statement instead of waiting for ever.
func (c *Catalog) lockCascades(own string, cascades []Cascade) (func(), error) {
	var names []string
	for _, cs := range cascades {
		if key(cs.Table) != key(own) {
			names = append(names, key(cs.Table))
		}
	}
	sort.Strings(names)
	var held []func()
	release := func() {
		for _, u := range held {
			u()
		}
	}
	for i, k := range names {
		if i > 0 && names[i-1] == k {
			continue
		}
		c.mu.RLock()
		w, ok := c.writers[k]
		c.mu.RUnlock()
		if !ok {
			release()
			return nil, fmt.Errorf("table %s does not exist", k)
		}
		deadline := time.Now().Add(2 * time.Second)
		for !w.TryLock() {
			if time.Now().After(deadline) {
				release()
				return nil, fmt.Errorf("table %s, which a foreign key cascades into, is being changed by another statement; nothing was changed (run the statement again)", k)
			}
			time.Sleep(time.Millisecond)
		}
		held = append(held, w.Unlock)
	}
	return release, nil
}

// commitCascades checks the cascaded snapshots' unique keys and that their
// tables still hold the snapshots they were computed from; c.mu is held.
func (c *Catalog) checkCascades(cascades []Cascade) error {
	for _, cs := range cascades {
		if c.tables[key(cs.Table)] != cs.Base {
			return fmt.Errorf("table %s changed during the statement; nothing was changed (run it again)", cs.Table)
		}
		if err := checkUnique(cs.Next, c.indexes[key(cs.Table)]); err != nil {
			return err
		}
	}
	return nil
}
