package catalog

import "fmt"

// TableOptions are the table options CREATE TABLE and ALTER TABLE keep
// that are not columns, keys or constraints: the table's COMMENT and its
// default collation, which SHOW CREATE TABLE and
// information_schema.TABLES show as MySQL 8 does, and which a database
// directory keeps with the table.
type TableOptions struct {
	Comment string `json:"comment,omitempty"`
	// Collation is the [DEFAULT] COLLATE the table was given (or ALTER
	// TABLE set), which its string columns named without one take; ""
	// is gpusql's default, utf8mb4_bin.
	Collation string `json:"collation,omitempty"`
	// Created is when CREATE TABLE made the table (Unix microseconds,
	// UTC): SHOW TABLE STATUS's Create_time and information_schema's
	// CREATE_TIME, persisted with the table. 0: not known (a table of an
	// older catalog), shown as NULL.
	Created int64 `json:"created,omitempty"`
}

// Options returns the named table's options (zero when it has none).
func (c *Catalog) Options(table string) TableOptions {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.options[key(table)]
}

// SetOptions replaces the named table's options (ALTER TABLE t COMMENT =
// ..., COLLATE = ...); the table must exist.
func (c *Catalog) SetOptions(table string, o TableOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key(table)]; !ok {
		return fmt.Errorf("table %s does not exist", table)
	}
	if o.Created == 0 {
		o.Created = c.options[key(table)].Created // ALTER TABLE keeps it
	}
	c.setOptions(key(table), o)
	c.version++
	return nil
}

// setOptions stores o under k, keeping no entry for the zero options so
// that State compares and persists only tables that have some.
func (c *Catalog) setOptions(k string, o TableOptions) {
	if o == (TableOptions{}) {
		delete(c.options, k)
		return
	}
	c.options[k] = o
}
