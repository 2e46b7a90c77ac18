package engine

import (
	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// skipConflicts drops the rows of t from first on (the new rows of an
// INSERT IGNORE) whose key in a PRIMARY KEY or UNIQUE index an earlier row
// holds — an old row or a new one before it — and returns how many it
// dropped. MySQL keeps the first of duplicate new rows and turns each
// skipped one into a warning; a NULL in a key column conflicts with
// nothing.
func skipConflicts(t *columnar.Table, first int, indexes []catalog.Index) (*columnar.Table, int) {
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
			if k, ok := catalog.KeyOf(t, ix.Columns, r); ok {
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
		dup := false
		for i, ix := range unique {
			keys[i], has[i] = catalog.KeyOf(t, ix.Columns, r)
			dup = dup || has[i] && held[i][keys[i]]
		}
		if dup {
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
