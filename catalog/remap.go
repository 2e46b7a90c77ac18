package catalog

import (
	"slices"
	"strings"

	"gpusql/storage/columnar"
)

// Remaps kept beside table columns (storage/columnar/remap_column.go). A
// remap is a function of its column's values alone: each entry knows the
// column vector it was built from, and Remap hands it out only for a
// snapshot that still holds that vector with the same rows. A statement
// that changes a table drops the remaps of columns its new snapshot
// replaced (Update, Put and Drop call dropRemaps), so their memory goes
// with the old snapshot. Writes to a dimension table leave the fact
// column's remap valid: the remap says which copy of a key each fact row
// reads, not what the copy holds; the dimension's payloads are loaded into
// the remapped layout by each query from its own snapshot.

// SetRemap keeps r for table t, if t is still the table's current
// snapshot; it reports whether it was kept.
func (c *Catalog) SetRemap(t *columnar.Table, r *columnar.ColumnRemap) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables[key(t.Name)] != t {
		return false
	}
	if c.remaps == nil {
		c.remaps = map[string]map[string]*columnar.ColumnRemap{}
	}
	m := c.remaps[key(t.Name)]
	if m == nil {
		m = map[string]*columnar.ColumnRemap{}
		c.remaps[key(t.Name)] = m
	}
	m[key(r.Column)] = r
	return true
}

// Remap is the remap of column col of snapshot t, nil when it has none.
func (c *Catalog) Remap(t *columnar.Table, col int) *columnar.ColumnRemap {
	if t == nil || col < 0 || col >= len(t.Fields) {
		return nil
	}
	c.mu.RLock()
	r := c.remaps[key(t.Name)][key(t.Fields[col].Name)]
	c.mu.RUnlock()
	if r == nil || !r.Matches(t, col) {
		return nil
	}
	return r
}

// Remaps lists the remaps of the named table's current snapshot.
func (c *Catalog) Remaps(name string) []*columnar.ColumnRemap {
	t, ok := c.Table(name)
	if !ok {
		return nil
	}
	var out []*columnar.ColumnRemap
	for i := range t.Fields {
		if r := c.Remap(t, i); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// dropRemaps forgets the remaps of table name that next (nil: none) no
// longer matches. Called with c.mu held.
func (c *Catalog) dropRemaps(name string, next *columnar.Table) {
	m := c.remaps[key(name)]
	for col, r := range m {
		i := -1
		if next != nil {
			i = columnIndexFold(next, col)
		}
		if i < 0 || !r.Matches(next, i) {
			delete(m, col)
		}
	}
	if len(m) == 0 {
		delete(c.remaps, key(name))
	}
}

func columnIndexFold(t *columnar.Table, name string) int {
	for i, f := range t.Fields {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// remapValues lists the remaps that match their table's current snapshot,
// by table key (State). Call with c.mu held.
func (c *Catalog) remapValues() map[string][]*columnar.ColumnRemap {
	out := map[string][]*columnar.ColumnRemap{}
	for k, m := range c.remaps {
		t := c.tables[k]
		if t == nil {
			continue
		}
		for col, r := range m {
			if i := columnIndexFold(t, col); i >= 0 && r.Matches(t, i) {
				out[k] = append(out[k], r)
			}
		}
	}
	for _, rs := range out {
		slices.SortFunc(rs, func(a, b *columnar.ColumnRemap) int { return strings.Compare(key(a.Column), key(b.Column)) })
	}
	return out
}

// restoreRemaps keeps the remaps of rs that match the restored tables.
// Call with c.mu held.
func (c *Catalog) restoreRemaps(rs map[string][]*columnar.ColumnRemap) {
	c.remaps = nil
	for k, list := range rs {
		t := c.tables[k]
		for _, r := range list {
			if t == nil {
				break
			}
			if i := columnIndexFold(t, r.Column); i < 0 || !r.Matches(t, i) {
				continue
			}
			if c.remaps == nil {
				c.remaps = map[string]map[string]*columnar.ColumnRemap{}
			}
			if c.remaps[k] == nil {
				c.remaps[k] = map[string]*columnar.ColumnRemap{}
			}
			c.remaps[k][key(r.Column)] = r
		}
	}
}

// RemapsMoved reports whether the current remaps differ from those st
// holds: ANALYZE TABLE built some (or a write dropped some) since st was
// written, which changes no table version.
func (c *Catalog) RemapsMoved(st State) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	now := c.remapValues()
	if len(now) != len(st.Remaps) {
		return true
	}
	for k, rs := range now {
		if !slices.Equal(rs, st.Remaps[k]) {
			return true
		}
	}
	return false
}
