package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// information_schema.TABLE_CONSTRAINTS and CHECK_CONSTRAINTS: the keys and
// CHECK constraints of every table, with MySQL 8's columns.

var (
	infoTableConstraints = []infoColumn{{"CONSTRAINT_CATALOG", columnar.TString}, {"CONSTRAINT_SCHEMA", columnar.TString},
		{"CONSTRAINT_NAME", columnar.TString}, {"TABLE_SCHEMA", columnar.TString}, {"TABLE_NAME", columnar.TString},
		{"CONSTRAINT_TYPE", columnar.TString}, {"ENFORCED", columnar.TString}}
	infoCheckConstraints = []infoColumn{{"CONSTRAINT_CATALOG", columnar.TString}, {"CONSTRAINT_SCHEMA", columnar.TString},
		{"CONSTRAINT_NAME", columnar.TString}, {"CHECK_CLAUSE", columnar.TString}}
)

// infoConstraintTable binds the constraint tables; ok is false for other
// names.
func (b *binder) infoConstraintTable(name string) (cols []infoColumn, rows [][]Expr, ok bool) {
	switch strings.ToLower(name) {
	case "table_constraints":
		for _, tn := range b.cat.Names() {
			for _, ix := range b.cat.Indexes(tn) {
				kind := "UNIQUE"
				switch {
				case ix.Primary:
					kind = "PRIMARY KEY"
				case !ix.Unique:
					continue
				}
				rows = append(rows, constraintRow(ix.Name, tn, kind, true))
			}
			for _, ck := range b.cat.Checks(tn) {
				rows = append(rows, constraintRow(ck.Name, tn, "CHECK", ck.Enforced))
			}
		}
		return infoTableConstraints, rows, true
	case "check_constraints":
		for _, tn := range b.cat.Names() {
			for _, ck := range b.cat.Checks(tn) {
				rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(ck.Name), infoStr(ck.Clause)})
			}
		}
		return infoCheckConstraints, rows, true
	}
	return nil, nil, false
}

func constraintRow(name, table, kind string, enforced bool) []Expr {
	yes := "YES"
	if !enforced {
		yes = "NO"
	}
	return []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(name), infoStr(DatabaseName), infoStr(table), infoStr(kind), infoStr(yes)}
}
