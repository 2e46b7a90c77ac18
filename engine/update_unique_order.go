package engine

import (
	"slices"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// checkUniqueInOrder fails an UPDATE as InnoDB does when a row, changed in
// the order the statement visits them (ids: its ORDER BY, else the
// table's row order), takes a PRIMARY KEY or UNIQUE key that another row
// holds at that moment: InnoDB checks each row as it writes it, not the
// table at the end. So UPDATE t SET id = id + 1 over ids 1 and 2 fails
// with Duplicate entry '2' for key 't.PRIMARY' (row 1 meets row 2 before
// row 2 moves on), while ... ORDER BY id DESC succeeds: the MySQL manual's
// example in "UPDATE Statement". old is the table before the statement, t
// after it; only keys over a changed column (targets) are checked, the
// others cannot have changed.
func checkUniqueInOrder(old, t *columnar.Table, indexes []catalog.Index, targets, ids []int) error {
	for _, ix := range indexes {
		if !ix.Unique || !slices.ContainsFunc(ix.Columns, func(c int) bool { return slices.Contains(targets, c) }) {
			continue
		}
		held := make(map[string]int, old.Rows)
		for r := range old.Rows {
			if k, ok := ix.KeyOf(old, r); ok {
				held[k]++
			}
		}
		for _, r := range ids {
			if k, ok := ix.KeyOf(old, r); ok {
				held[k]--
			}
			k, ok := ix.KeyOf(t, r)
			if !ok {
				continue
			}
			if held[k] > 0 {
				return catalog.DuplicateError(t, ix, r)
			}
			held[k]++
		}
	}
	return nil
}
