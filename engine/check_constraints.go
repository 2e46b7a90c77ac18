package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// CHECK constraints are enforced on whole snapshots: before the catalog
// commits the snapshot a statement built (INSERT, UPDATE, REPLACE, INSERT
// ... SELECT, LOAD DATA, ALTER TABLE), validateChecks runs one query over it
// that looks for a row where an enforced condition is FALSE. The rows
// already committed satisfy every enforced constraint (ADD CHECK and ALTER
// CHECK ... ENFORCED check them), so a row it finds is one the statement
// wrote, and failing leaves the table as it was: MySQL's statement
// rollback. The cost is one filtered scan of the table per statement on a
// table with constraints, none on a table without.

// finishSnapshot is the catalog's Finisher: generated columns computed,
// the CHECK constraints checked, then the foreign keys (foreign_keys.go),
// unless the statement runs with foreign_key_checks = 0.
func (db *DB) finishSnapshot(cat *catalog.Catalog, opts catalog.FinishOptions, old, next *columnar.Table) (*columnar.Table, []catalog.Cascade, error) {
	first := 0
	if opts.Appended && old != nil && len(old.Fields) == len(next.Fields) && old.Rows <= next.Rows {
		first = old.Rows
	}
	next, err := db.computeGenerated(next, first)
	if err != nil {
		return nil, nil, err
	}
	// The rows before first are old rows, which satisfy the constraints.
	if err := db.validateChecks(cat, rowsFrom(next, first)); err != nil {
		return nil, nil, err
	}
	if opts.NoForeignKeyChecks {
		return next, nil, nil
	}
	var deleted []int
	if opts.Deleted != nil {
		deleted = opts.Deleted()
	}
	return enforceForeignKeys(cat, fkChange{name: next.Name, old: old, new: next, inPlace: opts.InPlace, deleted: deleted, from: first})
}

// finishOptions are the session's settings for the Finisher.
func (db *DB) finishOptions() catalog.FinishOptions {
	return catalog.FinishOptions{NoForeignKeyChecks: db.session.Limit("foreign_key_checks") == 0}
}

// inPlaceOptions are finishOptions for a statement that changes rows where
// they are (UPDATE, ON DUPLICATE KEY UPDATE).
func (db *DB) inPlaceOptions() catalog.FinishOptions {
	o := db.finishOptions()
	o.InPlace = true
	return o
}

// validateChecks fails with error 3819 when a row of t breaks an enforced
// CHECK constraint of its table in cat.
func (db *DB) validateChecks(cat *catalog.Catalog, t *columnar.Table) error {
	var enforced []catalog.Check
	for _, ck := range cat.Checks(t.Name) {
		if ck.Enforced {
			enforced = append(enforced, ck)
		}
	}
	if len(enforced) == 0 || t.Rows == 0 {
		return nil
	}
	res, err := querySnapshot(db, t, sql.CheckViolationQuery(t.Name, enforced))
	if err != nil {
		return fmt.Errorf("check constraints of %s: %w", t.Name, err)
	}
	if res.Rows == 0 {
		return nil
	}
	for i, c := range res.Columns {
		if !c.IsNull(0) && c.Int64At(0) != 0 {
			return catalog.CheckViolated(enforced[i].Name)
		}
	}
	return nil
}

// querySnapshot runs a query over snapshot t (named by its table's name)
// on the CPU, through a catalog that holds only t, planned without the
// catalog's remaps (they belong to committed snapshots): what the engine
// computes over a statement's own rows before committing them.
func querySnapshot(db *DB, t *columnar.Table, text string) (*exec.Result, error) {
	parsed, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	if len(parsed) != 1 {
		return nil, fmt.Errorf("internal error: %d statements in %q", len(parsed), text)
	}
	one := catalog.Clone(map[string]*columnar.Table{strings.ToLower(t.Name): t})
	st, err := sql.Bind(one, parsed[0])
	if err != nil {
		return nil, err
	}
	q, ok := st.(*sql.Query)
	if !ok {
		return nil, fmt.Errorf("internal error: %q is not a query", text)
	}
	p, err := planner.Plan(q, planner.Options{})
	if err != nil {
		return nil, err
	}
	ctx, done := db.queryMemory(context.Background())
	defer done()
	return cpu.Run(ctx, p)
}

// addCheck runs ALTER TABLE ... ADD CHECK.
func (db *DB) addCheck(s *sql.AddCheck) (*StatementResult, error) {
	if err := db.cat.AddCheck(s.Table, s.Check); err != nil {
		return nil, err
	}
	return message("added check constraint %s to %s", s.Check.Name, s.Table), nil
}

// dropCheck runs ALTER TABLE ... DROP CHECK.
func (db *DB) dropCheck(s *sql.DropCheck) (*StatementResult, error) {
	if err := db.cat.DropCheck(s.Table, s.Name); err != nil {
		return nil, err
	}
	return message("dropped check constraint %s from %s", s.Name, s.Table), nil
}

// alterCheck runs ALTER TABLE ... ALTER CHECK name [NOT] ENFORCED.
func (db *DB) alterCheck(s *sql.AlterCheck) (*StatementResult, error) {
	if err := db.cat.SetCheckEnforced(s.Table, s.Name, s.Enforced); err != nil {
		return nil, err
	}
	return message("check constraint %s of %s is %s", s.Name, s.Table, map[bool]string{true: "enforced", false: "not enforced"}[s.Enforced]), nil
}

// checkLines are SHOW CREATE TABLE's lines for a table's constraints, as
// MySQL prints them: in name order (the data dictionary's).
func checkLines(checks []catalog.Check) []string {
	sort.Slice(checks, func(i, j int) bool { return checks[i].Name < checks[j].Name })
	var out []string
	for _, ck := range checks {
		line := fmt.Sprintf("  CONSTRAINT `%s` CHECK (%s)", ck.Name, ck.Clause)
		if !ck.Enforced {
			line += " /*!80016 NOT ENFORCED */"
		}
		out = append(out, line)
	}
	return out
}
