package catalog

import (
	"fmt"
	"sort"
	"sync"

	"gpusql/storage/columnar"
)

// A transaction works on a private Clone of the catalog taken at BEGIN:
// its statements change the clone exactly as autocommit statements change
// the shared catalog (snapshots swapped, never mutated), so the other
// sessions never see its uncommitted tables, ROLLBACK simply drops the
// clone, and COMMIT publishes the tables it changed. Two transactions may
// change the same table concurrently; the first to commit wins and the
// second's COMMIT fails with a ConflictError, applying nothing (snapshot
// isolation, first committer wins).

// Tables returns the current snapshot of every table, by lower-cased name.
func (c *Catalog) Tables() map[string]*columnar.Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make(map[string]*columnar.Table, len(c.tables))
	for k, t := range c.tables {
		out[k] = t
	}
	return out
}

// Clone returns a private catalog holding the given snapshots (from Tables).
func Clone(tables map[string]*columnar.Table) *Catalog {
	c := New()
	for k, t := range tables {
		c.tables[k] = t
		c.writers[k] = &sync.Mutex{}
	}
	return c
}

// CopyIndexes gives c's tables the indexes, CHECK and FOREIGN KEY constraints and options src has
// for them, and src's finisher, so a transaction's clone enforces the same
// keys and constraints (and INSERT ... ON DUPLICATE KEY UPDATE and REPLACE
// find the same conflicts) as the shared catalog.
func (c *Catalog) CopyIndexes(src *Catalog) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.tables {
		if ix := src.Indexes(k); len(ix) > 0 {
			c.indexes[k] = ix
		}
		if cks := src.Checks(k); len(cks) > 0 {
			c.checks[k] = cks
		}
		if fks := src.ForeignKeys(k); len(fks) > 0 {
			c.foreignKeys[k] = fks
		}
		// The table options too, so that SHOW CREATE TABLE and a column
		// ALTER TABLE adds read them inside a transaction.
		c.setOptions(k, src.Options(k))
	}
	src.mu.RLock()
	c.finisher = src.finisher
	src.mu.RUnlock()
}

// ConflictError is a COMMIT that lost to another session's change of a
// table both changed.
// Read: the table was only read, with a locking read.
type ConflictError struct {
	Table string
	Read  bool
}

func (e *ConflictError) Error() string {
	how := ""
	if e.Read {
		how = ", read FOR UPDATE or FOR SHARE,"
	}
	return fmt.Sprintf("transaction conflict: table %s%s was changed by another session after this transaction began; nothing was committed (retry the transaction)", e.Table, how)
}

// Publish applies the changes work made relative to base (the snapshots it
// was cloned from) to c: changed and created tables are swapped in, dropped
// ones removed. Either every change is applied or, when c no longer holds
// base's snapshot of a table work changed or of a table in locked (the
// lower-cased names the transaction read with FOR UPDATE or FOR SHARE),
// none is and the error is a *ConflictError.
func (c *Catalog) Publish(base map[string]*columnar.Table, work *Catalog, locked map[string]bool) error {
	after := work.Tables()
	changed := map[string]bool{}
	for k, t := range after {
		if base[k] != t {
			changed[k] = true
		}
	}
	for k := range base {
		if _, ok := after[k]; !ok {
			changed[k] = true
		}
	}
	// The changed tables' writer locks first, in name order as
	// UpdateTables takes them: a statement running outside the
	// transaction finishes before the commit swaps its table (which the
	// commit then sees as a conflict), instead of failing because its
	// table was replaced under it.
	names := make([]string, 0, len(changed))
	for k := range changed {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		c.mu.RLock()
		w, ok := c.writers[k]
		c.mu.RUnlock()
		if ok {
			w.Lock()
			defer w.Unlock()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range locked {
		if _, ok := base[k]; ok && c.tables[k] != base[k] && !changed[k] {
			return &ConflictError{Table: base[k].Name, Read: true}
		}
	}
	for k := range changed {
		if c.tables[k] != base[k] {
			name := k
			if t := after[k]; t != nil {
				name = t.Name
			} else if t := base[k]; t != nil {
				name = t.Name
			}
			return &ConflictError{Table: name}
		}
	}
	for k := range changed {
		if t, ok := after[k]; ok {
			c.tables[k] = t
			c.dropRemaps(k, t)
			if _, ok := c.writers[k]; !ok {
				c.writers[k] = &sync.Mutex{}
			}
		} else {
			delete(c.tables, k)
			delete(c.writers, k)
		}
	}
	if len(changed) > 0 {
		c.version++
	}
	return nil
}
