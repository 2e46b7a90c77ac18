package catalog

import (
	"fmt"
	"sort"
	"strings"

	"gpusql/storage/columnar"
)

// FOREIGN KEY constraints, InnoDB's way. A foreign key belongs to its
// (child) table and names the parent table and columns by name, so it
// survives ALTER TABLE's column moves and a parent created later. The
// engine's Finisher enforces them (engine/foreign_keys.go).

// Referential actions (ON DELETE / ON UPDATE).
const (
	NoAction      = "NO ACTION" // the default: as RESTRICT, checked at once
	Restrict      = "RESTRICT"
	CascadeAction = "CASCADE"
	SetNull       = "SET NULL"
)

// ForeignKey is one FOREIGN KEY constraint of a table.
type ForeignKey struct {
	Name       string
	Columns    []string // the child table's columns, in key order
	RefTable   string
	RefColumns []string
	OnDelete   string `json:",omitempty"` // "" is NO ACTION
	OnUpdate   string `json:",omitempty"`
}

// Rule is OnDelete or OnUpdate as information_schema shows it.
func Rule(action string) string {
	if action == "" {
		return NoAction
	}
	return action
}

// Definition is the constraint as SHOW CREATE TABLE and MySQL's errors
// 1451 / 1452 print it.
func (fk ForeignKey) Definition() string {
	s := fmt.Sprintf("CONSTRAINT `%s` FOREIGN KEY (%s) REFERENCES `%s` (%s)", fk.Name, quoteNames(fk.Columns), fk.RefTable, quoteNames(fk.RefColumns))
	if fk.OnDelete != "" && fk.OnDelete != NoAction {
		s += " ON DELETE " + fk.OnDelete
	}
	if fk.OnUpdate != "" && fk.OnUpdate != NoAction {
		s += " ON UPDATE " + fk.OnUpdate
	}
	return s
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// ChildRowError is MySQL's error 1452 (schema db, child table).
func ChildRowError(db, table string, fk ForeignKey) error {
	return &ConstraintError{Code: 1452, Msg: fmt.Sprintf("Cannot add or update a child row: a foreign key constraint fails (`%s`.`%s`, %s)", db, table, fk.Definition())}
}

// ParentRowError is MySQL's error 1451.
func ParentRowError(db, table string, fk ForeignKey) error {
	return &ConstraintError{Code: 1451, Msg: fmt.Sprintf("Cannot delete or update a parent row: a foreign key constraint fails (`%s`.`%s`, %s)", db, table, fk.Definition())}
}

// ForeignKeys returns the named table's foreign keys.
func (c *Catalog) ForeignKeys(table string) []ForeignKey {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]ForeignKey(nil), c.foreignKeys[key(table)]...)
}

// Reference is a foreign key of table Child that names a parent.
type Reference struct {
	Child string
	Key   ForeignKey
}

// ReferencesTo lists the foreign keys (of any table, the parent's own
// included) that reference parent, by child name then key name.
func (c *Catalog) ReferencesTo(parent string) []Reference {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []Reference
	for k, list := range c.foreignKeys {
		t, ok := c.tables[k]
		if !ok {
			continue
		}
		for _, fk := range list {
			if strings.EqualFold(fk.RefTable, parent) {
				out = append(out, Reference{Child: t.Name, Key: fk})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Child != out[j].Child {
			return out[i].Child < out[j].Child
		}
		return out[i].Key.Name < out[j].Key.Name
	})
	return out
}

// ForeignKeyNameTaken reports whether a foreign key of that name exists:
// like CHECK constraints, their names are unique in a schema.
func (c *Catalog) ForeignKeyNameTaken(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, list := range c.foreignKeys {
		for _, fk := range list {
			if strings.EqualFold(fk.Name, name) {
				return true
			}
		}
	}
	return false
}

// AddForeignKey is ALTER TABLE ... ADD FOREIGN KEY: the rows already there
// must satisfy it (checked by the finisher unless opts turn checks off);
// ix, when set, is the index MySQL adds on the child columns.
func (c *Catalog) AddForeignKey(table string, fk ForeignKey, ix *Index, opts FinishOptions) error {
	return c.withWriter(table, func() error {
		t, ok := c.Table(table)
		if !ok {
			return fmt.Errorf("table %s does not exist", table)
		}
		if c.ForeignKeyNameTaken(fk.Name) {
			return &ConstraintError{Code: 1826, Msg: fmt.Sprintf("Duplicate foreign key constraint name '%s'", fk.Name)}
		}
		c.mu.Lock()
		before, beforeIx := c.foreignKeys[key(table)], c.indexes[key(table)]
		c.foreignKeys[key(table)] = append(append([]ForeignKey(nil), before...), fk)
		if ix != nil {
			c.indexes[key(table)] = sortIndexes(t.Fields, append(append([]Index(nil), beforeIx...), *ix))
		}
		c.mu.Unlock()
		// No old snapshot: every row is checked against the new key.
		if _, _, err := c.finish(opts, nil, t); err != nil {
			c.mu.Lock()
			c.foreignKeys[key(table)], c.indexes[key(table)] = before, beforeIx
			c.mu.Unlock()
			return err
		}
		c.mu.Lock()
		c.version++
		c.mu.Unlock()
		return nil
	})
}

// DropForeignKey is ALTER TABLE ... DROP FOREIGN KEY name (its index
// stays, as in MySQL).
func (c *Catalog) DropForeignKey(table, name string) error {
	return c.withWriter(table, func() error {
		c.mu.Lock()
		defer c.mu.Unlock()
		list := c.foreignKeys[key(table)]
		for i, fk := range list {
			if strings.EqualFold(fk.Name, name) {
				c.foreignKeys[key(table)] = append(list[:i:i], list[i+1:]...)
				c.version++
				return nil
			}
		}
		return &ConstraintError{Code: 1091, Msg: fmt.Sprintf("Can't DROP '%s'; check that column/key exists", name)}
	})
}

// renameReferences makes the foreign keys that name table from name to
// instead (RENAME TABLE); c.mu is held.
func (c *Catalog) renameReferences(from, to string) {
	for k, list := range c.foreignKeys {
		changed := false
		out := append([]ForeignKey(nil), list...)
		for i := range out {
			if strings.EqualFold(out[i].RefTable, from) {
				out[i].RefTable, changed = to, true
			}
		}
		if changed {
			c.foreignKeys[k] = out
		}
	}
}

// renameConstraints gives the constraints of table k (renamed from to to)
// named from_chk_N or from_ibfk_N the new table's prefix, as MySQL's
// RENAME TABLE does; c.mu is held.
func (c *Catalog) renameConstraints(k, from, to string) {
	rename := func(name, infix string) string {
		prefix := from + infix
		if len(name) > len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
			return to + infix + name[len(prefix):]
		}
		return name
	}
	checks := append([]Check(nil), c.checks[k]...)
	for i := range checks {
		checks[i].Name = rename(checks[i].Name, "_chk_")
	}
	c.checks[k] = checks
	fks := append([]ForeignKey(nil), c.foreignKeys[k]...)
	for i := range fks {
		fks[i].Name = rename(fks[i].Name, "_ibfk_")
	}
	c.foreignKeys[k] = fks
}

// foreignKeyIndexLost is MySQL's error 1553 when dropping index name of t
// (leaving rest) leaves a foreign key of t, or one referencing t, without
// an index its columns lead; c.mu is held.
func (c *Catalog) foreignKeyIndexLost(t *columnar.Table, name string, rest []Index) error {
	led := func(cols []string) bool {
		for _, ix := range rest {
			if len(ix.Columns) < len(cols) {
				continue
			}
			match := true
			for i, col := range cols {
				match = match && strings.EqualFold(t.Fields[ix.Columns[i]].Name, col)
			}
			if match {
				return true
			}
		}
		return false
	}
	lost := &ConstraintError{Code: 1553, Msg: fmt.Sprintf("Cannot drop index '%s': needed in a foreign key constraint", name)}
	for _, fk := range c.foreignKeys[key(t.Name)] {
		if !led(fk.Columns) {
			return lost
		}
	}
	for _, list := range c.foreignKeys {
		for _, fk := range list {
			if strings.EqualFold(fk.RefTable, t.Name) && !led(fk.RefColumns) {
				return lost
			}
		}
	}
	return nil
}
