package sql

import (
	"strings"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// information_schema.TABLE_CONSTRAINTS, CHECK_CONSTRAINTS,
// REFERENTIAL_CONSTRAINTS and KEY_COLUMN_USAGE: the keys, CHECK and
// FOREIGN KEY constraints of every table, with MySQL 8's columns.

var (
	infoTableConstraints = []infoColumn{{"CONSTRAINT_CATALOG", columnar.TString}, {"CONSTRAINT_SCHEMA", columnar.TString},
		{"CONSTRAINT_NAME", columnar.TString}, {"TABLE_SCHEMA", columnar.TString}, {"TABLE_NAME", columnar.TString},
		{"CONSTRAINT_TYPE", columnar.TString}, {"ENFORCED", columnar.TString}}
	infoCheckConstraints = []infoColumn{{"CONSTRAINT_CATALOG", columnar.TString}, {"CONSTRAINT_SCHEMA", columnar.TString},
		{"CONSTRAINT_NAME", columnar.TString}, {"CHECK_CLAUSE", columnar.TString}}
	infoReferentialConstraints = []infoColumn{{"CONSTRAINT_CATALOG", columnar.TString}, {"CONSTRAINT_SCHEMA", columnar.TString},
		{"CONSTRAINT_NAME", columnar.TString}, {"UNIQUE_CONSTRAINT_CATALOG", columnar.TString},
		{"UNIQUE_CONSTRAINT_SCHEMA", columnar.TString}, {"UNIQUE_CONSTRAINT_NAME", columnar.TString},
		{"MATCH_OPTION", columnar.TString}, {"UPDATE_RULE", columnar.TString}, {"DELETE_RULE", columnar.TString},
		{"TABLE_NAME", columnar.TString}, {"REFERENCED_TABLE_NAME", columnar.TString}}
	infoKeyColumnUsage = []infoColumn{{"CONSTRAINT_CATALOG", columnar.TString}, {"CONSTRAINT_SCHEMA", columnar.TString},
		{"CONSTRAINT_NAME", columnar.TString}, {"TABLE_CATALOG", columnar.TString}, {"TABLE_SCHEMA", columnar.TString},
		{"TABLE_NAME", columnar.TString}, {"COLUMN_NAME", columnar.TString}, {"ORDINAL_POSITION", columnar.TInt64},
		{"POSITION_IN_UNIQUE_CONSTRAINT", columnar.TInt64}, {"REFERENCED_TABLE_SCHEMA", columnar.TString},
		{"REFERENCED_TABLE_NAME", columnar.TString}, {"REFERENCED_COLUMN_NAME", columnar.TString}}
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
			for _, fk := range b.cat.ForeignKeys(tn) {
				rows = append(rows, constraintRow(fk.Name, tn, "FOREIGN KEY", true))
			}
			for _, ck := range b.cat.Checks(tn) {
				rows = append(rows, constraintRow(ck.Name, tn, "CHECK", ck.Enforced))
			}
		}
		return infoTableConstraints, rows, true
	case "referential_constraints":
		for _, tn := range b.cat.Names() {
			for _, fk := range b.cat.ForeignKeys(tn) {
				rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(fk.Name), infoStr("def"), infoStr(DatabaseName),
					infoStr(b.referencedKeyName(fk)), infoStr("NONE"), infoStr(catalog.Rule(fk.OnUpdate)), infoStr(catalog.Rule(fk.OnDelete)),
					infoStr(tn), infoStr(fk.RefTable)})
			}
		}
		return infoReferentialConstraints, rows, true
	case "key_column_usage":
		return infoKeyColumnUsage, b.keyColumnUsage(), true
	case "check_constraints":
		for _, tn := range b.cat.Names() {
			for _, ck := range b.cat.Checks(tn) {
				// MySQL 8 keeps the clause with its quotes escaped once more
				// (_utf8mb4\'x\'), as its GENERATION_EXPRESSION and expression
				// defaults (exprDefaultText).
				rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(ck.Name), infoStr(escapeQuoted.Replace(ck.Clause))})
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

// referencedKeyName is the parent's unique index a foreign key matches
// (UNIQUE_CONSTRAINT_NAME), or NULL's stand-in "" for a plain index.
func (b *binder) referencedKeyName(fk catalog.ForeignKey) string {
	t, ok := b.cat.Table(fk.RefTable)
	if !ok {
		return ""
	}
	for _, ix := range b.cat.Indexes(fk.RefTable) {
		if !ix.Unique || len(ix.Columns) != len(fk.RefColumns) {
			continue
		}
		match := true
		for i, c := range ix.Columns {
			match = match && strings.EqualFold(t.Fields[c].Name, fk.RefColumns[i])
		}
		if match {
			return ix.Name
		}
	}
	return ""
}

// keyColumnUsage are KEY_COLUMN_USAGE's rows: each column of each PRIMARY
// KEY, UNIQUE key and foreign key.
func (b *binder) keyColumnUsage() [][]Expr {
	i64 := func(v int) Expr { return &Const{T: columnar.TInt64, I: int64(v)} }
	null := infoNull(columnar.TString)
	var rows [][]Expr
	for _, tn := range b.cat.Names() {
		t, _ := b.cat.Table(tn)
		for _, ix := range b.cat.Indexes(tn) {
			if !ix.Unique {
				continue
			}
			for k, c := range ix.Columns {
				rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(ix.Name), infoStr("def"), infoStr(DatabaseName),
					infoStr(tn), infoStr(t.Fields[c].Name), i64(k + 1), infoNull(columnar.TInt64), null, null, null})
			}
		}
		for _, fk := range b.cat.ForeignKeys(tn) {
			for k, c := range fk.Columns {
				rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(fk.Name), infoStr("def"), infoStr(DatabaseName),
					infoStr(tn), infoStr(c), i64(k + 1), i64(k + 1), infoStr(DatabaseName), infoStr(fk.RefTable), infoStr(fk.RefColumns[k])})
			}
		}
	}
	return rows
}
