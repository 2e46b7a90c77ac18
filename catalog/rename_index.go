package catalog

import (
	"fmt"
	"strings"
)

// RenameIndex renames a table's index, with MySQL's errors: 1176 for a
// name the table has no index of, 1061 for a name another index has, 1280
// for PRIMARY on either side (the primary key keeps its name). Foreign
// keys name the index they use by its columns, so none follows it.
func (c *Catalog) RenameIndex(table, from, to string) error {
	return c.withWriter(table, func() error {
		if strings.EqualFold(from, PrimaryName) || strings.EqualFold(to, PrimaryName) {
			name := from
			if !strings.EqualFold(from, PrimaryName) {
				name = to
			}
			return &ConstraintError{Code: 1280, Msg: fmt.Sprintf("Incorrect index name '%s'", name)} // ER_WRONG_NAME_FOR_INDEX
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		list := c.indexes[key(table)]
		at := -1
		for i, ix := range list {
			switch {
			case strings.EqualFold(ix.Name, from):
				at = i
			case strings.EqualFold(ix.Name, to):
				return &ConstraintError{Code: 1061, Msg: fmt.Sprintf("Duplicate key name '%s'", to)} // ER_DUP_KEYNAME
			}
		}
		if at < 0 {
			return &ConstraintError{Code: 1176, Msg: fmt.Sprintf("Key '%s' doesn't exist in table '%s'", from, table)} // ER_KEY_DOES_NOT_EXITS
		}
		renamed := append([]Index(nil), list...)
		renamed[at].Name = to
		c.indexes[key(table)] = renamed
		c.version++
		return nil
	})
}
