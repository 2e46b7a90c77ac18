package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// Index is a named index of a table (PRIMARY KEY, UNIQUE, or a plain KEY).
// Indexes are metadata: queries scan columns as they always do. Unique ones
// (the primary key included) are constraints, enforced on every snapshot a
// statement commits.
type Index struct {
	Name    string
	Columns []int // field indexes, in key order
	Unique  bool
	Primary bool
	// Comment is the index's COMMENT 'text' (KEY i (a) COMMENT 'x',
	// CREATE INDEX ... COMMENT 'x'), which MySQL keeps and shows in SHOW
	// CREATE TABLE, SHOW INDEX and information_schema.STATISTICS.
	Comment string `json:",omitempty"`
	// Desc marks the key parts written DESC (KEY i (a DESC)), nil where
	// none is: MySQL 8 keeps the order, SHOW CREATE TABLE writes it and
	// SHOW INDEX / STATISTICS give their Collation 'D'. gpusql's indexes
	// find the same rows either way.
	Desc []bool `json:",omitempty"`
	// SubPart is the prefix length of each key part written with one
	// (KEY i (c(10))), 0 for a whole column; nil where none has one.
	// MySQL shows it in SHOW CREATE TABLE, SHOW INDEX's Sub_part and
	// STATISTICS.SUB_PART, and a UNIQUE key compares only the prefix
	// (KeyOf): UNIQUE (c(3)) refuses 'abce' beside 'abcd'.
	SubPart []int `json:",omitempty"`
}

// Prefix is key part k's prefix length, 0 for a whole column.
func (ix Index) Prefix(k int) int {
	if k < len(ix.SubPart) {
		return ix.SubPart[k]
	}
	return 0
}

// Collation is SHOW INDEX's Collation of key part k: 'A' ascending, 'D'
// descending.
func (ix Index) Collation(k int) string {
	if k < len(ix.Desc) && ix.Desc[k] {
		return "D"
	}
	return "A"
}

// PrimaryName is MySQL's name of the primary key.
const PrimaryName = "PRIMARY"

// sortIndexes orders a table's indexes as MySQL keeps them (sort_keys in
// sql_table.cc): the PRIMARY KEY, then UNIQUE keys whose columns are all
// NOT NULL, then the other UNIQUE keys, then plain keys, each group in the
// order the keys were defined. SHOW CREATE TABLE, SHOW INDEX and
// information_schema.STATISTICS list them so, and InnoDB checks unique keys
// in that order, which decides the key a duplicate-entry error names when a
// row repeats several.
func sortIndexes(fields []columnar.Field, list []Index) []Index {
	rank := func(ix Index) int {
		switch {
		case ix.Primary:
			return 0
		case !ix.Unique:
			return 3
		}
		for _, c := range ix.Columns {
			if fields[c].Nullable {
				return 2
			}
		}
		return 1
	}
	slices.SortStableFunc(list, func(a, b Index) int { return rank(a) - rank(b) })
	return list
}

// Indexes returns the named table's indexes.
func (c *Catalog) Indexes(table string) []Index {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]Index(nil), c.indexes[key(table)]...)
}

// FindIndex returns the index of a table by name (case-insensitive).
func (c *Catalog) FindIndex(table, name string) (Index, bool) {
	for _, ix := range c.Indexes(table) {
		if strings.EqualFold(ix.Name, name) {
			return ix, true
		}
	}
	return Index{}, false
}

// CreateIndex adds an index to a table. A unique index over rows that
// already repeat a key fails with the duplicate, adding nothing.
func (c *Catalog) CreateIndex(table string, ix Index, ifNotExists bool) error {
	return c.withWriter(table, func() error {
		t, ok := c.Table(table)
		if !ok {
			return fmt.Errorf("table %s does not exist", table)
		}
		if _, dup := c.FindIndex(table, ix.Name); dup {
			if ifNotExists {
				return nil
			}
			return &ConstraintError{Code: 1061, Msg: fmt.Sprintf("Duplicate key name '%s'", ix.Name)} // ER_DUP_KEYNAME
		}
		if ix.Primary {
			for _, o := range c.Indexes(table) {
				if o.Primary {
					return fmt.Errorf("multiple primary key defined on table %s", t.Name)
				}
			}
		}
		if err := checkUnique(t, []Index{ix}); err != nil {
			return err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.indexes[key(table)] = sortIndexes(t.Fields, append(slices.Clone(c.indexes[key(table)]), ix))
		c.version++
		return nil
	})
}

// DropIndex removes an index from a table.
func (c *Catalog) DropIndex(table, name string, ifExists bool) error {
	return c.withWriter(table, func() error {
		c.mu.Lock()
		defer c.mu.Unlock()
		list := c.indexes[key(table)]
		for i, ix := range list {
			if strings.EqualFold(ix.Name, name) {
				rest := append(list[:i:i], list[i+1:]...)
				if t, ok := c.tables[key(table)]; ok && !autoKeyed(t.Fields, rest) {
					return &ConstraintError{Code: 1075, Msg: ErrAutoKey, // ER_WRONG_AUTO_KEY
						Detail: fmt.Sprintf("dropping %s leaves AUTO_INCREMENT column '%s' of %s without a key", ix.Name, t.Fields[ix.Columns[0]].Name, table)}
				}
				if t, ok := c.tables[key(table)]; ok {
					if err := c.foreignKeyIndexLost(t, ix.Name, rest); err != nil {
						return err
					}
				}
				c.indexes[key(table)] = rest
				c.version++
				return nil
			}
		}
		if ifExists {
			return nil
		}
		return &ConstraintError{Code: 1091, Msg: fmt.Sprintf("Can't DROP '%s'; check that column/key exists", name)} // ER_CANT_DROP_FIELD_OR_KEY
	})
}

// withWriter runs f holding the table's writer lock.
func (c *Catalog) withWriter(table string, f func() error) error {
	c.mu.RLock()
	w, ok := c.writers[key(table)]
	c.mu.RUnlock()
	if !ok {
		return fmt.Errorf("table %s does not exist", table)
	}
	w.Lock()
	defer w.Unlock()
	return f()
}

// checkUnique fails with MySQL's duplicate-key error when two rows of t
// share a key of one of the unique indexes. Rows with a NULL key column
// never conflict (MySQL allows repeated NULLs in a UNIQUE index).
func checkUnique(t *columnar.Table, indexes []Index) error {
	for _, ix := range indexes {
		if !ix.Unique {
			continue
		}
		seen := make(map[string]int, t.Rows)
		for r := 0; r < t.Rows; r++ {
			k, ok := ix.KeyOf(t, r)
			if !ok {
				continue
			}
			if _, dup := seen[k]; dup {
				return DuplicateError(t, ix, r)
			}
			seen[k] = r
		}
	}
	return nil
}

// DuplicateKeyError is MySQL's error for a repeated key (ER_DUP_ENTRY):
// Duplicate entry '1-x' for key 't.PRIMARY'.
type DuplicateKeyError struct {
	Entry string // the key's values joined by '-'
	Key   string // table.index
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("Duplicate entry '%s' for key '%s'", e.Entry, e.Key)
}

// DuplicateError is the DuplicateKeyError of row's key in ix.
func DuplicateError(t *columnar.Table, ix Index, row int) error {
	vals := make([]string, len(ix.Columns))
	for i, c := range ix.Columns {
		vals[i] = exec.FormatValue(t.Columns[c], row)
		if p := ix.Prefix(i); p > 0 && t.Columns[c].Type.ID == columnar.String {
			vals[i] = cutPrefix(vals[i], p, t.Columns[c].Type.Binary) // MySQL names the prefix: 'abc'
		}
	}
	return &DuplicateKeyError{Entry: strings.Join(vals, "-"), Key: t.Name + "." + ix.Name}
}

// KeyOf encodes row r's values of columns cols as a map key; ok is false
// when one of them is NULL. Strings encode their text (codes of two
// snapshots' dictionaries differ) or, in a column of a case-insensitive
// collation, its collation key (so 'a' and 'A' are one key, as in MySQL);
// doubles their bits with -0 as 0.
func KeyOf(t *columnar.Table, cols []int, r int) (string, bool) {
	b, ok := AppendKey(nil, t, cols, r)
	return string(b), ok
}

// KeyOf is row r's key in ix: KeyOf of its columns, with a key part of
// a prefix length (UNIQUE (c(3))) cut to it, as MySQL compares a prefix
// key: 'abcd' and 'abce' are one key of UNIQUE (c(3)), Duplicate entry
// 'abc' for key 't.c'.
func (ix Index) KeyOf(t *columnar.Table, r int) (string, bool) {
	b, ok := appendKey(nil, t, ix.Columns, ix.SubPart, r)
	return string(b), ok
}

// cutPrefix is s's first n characters (bytes for a binary string), as a
// prefix key part holds it.
func cutPrefix(s string, n int, binary bool) string {
	if binary {
		return s[:min(n, len(s))]
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// AppendKey appends KeyOf's encoding of row r to b, so a caller probing a
// map (m[string(b)]) need not allocate a string per row.
func AppendKey(b []byte, t *columnar.Table, cols []int, r int) ([]byte, bool) {
	return appendKey(b, t, cols, nil, r)
}

// appendKey is AppendKey with key part k's string cut to prefix[k]
// characters where that is above 0.
func appendKey(b []byte, t *columnar.Table, cols, prefix []int, r int) ([]byte, bool) {
	for k, ci := range cols {
		c := t.Columns[ci]
		if c.IsNull(r) {
			return b, false
		}
		switch {
		case c.Type.ID == columnar.String:
			s := c.StringAt(r)
			if k < len(prefix) && prefix[k] > 0 {
				s = cutPrefix(s, prefix[k], c.Type.Binary)
			}
			if ci < len(t.Fields) && t.Fields[ci].Collation != "" {
				s = columnar.CollationKey(t.Fields[ci].Collation, s)
			}
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		case c.Type.ID == columnar.Vector:
			b = columnar.FormatVector(b, c.VectorAt(r))
			b = append(b, 0)
		case c.F64 != nil:
			f := c.F64[r]
			if f == 0 {
				f = 0
			}
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		default:
			b = binary.LittleEndian.AppendUint64(b, uint64(c.Int64At(r)))
		}
	}
	return b, true
}
