package engine

import (
	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// skipConflicts drops the rows of t from first on (the new rows of an
// INSERT IGNORE) whose key in a PRIMARY KEY or UNIQUE index an earlier row
// holds — an old row or a new one before it — and returns how many it
// dropped. MySQL keeps the first of duplicate new rows and turns each
// skipped one into a warning; a NULL in a key column conflicts with
// nothing. Each skipped row notes MySQL's warning 1062 in w, naming the
// first of its keys (in the table's key order, as InnoDB checks them)
// that an earlier row holds.
func skipConflicts(t *columnar.Table, first int, indexes []catalog.Index, w *sql.Warnings) (*columnar.Table, int) {
	var unique []catalog.Index
	for _, ix := range indexes {
		if ix.Unique {
			unique = append(unique, ix)
		}
	}
	if len(unique) == 0 {
		return t, 0
	}
	held := make([]map[string]bool, len(unique))
	for i, ix := range unique {
		held[i] = make(map[string]bool, t.Rows)
		for r := range first {
			if k, ok := ix.KeyOf(t, r); ok {
				held[i][k] = true
			}
		}
	}
	keep := make([]int, 0, t.Rows)
	for r := range first {
		keep = append(keep, r)
	}
	keys := make([]string, len(unique))
	has := make([]bool, len(unique))
	for r := first; r < t.Rows; r++ {
		dup := -1
		for i, ix := range unique {
			keys[i], has[i] = ix.KeyOf(t, r)
			if dup < 0 && has[i] && held[i][keys[i]] {
				dup = i
			}
		}
		if dup >= 0 {
			w.Add(1062, catalog.DuplicateError(t, unique[dup], r).Error()) // ER_DUP_ENTRY
			continue
		}
		for i := range unique {
			if has[i] {
				held[i][keys[i]] = true
			}
		}
		keep = append(keep, r)
	}
	if len(keep) == t.Rows {
		return t, 0
	}
	return gatherTable(t, keep), t.Rows - len(keep)
}
