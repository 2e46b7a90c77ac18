package sql

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// information_schema.STATISTICS (a row per key column of every index, as
// SHOW INDEX), VIEWS (each view's SELECT), and ROUTINES and TRIGGERS,
// empty since gpusql has neither stored programs nor triggers, with MySQL
// 8's columns ("INFORMATION_SCHEMA Tables" in the MySQL 8.0 manual).

var (
	infoStatistics = []infoColumn{{"TABLE_CATALOG", columnar.TString}, {"TABLE_SCHEMA", columnar.TString},
		{"TABLE_NAME", columnar.TString}, {"NON_UNIQUE", columnar.TInt64}, {"INDEX_SCHEMA", columnar.TString},
		{"INDEX_NAME", columnar.TString}, {"SEQ_IN_INDEX", columnar.TInt64}, {"COLUMN_NAME", columnar.TString},
		{"COLLATION", columnar.TString}, {"CARDINALITY", columnar.TInt64}, {"SUB_PART", columnar.TInt64},
		{"PACKED", columnar.TString}, {"NULLABLE", columnar.TString}, {"INDEX_TYPE", columnar.TString},
		{"COMMENT", columnar.TString}, {"INDEX_COMMENT", columnar.TString}, {"IS_VISIBLE", columnar.TString},
		{"EXPRESSION", columnar.TString}}
	infoViews = []infoColumn{{"TABLE_CATALOG", columnar.TString}, {"TABLE_SCHEMA", columnar.TString},
		{"TABLE_NAME", columnar.TString}, {"VIEW_DEFINITION", columnar.TString}, {"CHECK_OPTION", columnar.TString},
		{"IS_UPDATABLE", columnar.TString}, {"DEFINER", columnar.TString}, {"SECURITY_TYPE", columnar.TString},
		{"CHARACTER_SET_CLIENT", columnar.TString}, {"COLLATION_CONNECTION", columnar.TString}}
	// ROUTINES and TRIGGERS have all of MySQL 8's columns, in its order,
	// so a tool that selects one by name finds it (empty as they are).
	infoRoutines = infoStrings("SPECIFIC_NAME", "ROUTINE_CATALOG", "ROUTINE_SCHEMA", "ROUTINE_NAME", "ROUTINE_TYPE",
		"DATA_TYPE", "#CHARACTER_MAXIMUM_LENGTH", "#CHARACTER_OCTET_LENGTH", "#NUMERIC_PRECISION", "#NUMERIC_SCALE",
		"#DATETIME_PRECISION", "CHARACTER_SET_NAME", "COLLATION_NAME", "DTD_IDENTIFIER", "ROUTINE_BODY",
		"ROUTINE_DEFINITION", "EXTERNAL_NAME", "EXTERNAL_LANGUAGE", "PARAMETER_STYLE", "IS_DETERMINISTIC",
		"SQL_DATA_ACCESS", "SQL_PATH", "SECURITY_TYPE", "@CREATED", "@LAST_ALTERED", "SQL_MODE", "ROUTINE_COMMENT",
		"DEFINER", "CHARACTER_SET_CLIENT", "COLLATION_CONNECTION", "DATABASE_COLLATION")
	infoTriggers = infoStrings("TRIGGER_CATALOG", "TRIGGER_SCHEMA", "TRIGGER_NAME", "EVENT_MANIPULATION",
		"EVENT_OBJECT_CATALOG", "EVENT_OBJECT_SCHEMA", "EVENT_OBJECT_TABLE", "#ACTION_ORDER", "ACTION_CONDITION",
		"ACTION_STATEMENT", "ACTION_ORIENTATION", "ACTION_TIMING", "ACTION_REFERENCE_OLD_TABLE",
		"ACTION_REFERENCE_NEW_TABLE", "ACTION_REFERENCE_OLD_ROW", "ACTION_REFERENCE_NEW_ROW", "@CREATED", "SQL_MODE",
		"DEFINER", "CHARACTER_SET_CLIENT", "COLLATION_CONNECTION", "DATABASE_COLLATION")
)

// InfoSchemaTables are the information_schema tables gpusql has, sorted,
// in upper case as MySQL 8 names them.
var InfoSchemaTables = []string{"CHECK_CONSTRAINTS", "COLUMNS", "KEY_COLUMN_USAGE", "REFERENTIAL_CONSTRAINTS",
	"ROUTINES", "SCHEMATA", "STATISTICS", "TABLES", "TABLE_CONSTRAINTS", "TRIGGERS", "VIEWS"}

// showInfoSchemaTables binds SHOW [FULL] TABLES FROM information_schema
// [LIKE]: MySQL upper-cases the pattern, so 'schemata' finds SCHEMATA.
func (b *binder) showInfoSchemaTables(n *ast.ShowStmt) (Statement, error) {
	if n.Where != nil {
		return nil, b.errf(-1, "unsupported: SHOW TABLES FROM information_schema WHERE (use LIKE)")
	}
	like, err := b.showLike(n, "SHOW TABLES")
	if like != nil {
		up := strings.ToUpper(*like)
		like = &up
	}
	return &ShowTables{Like: like, Full: n.Full, InfoSchema: true}, err
}

// infoStrings are columns by name: strings, but a name marked # is an
// integer and one marked @ a DATETIME.
func infoStrings(names ...string) []infoColumn {
	cols := make([]infoColumn, len(names))
	for i, n := range names {
		cols[i] = infoColumn{n, columnar.TString}
		switch n[0] {
		case '#':
			cols[i] = infoColumn{n[1:], columnar.TInt64}
		case '@':
			cols[i] = infoColumn{n[1:], columnar.TDatetime(0)}
		}
	}
	return cols
}

// infoMoreTable binds the tables above; ok is false for other names.
func (b *binder) infoMoreTable(name string) (cols []infoColumn, rows [][]Expr, ok bool) {
	switch strings.ToLower(name) {
	case "statistics":
		return infoStatistics, b.statisticsRows(), true
	case "views":
		for _, vn := range b.cat.ViewNames() {
			v, _ := b.cat.View(vn)
			rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(v.Name), infoStr(v.SQL),
				infoStr("NONE"), infoStr("NO"), infoStr("root@localhost"), infoStr("DEFINER"),
				infoStr("utf8mb4"), infoStr("utf8mb4_0900_ai_ci")})
		}
		return infoViews, rows, true
	case "routines":
		return infoRoutines, nil, true
	case "triggers":
		return infoTriggers, nil, true
	}
	return nil, nil, false
}

// statisticsRows are STATISTICS' rows: per table, per index, per key
// column in key order.
func (b *binder) statisticsRows() [][]Expr {
	var rows [][]Expr
	for _, tn := range b.cat.Names() {
		t, ok := b.cat.Table(tn)
		if !ok {
			continue
		}
		for _, ix := range b.cat.Indexes(tn) {
			nonUnique := int64(1)
			if ix.Unique {
				nonUnique = 0
			}
			for k, c := range ix.Columns {
				f := t.Fields[c]
				nullable := ""
				if f.Nullable {
					nullable = "YES"
				}
				subPart := Expr(infoNull(columnar.TInt64)) // a whole column
				if n := ix.Prefix(k); n > 0 {
					subPart = &Const{T: columnar.TInt64, I: int64(n)}
				}
				rows = append(rows, []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(t.Name),
					&Const{T: columnar.TInt64, I: nonUnique}, infoStr(DatabaseName), infoStr(ix.Name),
					&Const{T: columnar.TInt64, I: int64(k + 1)}, infoStr(f.Name), infoStr(ix.Collation(k)),
					&Const{T: columnar.TInt64, I: int64(t.Rows)}, subPart, infoNull(columnar.TString),
					infoStr(nullable), infoStr("BTREE"), infoStr(""), infoStr(ix.Comment), infoStr("YES"), infoNull(columnar.TString)})
			}
		}
	}
	return rows
}

// describeInfoTable refuses DESCRIBE / SHOW COLUMNS and SHOW CREATE TABLE
// of information_schema.name, which MySQL 8 answers from its data
// dictionary's views (types such as varchar(64), the view's SELECT over
// mysql.* tables) that gpusql does not have; the error used to be 1146
// naming the table in gpusql's own database. nil for a table of another
// schema.
func (b *binder) describeInfoTable(t *ast.TableName, what string) error {
	if t == nil || !strings.EqualFold(t.Schema.O, "information_schema") {
		return nil
	}
	name := strings.ToUpper(t.Name.O)
	pos := -1 // SHOW COLUMNS names COLUMNS before the table does
	if !slices.Contains(InfoSchemaTables, name) {
		return b.unknownInfoTable(pos, name)
	}
	return b.errf(pos, "unsupported: %s information_schema.%s (its columns: SELECT * FROM information_schema.%s LIMIT 0)", what, name, name)
}
