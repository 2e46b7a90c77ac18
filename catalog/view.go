package catalog

import (
	"fmt"
	"sort"
)

// View is a named query, kept as SQL text and bound afresh wherever it is
// used (so it sees the tables as they are then, and fails clearly once a
// table it reads is dropped). Views share the table namespace.
type View struct {
	Name string
	// Columns rename the query's columns (CREATE VIEW v (a, b) AS ...);
	// empty keeps the query's names.
	Columns []string
	// SQL is the SELECT, restored from its syntax tree.
	SQL string
	// Temptable: CREATE ALGORITHM=TEMPTABLE VIEW, which MySQL always
	// materializes (its quotients stored at their printed scale:
	// sql/materialized_derived.go); false for UNDEFINED and MERGE.
	Temptable bool `json:",omitempty"`
}

// View returns the named view.
func (c *Catalog) View(name string) (View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.views[key(name)]
	return v, ok
}

// CreateView adds a view, or replaces one of the same name when orReplace.
// A table of the same name is never replaced.
func (c *Catalog) CreateView(v View, orReplace bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key(v.Name)]; ok {
		return TableExistsError(v.Name)
	}
	if _, ok := c.views[key(v.Name)]; ok && !orReplace {
		return TableExistsError(v.Name)
	}
	c.views[key(v.Name)] = v
	c.version++
	return nil
}

// DropView removes a view; it fails if there is none unless ifExists.
func (c *Catalog) DropView(name string, ifExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.views[key(name)]; !ok {
		if ifExists {
			return nil
		}
		if _, isTable := c.tables[key(name)]; isTable {
			return &ConstraintError{Code: 1347, Msg: fmt.Sprintf("'gpusql.%s' is not VIEW", name)} // ER_WRONG_OBJECT
		}
		return &ConstraintError{Code: 1051, Msg: fmt.Sprintf("Unknown table 'gpusql.%s'", name)} // MySQL's ER_BAD_TABLE_ERROR
	}
	delete(c.views, key(name))
	c.version++
	return nil
}

// ViewNames lists the views in name order.
func (c *Catalog) ViewNames() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	names := make([]string, 0, len(c.views))
	for _, v := range c.views {
		names = append(names, v.Name)
	}
	sort.Strings(names)
	return names
}
