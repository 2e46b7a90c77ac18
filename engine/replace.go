package engine

import (
	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// replaceConflicts applies REPLACE to t, whose rows from first on were just
// appended: MySQL inserts the new rows in order, and each first deletes
// every row (old, or new and earlier) that shares a key of one of the
// table's unique indexes with it. It returns the snapshot without the
// deleted rows and how many there were, and the old rows (before first)
// among them. Without unique indexes REPLACE is INSERT.
func replaceConflicts(t *columnar.Table, first int, indexes []catalog.Index) (*columnar.Table, int, []int) {
	var unique []catalog.Index
	for _, ix := range indexes {
		if ix.Unique {
			unique = append(unique, ix)
		}
	}
	if len(unique) == 0 {
		return t, 0, nil
	}
	// owner[i] maps each key of index i to the live row holding it.
	owner := make([]map[string]int, len(unique))
	keys := make([][]string, len(unique)) // keys[i][row], "" when NULL
	for i, ix := range unique {
		owner[i] = make(map[string]int, t.Rows)
		keys[i] = make([]string, t.Rows)
		for r := 0; r < t.Rows; r++ {
			if k, ok := ix.KeyOf(t, r); ok {
				keys[i][r] = "\x01" + k
			}
		}
	}
	gone := make([]bool, t.Rows)
	deleted := 0
	claim := func(r int) {
		for i := range unique {
			if k := keys[i][r]; k != "" {
				owner[i][k] = r
			}
		}
	}
	for r := 0; r < first; r++ {
		claim(r) // the old rows are unique already
	}
	for r := first; r < t.Rows; r++ {
		for i := range unique {
			k := keys[i][r]
			if k == "" {
				continue
			}
			if o, ok := owner[i][k]; ok && !gone[o] {
				gone[o] = true
				deleted++
				for j := range unique {
					if keys[j][o] != "" && owner[j][keys[j][o]] == o {
						delete(owner[j], keys[j][o])
					}
				}
			}
		}
		claim(r)
	}
	if deleted == 0 {
		return t, 0, nil
	}
	keep := make([]int, 0, t.Rows-deleted)
	var oldGone []int
	for r, g := range gone {
		switch {
		case !g:
			keep = append(keep, r)
		case r < first:
			oldGone = append(oldGone, r)
		}
	}
	return gatherTable(t, keep), deleted, oldGone
}
