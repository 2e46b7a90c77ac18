package sql

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// information_schema: the tables BI tools and connectors read to discover
// what a database holds (SCHEMATA, TABLES, COLUMNS), with MySQL 8's column
// names. Each is bound as a VALUES plan over the catalog as the statement
// sees it, so WHERE, ORDER BY and joins on them work as on any table.

// infoColumn is one column of an information_schema table.
type infoColumn struct {
	name string
	t    columnar.Type
}

var (
	infoSchemata = []infoColumn{{"CATALOG_NAME", columnar.TString}, {"SCHEMA_NAME", columnar.TString},
		{"DEFAULT_CHARACTER_SET_NAME", columnar.TString}, {"DEFAULT_COLLATION_NAME", columnar.TString},
		{"SQL_PATH", columnar.TString}, {"DEFAULT_ENCRYPTION", columnar.TString}}
	// TABLES and COLUMNS have MySQL 8's columns in MySQL's order, so
	// SELECT * and tools that read them by position see what MySQL gives.
	infoTables = []infoColumn{{"TABLE_CATALOG", columnar.TString}, {"TABLE_SCHEMA", columnar.TString},
		{"TABLE_NAME", columnar.TString}, {"TABLE_TYPE", columnar.TString}, {"ENGINE", columnar.TString},
		{"VERSION", columnar.TInt64}, {"ROW_FORMAT", columnar.TString}, {"TABLE_ROWS", columnar.TInt64},
		{"AVG_ROW_LENGTH", columnar.TInt64}, {"DATA_LENGTH", columnar.TInt64}, {"MAX_DATA_LENGTH", columnar.TInt64},
		{"INDEX_LENGTH", columnar.TInt64}, {"DATA_FREE", columnar.TInt64}, {"AUTO_INCREMENT", columnar.TUint64},
		{"CREATE_TIME", columnar.TDatetime(0)}, {"UPDATE_TIME", columnar.TDatetime(0)}, {"CHECK_TIME", columnar.TDatetime(0)},
		{"TABLE_COLLATION", columnar.TString}, {"CHECKSUM", columnar.TInt64}, {"CREATE_OPTIONS", columnar.TString},
		{"TABLE_COMMENT", columnar.TString}}
	infoColumns = []infoColumn{{"TABLE_CATALOG", columnar.TString}, {"TABLE_SCHEMA", columnar.TString},
		{"TABLE_NAME", columnar.TString}, {"COLUMN_NAME", columnar.TString}, {"ORDINAL_POSITION", columnar.TInt64},
		{"COLUMN_DEFAULT", columnar.TString}, {"IS_NULLABLE", columnar.TString}, {"DATA_TYPE", columnar.TString},
		{"CHARACTER_MAXIMUM_LENGTH", columnar.TInt64}, {"CHARACTER_OCTET_LENGTH", columnar.TInt64},
		{"NUMERIC_PRECISION", columnar.TInt64}, {"NUMERIC_SCALE", columnar.TInt64},
		{"DATETIME_PRECISION", columnar.TInt64}, {"CHARACTER_SET_NAME", columnar.TString},
		{"COLLATION_NAME", columnar.TString}, {"COLUMN_TYPE", columnar.TString}, {"COLUMN_KEY", columnar.TString},
		{"EXTRA", columnar.TString}, {"PRIVILEGES", columnar.TString}, {"COLUMN_COMMENT", columnar.TString},
		{"GENERATION_EXPRESSION", columnar.TString}, {"SRS_ID", columnar.TInt64}}
)

// informationSchema binds information_schema.name.
func (b *binder) informationSchema(name string, pos int) (Plan, []string, error) {
	var cols []infoColumn
	var rows [][]Expr
	switch strings.ToLower(name) {
	case "schemata":
		cols = infoSchemata
		// gpusql's default collation is the one its tables get when
		// they name none (utf8mb4_bin, bytes), as a MySQL table takes its
		// database's; information_schema's is MySQL 8's.
		// SQL_PATH is always NULL in MySQL 8; neither is encrypted.
		noPath, plain := infoNull(columnar.TString), infoStr("NO")
		rows = append(rows, []Expr{infoStr("def"), infoStr("information_schema"), infoStr("utf8mb3"), infoStr("utf8mb3_general_ci"), noPath, plain},
			[]Expr{infoStr("def"), infoStr(DatabaseName), infoStr("utf8mb4"), infoStr(DatabaseCollation), noPath, plain})
	case "tables":
		cols = infoTables
		for _, e := range b.relations() {
			rows = append(rows, b.tableRow(e))
		}
	case "columns":
		cols = infoColumns
		for _, e := range b.relations() {
			fields, err := b.relationFields(e, pos)
			if err != nil {
				return nil, nil, err
			}
			keys := ColumnKeys(fields, b.cat.Indexes(e)) // none for a view
			for i, f := range fields {
				rows = append(rows, columnRow(e, i, f, keys[i]))
			}
		}
	default:
		var ok bool
		if cols, rows, ok = b.infoConstraintTable(name); ok {
			break
		}
		if cols, rows, ok = b.infoMoreTable(name); !ok { // information_schema_more.go
			return nil, nil, b.unknownInfoTable(pos, name)
		}
	}
	out := make(Schema, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		out[i] = Column{Name: c.name, Type: c.t, Nullable: true}
		names[i] = c.name
	}
	return &Values{Rows: rows, Out: out}, names, nil
}

// relations are the table and view names, sorted.
func (b *binder) relations() []string {
	names := append(b.cat.Names(), b.cat.ViewNames()...)
	sort.Strings(names)
	return names
}

// relationFields are a table's fields or a view's result columns.
func (b *binder) relationFields(name string, pos int) ([]columnar.Field, error) {
	if t, ok := b.cat.Table(name); ok {
		return t.Fields, nil
	}
	v, _ := b.cat.View(name)
	p, names, _, err := b.bindView(v, pos)
	if err != nil {
		return nil, err
	}
	fields := make([]columnar.Field, len(names))
	for i, c := range p.Schema() {
		t := c.Type
		if t.ID == columnar.String && t.Width == 0 && !t.JSON && t.Members == "" && !t.Char {
			// A string expression's length types it, as CREATE TABLE ...
			// SELECT does: CONCAT(a, 'x') of a VARCHAR(10) is varchar(11).
			if w := derivedWidth(p, i); w > 0 && w <= ctasMaxVarchar {
				t.Width = w
			}
		}
		fields[i] = columnar.Field{Name: names[i], Type: t, Nullable: c.Nullable, Collation: c.Collation}
	}
	return fields, nil
}

// integerColumnType is an integer column's DATA_TYPE and NUMERIC_PRECISION
// as MySQL 8 reports them: the digits of the type's largest magnitude.
func integerColumnType(t columnar.Type) (string, int) {
	name := strings.ToLower(strings.TrimSuffix(t.String(), " UNSIGNED"))
	name, _, _ = strings.Cut(name, "(") // int(4) unsigned zerofill
	if t.IsBigUnsigned() {
		return name, 20
	}
	lo, hi, ok := t.IntBounds()
	if !ok {
		return name, 19 // BIGINT
	}
	if -lo > hi {
		hi = -lo - 1 // -128: 3 digits, as 127
	}
	return name, len(strconv.FormatInt(hi, 10))
}

// columnRow is a COLUMNS row: MySQL's DATA_TYPE names and sizes; key is
// the column's COLUMN_KEY (ColumnKeys).
func columnRow(table string, i int, f columnar.Field, key string) []Expr {
	nullable := "NO"
	if f.Nullable {
		nullable = "YES"
	}
	i64 := func(v int) Expr { return &Const{T: columnar.TInt64, I: int64(v)} }
	charLen, prec, scale := infoNull(columnar.TInt64), infoNull(columnar.TInt64), infoNull(columnar.TInt64)
	dataType := strings.ToLower(f.Type.String())
	switch f.Type.ID {
	case columnar.Int32, columnar.Int64:
		name, digits := integerColumnType(f.Type)
		dataType, prec, scale = name, i64(digits), i64(0)
		if f.Type.Year {
			dataType, prec, scale = "year", infoNull(columnar.TInt64), infoNull(columnar.TInt64)
		}
		if f.Type.Bit > 0 { // MySQL: NUMERIC_PRECISION is M, no scale
			dataType, prec, scale = "bit", i64(f.Type.Bit), infoNull(columnar.TInt64)
		}
	case columnar.Float64:
		dataType, prec = "double", i64(22)
		if f.Type.Single {
			dataType, prec = "float", i64(12)
		}
		if f.Type.Precision > 0 { // FLOAT(M,D), DOUBLE(M,D)
			prec, scale = i64(f.Type.Precision), i64(f.Type.Scale)
		}
	case columnar.Decimal:
		dataType, prec, scale = "decimal", i64(f.Type.Precision), i64(f.Type.Scale)
	case columnar.Bool:
		dataType, prec, scale = "tinyint", i64(3), i64(0)
	case columnar.Datetime:
		dataType = "datetime"
		if f.Type.Timestamp {
			dataType = "timestamp"
		}
	case columnar.Time:
		dataType = "time"
	case columnar.Vector:
		dataType = "vector"
	case columnar.String:
		// char(3) -> char, mediumtext (16777215 bytes in MySQL), json ...
		dataType, _, _ = strings.Cut(SQLTypeName(f.Type), "(")
		charLen = i64(max(f.Type.Width, 0))
		switch {
		case f.Type.JSON:
			charLen = infoNull(columnar.TInt64)
		case f.Type.Width <= 0:
			// MySQL gives a TEXT's bytes as both lengths, utf8mb4 too.
			charLen = &Const{T: columnar.TInt64, I: f.Type.LobMaxBytes()}
		}
		if f.Type.Members != "" {
			dataType, charLen = enumDataType(f.Type)
		}
	}
	colType := SQLTypeName(f.Type)
	def := infoNull(columnar.TString)
	if f.HasDefault {
		def = infoStr(DefaultText(f))
	}
	extra := ColumnExtra(f)
	charset, collation := infoNull(columnar.TString), infoNull(columnar.TString)
	octets := charLen // bytes: a binary string's characters are bytes
	if f.Type.ID == columnar.String && !f.Type.Binary && !f.Type.JSON {
		charset, collation = infoStr("utf8mb4"), infoStr(fieldCollation(f))
		if c, ok := charLen.(*Const); ok && !c.Null && (f.Type.Width > 0 || f.Type.Members != "") {
			// utf8mb4: up to 4 bytes a character (an ENUM's or SET's
			// longest value too); TEXT's 65535 are bytes.
			octets = i64(int(c.I) * 4)
		}
	}
	// Fractional-second digits of the types that have them; NULL for DATE
	// and the rest, as MySQL's data dictionary gives it.
	fsp := infoNull(columnar.TInt64)
	if f.Type.ID == columnar.Datetime || f.Type.ID == columnar.Time {
		fsp = i64(f.Type.Scale)
	}
	return []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(table), infoStr(f.Name), i64(i + 1), def,
		infoStr(nullable), infoStr(dataType), charLen, octets, prec, scale, fsp, charset, collation, infoStr(colType),
		infoStr(key), infoStr(extra), infoStr("select,insert,update,references"), infoStr(f.Comment), infoStr(escapeQuoted.Replace(f.Generated)),
		infoNull(columnar.TInt64)}
}

// tableRow is a TABLES row. A table is InnoDB-like as MySQL shows one
// (version 10, Dynamic rows) with its rows, its bytes in memory as
// DATA_LENGTH and no index bytes (gpusql's keys are checked, not stored);
// CREATE_TIME when CREATE TABLE ran, in the session's time zone; the
// times gpusql does not keep (UPDATE_TIME, CHECK_TIME) are NULL; the collation is the table's
// default (utf8mb4_bin, how columns that name none compare, unless
// CREATE or ALTER TABLE gave another), the comment its COMMENT.
// A view is MySQL's view row: NULL
// but for its names, type and the comment VIEW.
func (b *binder) tableRow(name string) []Expr {
	i64 := func(v int64) Expr { return &Const{T: columnar.TInt64, I: v} }
	nullInt, nullTime := infoNull(columnar.TInt64), infoNull(columnar.TDatetime(0))
	row := []Expr{infoStr("def"), infoStr(DatabaseName), infoStr(name)}
	t, ok := b.cat.Table(name)
	if !ok {
		return append(row, infoStr("VIEW"), infoNull(columnar.TString), nullInt, infoNull(columnar.TString), nullInt,
			nullInt, nullInt, nullInt, nullInt, nullInt, infoNull(columnar.TUint64), nullTime, nullTime, nullTime,
			infoNull(columnar.TString), nullInt, infoNull(columnar.TString), infoStr("VIEW"))
	}
	var bytes int64
	for _, c := range t.Columns {
		bytes += c.Bytes()
	}
	avg := int64(0)
	if t.Rows > 0 {
		avg = bytes / int64(t.Rows)
	}
	auto := infoNull(columnar.TUint64) // NULL without an AUTO_INCREMENT column
	if next := b.cat.AutoIncrementNext(t); next > 0 {
		auto = &Const{T: columnar.TUint64, I: int64(next)}
	}
	created := nullTime
	if us := b.cat.Options(name).Created; us > 0 {
		created = &Const{T: columnar.TDatetime(0), I: b.zone().FromUTC(us - us%1_000_000)}
	}
	return append(row, infoStr("BASE TABLE"), infoStr("gpusql"), i64(10), infoStr("Dynamic"), i64(int64(t.Rows)),
		i64(avg), i64(bytes), i64(0), i64(0), i64(0), auto, created, nullTime, nullTime,
		infoStr(tableCollationOf(b.cat.Options(name))), nullInt, infoStr(""), infoStr(b.cat.Options(name).Comment))
}

func infoStr(s string) Expr         { return &Const{T: columnar.TString, S: s} }
func infoNull(t columnar.Type) Expr { return &Const{T: t, Null: true} }

// infoTablesHad lists the information_schema tables gpusql has, for errors.
const infoTablesHad = "gpusql has SCHEMATA, TABLES, COLUMNS, TABLE_CONSTRAINTS, CHECK_CONSTRAINTS, REFERENTIAL_CONSTRAINTS, KEY_COLUMN_USAGE, STATISTICS, VIEWS, ROUTINES and TRIGGERS"

// mysqlInfoTables are MySQL 8.0's other information_schema tables: one
// of them is a table gpusql lacks, not a name MySQL refuses.
var mysqlInfoTables = strings.Fields(`ADMINISTRABLE_ROLE_AUTHORIZATIONS APPLICABLE_ROLES
CHARACTER_SETS COLLATIONS COLLATION_CHARACTER_SET_APPLICABILITY COLUMNS_EXTENSIONS
COLUMN_PRIVILEGES COLUMN_STATISTICS ENABLED_ROLES ENGINES EVENTS FILES KEYWORDS
OPTIMIZER_TRACE PARAMETERS PARTITIONS PLUGINS PROCESSLIST PROFILING
RESOURCE_GROUPS ROLE_COLUMN_GRANTS ROLE_ROUTINE_GRANTS ROLE_TABLE_GRANTS
SCHEMATA_EXTENSIONS SCHEMA_PRIVILEGES ST_GEOMETRY_COLUMNS ST_SPATIAL_REFERENCE_SYSTEMS
ST_UNITS_OF_MEASURE TABLES_EXTENSIONS TABLESPACES TABLESPACES_EXTENSIONS
TABLE_CONSTRAINTS_EXTENSIONS TABLE_PRIVILEGES USER_ATTRIBUTES USER_PRIVILEGES
VIEW_ROUTINE_USAGE VIEW_TABLE_USAGE`)

// unknownInfoTable is the error for information_schema.name, a table
// gpusql does not have: MySQL's 1109, with the name in upper case as
// MySQL 8 writes information_schema names, when MySQL lacks it too.
func (b *binder) unknownInfoTable(pos int, name string) error {
	upper := strings.ToUpper(name)
	if slices.Contains(mysqlInfoTables, upper) || strings.HasPrefix(upper, "INNODB_") {
		return b.errf(pos, "unsupported: information_schema.%s (%s)", upper, infoTablesHad)
	}
	err := b.errCode(pos, ErUnknownTable, "Unknown table '%s' in information_schema", upper)
	err.Detail = infoTablesHad
	return err
}
