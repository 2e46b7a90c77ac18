package engine

import (
	"fmt"
	"strings"

	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// skipViolations is skipConflicts for CHECK constraints and foreign keys:
// INSERT IGNORE skips the new rows of t (from first on) that break an
// enforced CHECK or whose foreign key finds no parent row, as MySQL turns
// those errors into warnings, and returns how many it dropped. t's
// generated columns are computed first, since a constraint may read them.
func (db *DB) skipViolations(cat *catalog.Catalog, t *columnar.Table, first int, opts catalog.FinishOptions) (*columnar.Table, int, error) {
	t, err := db.computeGenerated(t, first)
	if err != nil {
		return nil, 0, err
	}
	bad := make(map[int]bool)
	if err := db.checkViolators(cat, t, first, bad); err != nil {
		return nil, 0, err
	}
	if !opts.NoForeignKeyChecks {
		if err := orphanRows(cat, t, first, bad); err != nil {
			return nil, 0, err
		}
	}
	if len(bad) == 0 {
		return t, 0, nil
	}
	keep := make([]int, 0, t.Rows-len(bad))
	for r := 0; r < t.Rows; r++ {
		if !bad[r] {
			keep = append(keep, r)
		}
	}
	return gatherTable(t, keep), len(bad), nil
}

// checkViolators marks the rows from first on where an enforced CHECK
// condition is FALSE.
func (db *DB) checkViolators(cat *catalog.Catalog, t *columnar.Table, first int, bad map[int]bool) error {
	var conds []string
	for _, ck := range cat.Checks(t.Name) {
		if ck.Enforced {
			conds = append(conds, "NOT "+ck.Clause)
		}
	}
	if len(conds) == 0 || first >= t.Rows {
		return nil
	}
	text := fmt.Sprintf("SELECT `%s` FROM `%s` WHERE %s", sql.RowIDColumn, t.Name, strings.Join(conds, " OR "))
	res, err := querySnapshot(db, sql.WithRowID(rowsFrom(t, first)), text)
	if err != nil {
		return fmt.Errorf("check constraints of %s: %w", t.Name, err)
	}
	for i := 0; i < res.Rows; i++ {
		bad[first+int(res.Columns[0].Int64At(i))] = true
	}
	return nil
}

// orphanRows marks the rows from first on whose foreign key (all columns
// non-NULL) has no parent row.
func orphanRows(cat *catalog.Catalog, t *columnar.Table, first int, bad map[int]bool) error {
	for _, fk := range cat.ForeignKeys(t.Name) {
		cols, err := columnIndexes(t, fk.Columns)
		if err != nil {
			return err
		}
		var keys map[string]int
		parent, ok := cat.Table(fk.RefTable)
		if strings.EqualFold(fk.RefTable, t.Name) {
			parent, ok = t, true
		}
		if ok {
			pcols, err := columnIndexes(parent, fk.RefColumns)
			if err != nil {
				return err
			}
			keys = keySet(parent, pcols)
		}
		for r := first; r < t.Rows; r++ {
			if k, ok := catalog.KeyOf(t, cols, r); ok {
				if _, found := keys[k]; !found {
					bad[r] = true
				}
			}
		}
	}
	return nil
}
