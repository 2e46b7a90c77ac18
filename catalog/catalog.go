// Package catalog keeps the database's tables. Tables are immutable snapshots
// (columnar.Table); a statement that changes a table builds a new snapshot and
// commits it with Swap, so concurrent readers keep the snapshot they started
// with and a failed statement leaves the old one in place.
package catalog

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"gpusql/storage/columnar"
)

// Catalog maps lower-cased table names to their current snapshot.
type Catalog struct {
	mu     sync.RWMutex
	tables map[string]*columnar.Table
	// writers serializes statements that change the same table.
	writers map[string]*sync.Mutex
	// indexes are each table's indexes (index.go).
	indexes map[string][]Index
	// views are the named queries (view.go).
	views map[string]View
	// remaps are remapped columns, per table and column (remap.go).
	remaps map[string]map[string]*columnar.ColumnRemap
	// counters are the AUTO_INCREMENT counters (auto_increment.go).
	counters map[string]*AutoCounter
	// checks are each table's CHECK constraints, finisher the engine's
	// function that computes generated columns and enforces them
	// (check.go).
	checks   map[string][]Check
	finisher Finisher
	// foreignKeys are each (child) table's FOREIGN KEY constraints
	// (foreign_key.go).
	foreignKeys map[string][]ForeignKey
	// options are each table's COMMENT and default collation
	// (table_options.go).
	options map[string]TableOptions
	version uint64
}

// New returns an empty catalog.
func New() *Catalog {
	return &Catalog{tables: map[string]*columnar.Table{}, writers: map[string]*sync.Mutex{}, indexes: map[string][]Index{}, views: map[string]View{}, checks: map[string][]Check{}, foreignKeys: map[string][]ForeignKey{}, options: map[string]TableOptions{}}
}

func key(name string) string { return strings.ToLower(name) }

// Table returns the current snapshot of the named table.
func (c *Catalog) Table(name string) (*columnar.Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.tables[key(name)]
	return t, ok
}

// Names lists the tables in name order.
func (c *Catalog) Names() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	names := make([]string, 0, len(c.tables))
	for _, t := range c.tables {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// Create adds an empty table; it fails if the name is taken unless ifNotExists.
func (c *Catalog) Create(name string, fields []columnar.Field, ifNotExists bool) error {
	return c.CreateIndexed(name, fields, nil, ifNotExists)
}

// CreateIndexed is Create with the table's indexes (PRIMARY KEY, UNIQUE and
// KEY clauses of CREATE TABLE).
func (c *Catalog) CreateIndexed(name string, fields []columnar.Field, indexes []Index, ifNotExists bool) error {
	return c.CreateDefined(TableDef{Name: name, Fields: fields, Indexes: indexes}, ifNotExists)
}

// TableDef is everything CREATE TABLE defines besides the rows.
type TableDef struct {
	Name        string
	Fields      []columnar.Field
	Indexes     []Index
	Checks      []Check
	ForeignKeys []ForeignKey
	Options     TableOptions
}

// CreateDefined is Create with the table's indexes and constraints.
func (c *Catalog) CreateDefined(def TableDef, ifNotExists bool) error {
	name, fields, indexes := def.Name, def.Fields, def.Indexes
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key(name)]; ok {
		if ifNotExists {
			return nil
		}
		return TableExistsError(name)
	}
	if _, ok := c.views[key(name)]; ok {
		return TableExistsError(name)
	}
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[key(f.Name)] {
			return fmt.Errorf("table %s: duplicate column %s", name, f.Name)
		}
		seen[key(f.Name)] = true
	}
	for _, ix := range indexes {
		for _, col := range ix.Columns {
			if col < 0 || col >= len(fields) {
				return fmt.Errorf("table %s: index %s names column %d of %d", name, ix.Name, col, len(fields))
			}
		}
	}
	c.tables[key(name)] = columnar.NewEmptyTable(name, fields)
	c.writers[key(name)] = &sync.Mutex{}
	c.dropCounter(key(name))
	c.indexes[key(name)] = sortIndexes(fields, append([]Index(nil), indexes...))
	c.checks[key(name)] = append([]Check(nil), def.Checks...)
	c.foreignKeys[key(name)] = append([]ForeignKey(nil), def.ForeignKeys...)
	opts := def.Options
	if opts.Created == 0 {
		opts.Created = time.Now().UnixMicro()
	}
	c.setOptions(key(name), opts)
	c.version++
	return nil
}

// Put adds or replaces a whole table (CREATE TABLE AS, generated data).
func (c *Catalog) Put(t *columnar.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.writers[key(t.Name)]; !ok {
		c.writers[key(t.Name)] = &sync.Mutex{}
	}
	c.tables[key(t.Name)] = t
	delete(c.indexes, key(t.Name))
	delete(c.checks, key(t.Name))
	delete(c.foreignKeys, key(t.Name))
	c.options[key(t.Name)] = TableOptions{Created: time.Now().UnixMicro()} // a new table's
	c.dropCounter(key(t.Name))
	c.dropRemaps(t.Name, nil)
	c.version++
}

// Drop removes a table; it fails if it does not exist unless ifExists.
func (c *Catalog) Drop(name string, ifExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key(name)]; !ok {
		if ifExists {
			return nil
		}
		return fmt.Errorf("table %s does not exist", name)
	}
	delete(c.tables, key(name))
	delete(c.writers, key(name))
	delete(c.indexes, key(name))
	delete(c.checks, key(name))
	delete(c.foreignKeys, key(name))
	delete(c.options, key(name))
	c.dropCounter(key(name))
	c.dropRemaps(name, nil)
	c.version++
	return nil
}

// Update runs change on the current snapshot of the named table while holding
// the table's writer lock, and commits the snapshot change returns. If change
// fails, or the snapshot repeats a key of a unique index or breaks another
// constraint, nothing is committed and the table is exactly as it was.
func (c *Catalog) Update(name string, change func(old *columnar.Table) (*columnar.Table, error)) error {
	return c.UpdateWith(name, FinishOptions{}, change)
}

// UpdateWith is Update under a statement's settings (finish.go); changes
// the snapshot cascades into other tables commit with it.
func (c *Catalog) UpdateWith(name string, opts FinishOptions, change func(old *columnar.Table) (*columnar.Table, error)) error {
	c.mu.RLock()
	w, ok := c.writers[key(name)]
	c.mu.RUnlock()
	if !ok {
		return fmt.Errorf("table %s does not exist", name)
	}
	w.Lock()
	defer w.Unlock()
	old, ok := c.Table(name)
	if !ok {
		return fmt.Errorf("table %s does not exist", name)
	}
	// A change copies the old rows into the new snapshot: a column of a
	// database file that fails its checksum must stop it, not be written
	// back under a fresh checksum.
	if err := old.Verify(); err != nil {
		return err
	}
	next, err := change(old)
	if err != nil {
		return err
	}
	next, cascades, err := c.finish(opts, old, next)
	if err != nil {
		return err
	}
	if err := checkUnique(next, c.Indexes(name)); err != nil {
		return err
	}
	release, err := c.lockCascades(name, cascades)
	if err != nil {
		return err
	}
	defer release()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables[key(name)] != old {
		return fmt.Errorf("table %s was dropped or replaced during the statement", name)
	}
	if err := c.checkCascades(cascades); err != nil {
		return err
	}
	c.tables[key(name)] = next
	c.dropRemaps(name, next)
	for _, cs := range cascades {
		c.tables[key(cs.Table)] = cs.Next
		c.dropRemaps(cs.Table, cs.Next)
	}
	c.version++
	return nil
}

// Version changes whenever any table changes (for caches of plans or columns).
func (c *Catalog) Version() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.version
}
