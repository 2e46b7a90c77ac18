package catalog

import (
	"fmt"
	"sort"

	"gpusql/storage/columnar"
)

// UpdateTables is Update for a statement that changes several tables at
// once (a multi-table UPDATE or DELETE): change gets the current snapshot
// of each named table (names distinct, in the order given) and returns
// their next snapshots in the same order. The writer locks are taken in
// name order, so two such statements cannot deadlock, and the snapshots are
// committed together: if change fails, or any next snapshot repeats a key
// of a unique index, no table changes.
func (c *Catalog) UpdateTables(tables []string, change func(old []*columnar.Table) ([]*columnar.Table, error)) error {
	return c.UpdateTablesWith(tables, FinishOptions{}, change)
}

// UpdateTablesWith is UpdateTables under a statement's settings
// (finish.go).
func (c *Catalog) UpdateTablesWith(tables []string, opts FinishOptions, change func(old []*columnar.Table) ([]*columnar.Table, error)) error {
	order := append([]string(nil), tables...)
	sort.Slice(order, func(i, j int) bool { return key(order[i]) < key(order[j]) })
	for i := 1; i < len(order); i++ {
		if key(order[i]) == key(order[i-1]) {
			return fmt.Errorf("internal error: table %s named twice in one change", order[i])
		}
	}
	for _, name := range order {
		c.mu.RLock()
		w, ok := c.writers[key(name)]
		c.mu.RUnlock()
		if !ok {
			return fmt.Errorf("table %s does not exist", name)
		}
		w.Lock()
		defer w.Unlock()
	}
	old := make([]*columnar.Table, len(tables))
	for i, name := range tables {
		t, ok := c.Table(name)
		if !ok {
			return fmt.Errorf("table %s does not exist", name)
		}
		if err := t.Verify(); err != nil {
			return err
		}
		old[i] = t
	}
	next, err := change(old)
	if err != nil {
		return err
	}
	for i, name := range tables {
		if next[i], err = c.finishAlone(opts, old[i], next[i]); err != nil {
			return err
		}
		if err := checkUnique(next[i], c.Indexes(name)); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, name := range tables {
		if c.tables[key(name)] != old[i] {
			return fmt.Errorf("table %s was dropped or replaced during the statement", name)
		}
	}
	for i, name := range tables {
		c.tables[key(name)] = next[i]
		c.dropRemaps(name, next[i])
	}
	c.version++
	return nil
}
