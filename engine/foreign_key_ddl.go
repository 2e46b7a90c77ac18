package engine

import (
	"fmt"
	"sort"
	"strings"

	"gpusql/catalog"
	"gpusql/sql"
)

// The DDL side of foreign keys: statements a referenced table refuses, and
// the keys as SHOW CREATE TABLE and EXPORT DATABASE write them.

// checkDropReferenced is MySQL's error 3730: DROP TABLE of a parent that a
// table not dropped with it references (unless foreign_key_checks = 0).
func (db *DB) checkDropReferenced(names []string) error {
	if db.finishOptions().NoForeignKeyChecks {
		return nil
	}
	dropped := map[string]bool{}
	for _, n := range names {
		dropped[strings.ToLower(n)] = true
	}
	for _, n := range names {
		for _, ref := range db.cat.ReferencesTo(n) {
			if !dropped[strings.ToLower(ref.Child)] {
				return &catalog.ConstraintError{Code: 3730, Msg: fmt.Sprintf("Cannot drop table '%s' referenced by a foreign key constraint '%s' on table '%s'.", n, ref.Key.Name, ref.Child)}
			}
		}
	}
	return nil
}

// checkTruncateReferenced is MySQL's error 1701: TRUNCATE of a table
// another table references.
func (db *DB) checkTruncateReferenced(name string) error {
	if db.finishOptions().NoForeignKeyChecks {
		return nil
	}
	for _, ref := range db.cat.ReferencesTo(name) {
		if !strings.EqualFold(ref.Child, name) {
			return &catalog.ConstraintError{Code: 1701, Msg: fmt.Sprintf("Cannot truncate a table referenced in a foreign key constraint (`%s`.`%s`, %s)", sql.DatabaseName, ref.Child, ref.Key.Definition())}
		}
	}
	return nil
}

// foreignKeyLines are SHOW CREATE TABLE's lines for a table's foreign
// keys, in name order.
func foreignKeyLines(fks []catalog.ForeignKey) []string {
	sort.Slice(fks, func(i, j int) bool { return fks[i].Name < fks[j].Name })
	out := make([]string, len(fks))
	for i, fk := range fks {
		out[i] = "  " + fk.Definition()
	}
	return out
}

// constraintDefs are a table's FOREIGN KEY and CHECK constraints as CREATE
// TABLE clauses (EXPORT DATABASE's schema.sql).
func constraintDefs(fks []catalog.ForeignKey, checks []catalog.Check) []string {
	var out []string
	for _, l := range append(foreignKeyLines(fks), checkLines(checks)...) {
		out = append(out, strings.TrimSpace(l))
	}
	return out
}
