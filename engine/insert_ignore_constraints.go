package engine

import (
	"fmt"
	"strings"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// skipViolations is skipConflicts for CHECK constraints and foreign keys:
// INSERT IGNORE skips the new rows of t (from first on) that break an
// enforced CHECK or whose foreign key finds no parent row, as MySQL turns
// those errors into warnings, and returns how many it dropped. t's
// generated columns are computed first, since a constraint may read them.
func (db *DB) skipViolations(cat *catalog.Catalog, t *columnar.Table, first int, opts catalog.FinishOptions, w *sql.Warnings) (*columnar.Table, int, error) {
	t, err := db.computeGenerated(t, first)
	if err != nil {
		return nil, 0, err
	}
	rows := make([]int, 0, t.Rows-first)
	for r := first; r < t.Rows; r++ {
		rows = append(rows, r)
	}
	bad, err := db.violators(cat, t, rows, opts, w)
	if err != nil || len(bad) == 0 {
		return t, 0, err
	}
	keep := make([]int, 0, t.Rows-len(bad))
	for r := 0; r < t.Rows; r++ {
		if !bad[r] {
			keep = append(keep, r)
		}
	}
	return gatherTable(t, keep), len(bad), nil
}

// violators are the rows among rows of t that break an enforced CHECK or
// (unless opts turn checks off) whose foreign key has no parent row; each
// adds MySQL's warning to w (3819 or 1452, the error it would have been).
func (db *DB) violators(cat *catalog.Catalog, t *columnar.Table, rows []int, opts catalog.FinishOptions, w *sql.Warnings) (map[int]bool, error) {
	bad := make(map[int]error)
	if err := db.checkViolators(cat, t, rows, bad); err != nil {
		return nil, err
	}
	if !opts.NoForeignKeyChecks {
		if err := orphanRows(cat, t, rows, bad); err != nil {
			return nil, err
		}
	}
	out := make(map[int]bool, len(bad))
	for _, r := range rows {
		if e, ok := bad[r]; ok {
			out[r] = true
			if ce, ok := e.(*catalog.ConstraintError); ok {
				w.Add(ce.Code, ce.Msg)
			}
		}
	}
	return out, nil
}

// checkViolators marks the rows among rows where an enforced CHECK
// condition is FALSE, with the first such constraint's error.
func (db *DB) checkViolators(cat *catalog.Catalog, t *columnar.Table, rows []int, bad map[int]error) error {
	var enforced []catalog.Check
	for _, ck := range cat.Checks(t.Name) {
		if ck.Enforced {
			enforced = append(enforced, ck)
		}
	}
	if len(enforced) == 0 || len(rows) == 0 {
		return nil
	}
	conds := make([]string, len(enforced))
	for i, ck := range enforced {
		conds[i] = "NOT " + ck.Clause
	}
	text := fmt.Sprintf("SELECT `%s`, %s FROM `%s` WHERE %s", sql.RowIDColumn, strings.Join(conds, ", "), t.Name, strings.Join(conds, " OR "))
	res, err := querySnapshot(db, sql.WithRowID(gatherTable(t, rows)), text)
	if err != nil {
		return fmt.Errorf("check constraints of %s: %w", t.Name, err)
	}
	for i := 0; i < res.Rows; i++ {
		r := rows[res.Columns[0].Int64At(i)]
		for k, c := range res.Columns[1:] {
			if !c.IsNull(i) && c.Int64At(i) != 0 {
				bad[r] = catalog.CheckViolated(enforced[k].Name)
				break
			}
		}
	}
	return nil
}

// orphanRows marks the rows among rows whose foreign key (all columns
// non-NULL) has no parent row.
func orphanRows(cat *catalog.Catalog, t *columnar.Table, rows []int, bad map[int]error) error {
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
		for _, r := range rows {
			if k, ok := catalog.KeyOf(t, cols, r); ok {
				if _, found := keys[k]; !found && bad[r] == nil {
					bad[r] = catalog.ChildRowError(sql.DatabaseName, t.Name, fk)
				}
			}
		}
	}
	return nil
}

// ignoreViolations is UPDATE IGNORE's part for constraints: it tries the
// update on old and drops from the statement's rows (res, whose row i sets
// table row ids[i]) those whose new values break a CHECK or a foreign key,
// which MySQL leaves as they were with a warning.
func (db *DB) ignoreViolations(old *columnar.Table, s *sql.Update, res *exec.Result, ids []int, w *sql.Warnings) (*exec.Result, []int, error) {
	trial := &columnar.Table{Name: old.Name, Fields: old.Fields, Rows: old.Rows, Columns: append([]*columnar.Column(nil), old.Columns...)}
	diff := make([]bool, len(ids))
	for i, k := range s.Targets {
		col, err := setColumn(old.Columns[k], ids, res.Columns[i+1], old.Fields[k], diff)
		if err != nil {
			return nil, nil, fmt.Errorf("UPDATE %s: %w", old.Name, err)
		}
		trial.Columns[k] = col
	}
	trial, err := db.computeGenerated(trial, 0)
	if err != nil {
		return nil, nil, err
	}
	bad, err := db.violators(db.cat, trial, ids, db.finishOptions(), w)
	if err != nil || len(bad) == 0 {
		return res, ids, err
	}
	var keep, kept []int
	for i, id := range ids {
		if !bad[id] {
			keep, kept = append(keep, i), append(kept, id)
		}
	}
	out := &exec.Result{Names: res.Names, Rows: len(keep), Columns: make([]*columnar.Column, len(res.Columns))}
	for j, c := range res.Columns {
		out.Columns[j] = gatherColumn(c, keep)
	}
	return out, kept, nil
}
