package catalog

import (
	"fmt"
	"slices"
	"strings"

	"gpusql/storage/columnar"
)

// Rename renames tables pair by pair (RENAME TABLE a TO b, c TO d). The
// pairs apply in order, so a TO tmp, b TO a, tmp TO b swaps two tables;
// if any pair fails (a missing source, a taken target) nothing changes.
func (c *Catalog) Rename(from, to []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	tables := map[string]*columnar.Table{}
	for k, t := range c.tables {
		tables[k] = t
	}
	for i := range from {
		t, ok := tables[key(from[i])]
		if !ok {
			return fmt.Errorf("table %s does not exist", from[i])
		}
		if _, taken := tables[key(to[i])]; taken {
			return TableExistsError(to[i])
		}
		if _, taken := c.views[key(to[i])]; taken {
			return TableExistsError(to[i])
		}
		delete(tables, key(from[i]))
		nt := *t
		nt.Name = to[i]
		tables[key(to[i])] = &nt
	}
	// Move writer locks and indexes along the same path.
	for i := range from {
		f, t := key(from[i]), key(to[i])
		if f == t {
			continue
		}
		c.writers[t], c.indexes[t], c.checks[t], c.foreignKeys[t] = c.writers[f], c.indexes[f], c.checks[f], c.foreignKeys[f]
		delete(c.writers, f)
		delete(c.indexes, f)
		delete(c.checks, f)
		delete(c.foreignKeys, f)
		if o, ok := c.options[f]; ok {
			delete(c.options, f)
			c.options[t] = o
		}
		c.renameReferences(from[i], to[i])
		c.renameConstraints(t, from[i], to[i])
		c.moveCounter(f, t)
	}
	c.tables = tables
	c.version++
	return nil
}

// Alter replaces a table's snapshot by next, a rewrite of snapshot with
// other columns (ALTER TABLE ... COLUMN); colMap[i] is old column i's new
// position (-1: dropped). Indexes follow their columns; an index that
// loses a column loses it from its key, and goes when it has none left
// (as MySQL does). It fails if the table changed since snapshot was read.
func (c *Catalog) Alter(name string, snapshot, next *columnar.Table, colMap []int, indexes IndexChanges, addChecks ...Check) error {
	return c.withWriter(name, func() error {
		for _, ck := range addChecks {
			if c.CheckNameTaken(ck.Name) {
				return &ConstraintError{Code: 3822, Msg: fmt.Sprintf("Duplicate check constraint name '%s'.", ck.Name)}
			}
		}
		// The added CHECK constraints hold from this statement on: the
		// finisher checks the rewritten rows against them too.
		before := c.Checks(name)
		if len(addChecks) > 0 {
			c.mu.Lock()
			c.checks[key(name)] = append(append([]Check(nil), before...), addChecks...)
			c.mu.Unlock()
		}
		err := c.alter(name, snapshot, next, colMap, indexes)
		if err != nil && len(addChecks) > 0 {
			c.mu.Lock()
			c.checks[key(name)] = before
			c.mu.Unlock()
		}
		return err
	})
}

// alter is Alter's swap; the caller holds the writer lock.
func (c *Catalog) alter(name string, snapshot, next *columnar.Table, colMap []int, indexes IndexChanges) error {
	var kept []Index
	for _, ix := range c.Indexes(name) {
		if slices.ContainsFunc(indexes.Drop, func(d string) bool { return strings.EqualFold(d, ix.Name) }) {
			continue
		}
		var cols []int
		var desc []bool // the kept parts' DESC marks, in step with cols
		var sub []int   // and their prefix lengths
		for k, col := range ix.Columns {
			if colMap[col] >= 0 {
				cols = append(cols, colMap[col])
				desc = append(desc, ix.Collation(k) == "D")
				sub = append(sub, ix.Prefix(k))
			}
		}
		if len(cols) == 0 {
			continue
		}
		ix.Columns = cols
		if ix.Desc != nil {
			ix.Desc = desc
		}
		if ix.SubPart != nil {
			ix.SubPart = sub
		}
		kept = append(kept, ix)
	}
	for _, ix := range indexes.Add { // their columns are positions in next
		if _, dup := c.FindIndex(name, ix.Name); dup && !slices.ContainsFunc(indexes.Drop, func(d string) bool { return strings.EqualFold(d, ix.Name) }) {
			return &ConstraintError{Code: 1061, Msg: fmt.Sprintf("Duplicate key name '%s'", ix.Name)} // ER_DUP_KEYNAME
		}
		kept = append(kept, ix)
	}
	for _, d := range indexes.Drop {
		c.mu.RLock()
		err := c.foreignKeyIndexLost(next, d, kept)
		c.mu.RUnlock()
		if err != nil {
			return err
		}
	}
	// A changed column type must still satisfy the CHECK
	// constraints (MySQL validates the rebuilt table), and an added
	// generated column gets its values.
	next, err := c.finishAlone(FinishOptions{}, snapshot, next)
	if err != nil {
		return err
	}
	if err := checkUnique(next, kept); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables[key(name)] != snapshot {
		return fmt.Errorf("table %s changed during ALTER TABLE; run it again", name)
	}
	c.tables[key(name)] = next
	c.indexes[key(name)] = sortIndexes(next.Fields, kept)
	c.dropRemaps(name, next)
	c.version++
	return nil
}

// IndexChanges are the indexes an ALTER TABLE adds (columns as positions
// in the new table) and drops (by name), applied with its rewrite.
type IndexChanges struct {
	Add  []Index
	Drop []string
}
