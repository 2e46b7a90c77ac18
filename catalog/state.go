package catalog

import (
	"sync"

	"gpusql/storage/columnar"
)

// State is everything a catalog holds, taken at one instant: what a
// persistent database writes to disk after a statement, and what it puts
// back (Restore) when writing fails, so memory never runs ahead of disk.
type State struct {
	// Tables, Indexes and Views are keyed by lower-cased name.
	Tables  map[string]*columnar.Table
	Indexes map[string][]Index
	Views   map[string]View
	// Checks are the CHECK constraints of the tables that have any,
	// ForeignKeys their FOREIGN KEY constraints.
	Checks      map[string][]Check
	ForeignKeys map[string][]ForeignKey
	// AutoIncrement are the AUTO_INCREMENT counters' next values of the
	// tables that have one above 1 (auto_increment.go).
	AutoIncrement map[string]uint64
	// Options are the COMMENT and default collation of the tables that
	// have any (table_options.go).
	Options map[string]TableOptions
	// Remaps are the remapped columns of each table's snapshot in Tables
	// (remap.go), by lower-cased table name.
	Remaps map[string][]*columnar.ColumnRemap
	// Version is the catalog's Version when the state was taken.
	Version uint64
}

// State returns a consistent copy of the catalog's contents (the tables
// are shared, immutable snapshots).
func (c *Catalog) State() State {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := State{Tables: map[string]*columnar.Table{}, Indexes: map[string][]Index{}, Views: map[string]View{}, Version: c.version}
	for k, t := range c.tables {
		s.Tables[k] = t
	}
	for k, ix := range c.indexes {
		s.Indexes[k] = append([]Index(nil), ix...)
	}
	for k, v := range c.views {
		s.Views[k] = v
	}
	s.Checks = map[string][]Check{}
	for k, list := range c.checks {
		if len(list) > 0 {
			s.Checks[k] = append([]Check(nil), list...)
		}
	}
	s.ForeignKeys = map[string][]ForeignKey{}
	for k, list := range c.foreignKeys {
		if len(list) > 0 {
			s.ForeignKeys[k] = append([]ForeignKey(nil), list...)
		}
	}
	s.Options = map[string]TableOptions{}
	for k, o := range c.options {
		s.Options[k] = o
	}
	s.AutoIncrement = c.counterValues()
	s.Remaps = c.remapValues()
	return s
}

// Restore replaces the catalog's contents with s (a database opened from
// disk, or the last state written when writing a newer one failed). The
// version moves on, so caches keyed by it see a change.
func (c *Catalog) Restore(s State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables = map[string]*columnar.Table{}
	c.indexes = map[string][]Index{}
	c.views = map[string]View{}
	c.checks = map[string][]Check{}
	for k, list := range s.Checks {
		c.checks[k] = append([]Check(nil), list...)
	}
	c.options = map[string]TableOptions{}
	for k, o := range s.Options {
		c.options[k] = o
	}
	c.foreignKeys = map[string][]ForeignKey{}
	for k, list := range s.ForeignKeys {
		c.foreignKeys[k] = append([]ForeignKey(nil), list...)
	}
	for k, t := range s.Tables {
		c.tables[k] = t
		if _, ok := c.writers[k]; !ok {
			c.writers[k] = &sync.Mutex{}
		}
	}
	for k, ix := range s.Indexes {
		c.indexes[k] = append([]Index(nil), ix...)
	}
	for k, v := range s.Views {
		c.views[k] = v
	}
	c.restoreCounters(s.AutoIncrement)
	c.restoreRemaps(s.Remaps)
	c.version++
}
