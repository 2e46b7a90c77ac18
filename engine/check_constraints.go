package engine

import (
	"fmt"
	"sort"

	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// CHECK constraints are enforced on snapshots: before the catalog commits
// the snapshot a statement built (INSERT, UPDATE, REPLACE, INSERT ...
// SELECT, LOAD DATA, ALTER TABLE), validateChecks runs one query over it
// (over the new rows only when the statement appended them) that looks for
// a row where an enforced condition is FALSE. The rows already committed
// satisfy every enforced constraint (ADD CHECK and ALTER CHECK ... ENFORCED
// check them), so a row it finds is one the statement wrote, and failing
// leaves the table as it was: MySQL's statement rollback. The cost is one
// filtered scan per statement on a table with constraints, none on a table
// without.

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
