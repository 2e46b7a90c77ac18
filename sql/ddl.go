package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// columnType maps a MySQL column type to the engine's:
//
//	TINYINT(1), BOOL, BOOLEAN                  → BOOLEAN (MySQL spells BOOL as TINYINT(1))
//	INT, INTEGER                               → INT
//	TINYINT, SMALLINT, MEDIUMINT               → INT of Width 8, 16, 24: int32 values,
//	                                             stores range-checked (Type.IntBounds)
//	  the same UNSIGNED                        → unsigned of Width 8..32 (int64 values
//	                                             0..2^Width-1)
//	BIGINT                                     → BIGINT
//	BIGINT UNSIGNED                            → BIGINT UNSIGNED (uint64 bit patterns)
//	FLOAT, REAL, DOUBLE                        → DOUBLE
//	DECIMAL(p,s), NUMERIC(p,s)                 → DECIMAL(p,s), p ≤ 65, s ≤ 30; default (10,0);
//	                                             p > 18 is wide (sql/wide_decimal.go)
//	CHAR(n), VARCHAR(n), TEXT, BLOB, ...       → VARCHAR (dictionary-encoded), Width n
//	                                             (CHAR alone: 1), Binary for BINARY/BLOB,
//	                                             Char for CHAR (trailing spaces cut)
//	DATE                                       → DATE
//	VECTOR(n), VECTOR<FLOAT>(n), VECTOR         → VECTOR: n float32 per row (any n
//	                                             without a length)
//	DATETIME[(fsp)], TIMESTAMP[(fsp)]          → DATETIME (Timestamp marks TIMESTAMP), Scale fsp
//
//	JSON                                       → JSON: normalized JSON text in a String
//	                                             column (Type.JSON), see sql/json.go
//	YEAR                                       → INT marked Year: 0 or 1901..2155
//	                                             (storage/columnar/year.go)
//	TIME[(fsp)]                                → TIME: signed µs (storage/columnar/time.go)
//
//	ENUM(...), SET(...)                        → VARCHAR holding the members' text,
//	                                             Type.Members (sql/enum.go)
//
//	BIT[(m)]                                   → BIGINT UNSIGNED marked Bit m (1 to 64,
//	                                             1 without m): storage/columnar/bit.go
func columnType(tp *types.FieldType) (columnar.Type, string) {
	t, bad := baseColumnType(tp)
	if bad == "" && mysql.HasZerofillFlag(tp.GetFlag()) && (t.Unsigned && t.Bit == 0 || t.ID == columnar.Decimal) {
		// ZEROFILL (which makes an integer UNSIGNED): zero-padded display.
		t.ZeroFill = columnar.ZeroFillWidth(t, max(tp.GetFlen(), 0))
	}
	return t, bad
}

// baseColumnType is columnType without the ZEROFILL display width.
func baseColumnType(tp *types.FieldType) (columnar.Type, string) {
	switch tp.GetType() {
	case mysql.TypeBit:
		m := tp.GetFlen()
		if m <= 0 {
			m = 1
		}
		if m > columnar.MaxBitWidth {
			return columnar.Type{}, fmt.Sprintf("BIT(%d) (at most 64 bits)", m)
		}
		return columnar.TBit(m), ""
	case mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24, mysql.TypeLong:
		width := map[byte]int{mysql.TypeTiny: 8, mysql.TypeShort: 16, mysql.TypeInt24: 24, mysql.TypeLong: 32}[tp.GetType()]
		switch {
		case tp.GetType() == mysql.TypeTiny && tp.GetFlen() == 1:
			return columnar.TBool, ""
		case mysql.HasUnsignedFlag(tp.GetFlag()):
			return columnar.TUintWidth(width), ""
		}
		return columnar.TIntWidth(width), ""
	case mysql.TypeLonglong:
		if mysql.HasUnsignedFlag(tp.GetFlag()) {
			return columnar.TUint64, ""
		}
		return columnar.TInt64, ""
	case mysql.TypeFloat, mysql.TypeDouble:
		m, d := tp.GetFlen(), tp.GetDecimal()
		if m <= 0 || d < 0 || d == types.UnspecifiedLength {
			m, d = 0, 0 // FLOAT, FLOAT(p), DOUBLE: no fixed decimals
		}
		if tp.GetType() == mysql.TypeFloat {
			return columnar.TFloat(m, d), ""
		}
		if m > 0 {
			return columnar.TDoubleFixed(m, d), ""
		}
		return columnar.TFloat64, ""
	case mysql.TypeNewDecimal:
		p, s := tp.GetFlen(), tp.GetDecimal()
		if p <= 0 {
			p = 10
		}
		if s < 0 {
			s = 0
		}
		if p > decimal.MaxPrecision || s > decimal.MaxScale || s > p {
			return columnar.Type{}, fmt.Sprintf("DECIMAL(%d,%d) (at most 65 digits, 30 after the point)", p, s)
		}
		return columnar.TDecimal(p, s), ""
	case mysql.TypeVarchar, mysql.TypeVarString, mysql.TypeString:
		w := tp.GetFlen()
		if w < 0 && tp.GetType() == mysql.TypeString {
			w = 1 // CHAR is CHAR(1)
		}
		bin := isBinary(tp)
		char := tp.GetType() == mysql.TypeString // CHAR(n) or BINARY(n)
		return columnar.Type{ID: columnar.String, Width: max(w, 0), Binary: bin, Char: char}, ""
	case mysql.TypeBlob, mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		return columnar.Type{ID: columnar.String, Binary: isBinary(tp), Lob: lobClass(tp)}, ""
	case mysql.TypeDate:
		return columnar.TDate, ""
	case mysql.TypeTiDBVectorFloat32:
		return vectorType(tp.GetFlen())
	case mysql.TypeEnum, mysql.TypeSet:
		return enumType(tp, tp.GetType() == mysql.TypeSet)
	case mysql.TypeJSON:
		return columnar.TJSON, ""
	case mysql.TypeYear:
		return columnar.TYear, ""
	case mysql.TypeDuration:
		fsp := max(tp.GetDecimal(), 0)
		if fsp > columnar.MaxFsp {
			return columnar.Type{}, "fractional seconds precision " + strconv.Itoa(fsp) + " (0 to 6)"
		}
		return columnar.TTime(fsp), ""
	case mysql.TypeDatetime, mysql.TypeTimestamp:
		fsp := tp.GetDecimal()
		if fsp < 0 {
			fsp = 0
		}
		if fsp > columnar.MaxFsp {
			return columnar.Type{}, "fractional seconds precision " + strconv.Itoa(fsp) + " (0 to 6)"
		}
		return columnar.Type{ID: columnar.Datetime, Scale: fsp, Timestamp: tp.GetType() == mysql.TypeTimestamp}, ""
	}
	return columnar.Type{}, "column type " + strings.ToUpper(types.TypeToStr(tp.GetType(), tp.GetCharset()))
}

// lobClass is a TEXT or BLOB column's size class (columnar.Type.Lob).
// TEXT(M) / BLOB(M) is the smallest that holds M characters: 4 bytes
// each under utf8mb4, so TEXT(63) is TINYTEXT and TEXT(64) TEXT.
func lobClass(tp *types.FieldType) int {
	switch tp.GetType() {
	case mysql.TypeTinyBlob:
		return 1
	case mysql.TypeMediumBlob:
		return 3
	case mysql.TypeLongBlob:
		return 4
	}
	if m := tp.GetFlen(); m >= 0 {
		if !isBinary(tp) {
			return columnar.LobClass(int64(m) * 4)
		}
		return columnar.LobClass(int64(m))
	}
	return 0
}

// isBinary reports a byte-string column (BINARY, VARBINARY, BLOB), whose
// values need not be UTF-8 and whose length counts bytes.
func isBinary(tp *types.FieldType) bool { return tp.GetCharset() == "binary" }

func (b *binder) createTable(n *ast.CreateTableStmt) (Statement, error) {
	name := n.Table.Name.O
	if err := b.tableNameError(name); err != nil {
		return nil, err
	}
	if _, ok := b.cat.View(name); ok {
		return nil, b.errCode(b.wordPos(name, -1), ErTableExists, "Table '%s' already exists", name)
	}
	switch {
	case n.ReferTable != nil:
		return b.createTableLike(n)
	case n.Partition != nil:
		return nil, b.errf(-1, "unsupported: partitioned tables")
	}
	if n.Select != nil {
		if len(n.Cols) > 0 {
			return nil, b.errf(-1, "unsupported: column definitions with CREATE TABLE ... AS SELECT")
		}
		if _, exists := b.cat.Table(name); exists {
			if n.IfNotExists {
				// Nothing to do: an IF NOT EXISTS create of an existing
				// table is a no-op for the catalog.
				return &CreateTable{Name: name, IfNotExists: true}, nil
			}
			return nil, b.errCode(b.wordPos(name, -1), ErTableExists, "Table '%s' already exists", name)
		}
		q, err := b.topQuery(n.Select)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, c := range q.Names {
			if err := b.columnNameError(c); err != nil {
				return nil, err
			}
			if seen[strings.ToLower(c)] {
				return nil, b.errCode(b.wordPos(c, -1), ErDupFieldName, "Duplicate column name '%s'", c)
			}
			seen[strings.ToLower(c)] = true
		}
		return &CreateTableAs{Name: name, Query: q, Columns: ctasColumns(q.Plan)}, nil
	}
	if len(n.Cols) == 0 {
		return nil, b.errf(-1, "CREATE TABLE %s needs at least one column", name)
	}
	fields := make([]columnar.Field, 0, len(n.Cols))
	index := map[string]int{}
	tableColl := tableCollation(n.Options) // collation.go
	for _, c := range n.Cols {
		cname := c.Name.Name.O
		if err := b.columnNameError(cname); err != nil {
			return nil, err
		}
		pos := b.wordPos(cname, -1)
		if _, dup := index[strings.ToLower(cname)]; dup {
			return nil, b.errCode(pos, ErDupFieldName, "Duplicate column name '%s'", cname)
		}
		if code, msg := decimalSpecError(c.Tp, cname); msg != "" {
			return nil, b.errCode(pos, code, "%s", msg)
		}
		if err := b.columnLengthError(c.Tp, cname, pos); err != nil {
			return nil, err
		}
		t, bad := columnType(c.Tp)
		if bad != "" {
			return nil, b.errf(pos, "unsupported: %s (column '%s')", bad, cname)
		}
		f := columnar.Field{Name: cname, Type: t, Nullable: true}
		if t.ID == columnar.String && !t.Binary && !t.JSON && t.Members == "" {
			if err := b.columnCollation(&f, tableColl, pos); err != nil {
				return nil, err
			}
		}
		if err := b.columnCollation(&f, c.Tp.GetCollate(), pos); err != nil {
			return nil, err
		}
		var def ast.ExprNode
		for _, o := range c.Options {
			switch o.Tp {
			case ast.ColumnOptionNotNull, ast.ColumnOptionPrimaryKey:
				f.Nullable = false
			case ast.ColumnOptionNull:
				f.Nullable = true
			case ast.ColumnOptionUniqKey:
				// An index: tableIndexes collects it.
			case ast.ColumnOptionCollate:
				if err := b.columnCollation(&f, o.StrValue, pos); err != nil {
					return nil, err
				}
			case ast.ColumnOptionCheck:
				// A constraint: columnChecks collects it.
			case ast.ColumnOptionComment:
				comment, err := b.fieldComment(f.Name, columnComment(o))
				if err != nil {
					return nil, err
				}
				f.Comment = comment
			case ast.ColumnOptionReference, ast.ColumnOptionNoOption:
				// Constraints the engine does not enforce; accepted so
				// MySQL DDL loads unchanged.
			case ast.ColumnOptionDefaultValue:
				def = o.Expr // bound below, once NOT NULL is known
			case ast.ColumnOptionAutoIncrement:
				if !t.IsInteger() || t.ID == columnar.Bool || t.Year {
					return nil, b.errf(pos, "unsupported: AUTO_INCREMENT on %s column '%s' (give it an integer type: INT or BIGINT)", t, cname)
				}
				// MySQL makes an AUTO_INCREMENT column NOT NULL: a NULL
				// given for it generates a value instead.
				f.AutoIncrement, f.Nullable = true, false
			case ast.ColumnOptionGenerated:
				// Bound once every column is known: generatedColumns.
			case ast.ColumnOptionOnUpdate:
				if t.ID != columnar.Datetime || !isCurrentTimestamp(o.Expr) || currentTimestampFsp(o.Expr) != t.Scale {
					err := b.errCode(pos, ErInvalidOnUpdate, "Invalid ON UPDATE clause for '%s' column", cname)
					err.Detail = "only DATETIME and TIMESTAMP columns take ON UPDATE CURRENT_TIMESTAMP, with the column's digits"
					return nil, err
				}
				f.OnUpdateNow = true
			default:
				return nil, b.errf(pos, "unsupported: column option on '%s'", cname)
			}
		}
		if def != nil {
			if err := b.columnDefault(&f, def, pos); err != nil {
				return nil, err
			}
		}
		index[strings.ToLower(cname)] = len(fields)
		fields = append(fields, f)
	}
	markGenerated(n, fields)
	if err := b.generatedColumns(n, fields); err != nil {
		return nil, err
	}
	indexes, err := b.tableIndexes(n, fields)
	if err != nil {
		return nil, err
	}
	if err := b.checkAutoIncrement(fields, indexes); err != nil {
		return nil, err
	}
	if err := b.checkEngine(n.Options, name); err != nil {
		return nil, err
	}
	st := &CreateTable{Name: name, Fields: fields, Indexes: indexes, IfNotExists: n.IfNotExists}
	st.Options = tableOptions(n.Options, st.Options)
	if st.Options.Comment, err = b.tableComment(name, st.Options.Comment); err != nil {
		return nil, err
	}
	if _, exists := b.cat.Table(name); !exists || !n.IfNotExists {
		if st.Checks, err = b.bindChecks(name, fields, columnChecks(n), nil); err != nil {
			return nil, err
		}
		ft := &fkTable{name: name, fields: fields, indexes: indexes}
		if st.ForeignKeys, err = b.foreignKeys(ft, n.Constraints, nil); err != nil {
			return nil, err
		}
		st.Indexes = ft.indexes
	}
	for _, o := range n.Options {
		if o.Tp == ast.TableOptionAutoIncrement {
			st.AutoIncrement = o.UintValue
		}
	}
	return st, nil
}

func (b *binder) dropTable(n *ast.DropTableStmt) (Statement, error) {
	if n.IsView {
		return b.dropView(n)
	}
	st := &DropTable{IfExists: n.IfExists}
	var err error
	st.Names, st.Elsewhere, err = b.dropNames(n)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// dropNames splits a DROP TABLE / VIEW's names into gpusql's and those of
// other databases, which only IF EXISTS lets by (schema_names.go).
func (b *binder) dropNames(n *ast.DropTableStmt) (names, elsewhere []string, err error) {
	seen := map[string]bool{}
	for _, t := range n.Tables {
		key := t.Schema.L + "." + t.Name.O
		if seen[key] {
			return nil, nil, b.errCode(b.wordPos(t.Name.O, -1), ErNonUniqTable, "Not unique table/alias: '%s'", t.Name.O)
		}
		seen[key] = true
		switch {
		case knownSchema(t.Schema.O):
			names = append(names, t.Name.O)
		case n.IfExists:
			elsewhere = append(elsewhere, t.Schema.O+"."+t.Name.O)
		default:
			return nil, nil, b.errCode(b.wordPos(t.Name.O, -1), ErBadTable, "Unknown table '%s.%s'", t.Schema.O, t.Name.O)
		}
	}
	return names, elsewhere, nil
}

func (b *binder) show(n *ast.ShowStmt) (Statement, error) {
	switch n.Tp {
	case ast.ShowTables:
		return b.showTables(n)
	case ast.ShowCharset, ast.ShowCollation, ast.ShowEngines:
		return b.showCatalogTable(n)
	case ast.ShowTriggers, ast.ShowProcedureStatus, ast.ShowFunctionStatus, ast.ShowEvents,
		ast.ShowCreateView, ast.ShowCreateDatabase:
		return b.showMore(n) // show_more.go
	case ast.ShowProcessList:
		return &ShowProcessList{Full: n.Full}, nil
	case ast.ShowWarnings, ast.ShowErrors:
		b.volatile("SHOW WARNINGS")
		st := &ShowWarnings{Errors: n.Tp == ast.ShowErrors, Count: n.CountWarningsOrErrors, Last: b.vars.LastWarnings()}
		st.Offset, st.Limit = showWarningsLimit(n)
		return st, nil
	case ast.ShowTableStatus:
		return b.showQuery(n, "tables", "", "TABLE_NAME", tableStatusColumns)
	case ast.ShowColumns:
		if n.Table == nil {
			return nil, b.errf(-1, "SHOW COLUMNS needs a table")
		}
		if err := b.describeInfoTable(n.Table, "DESCRIBE of"); err != nil {
			return nil, err
		}
		name := n.Table.Name.O
		if v, ok := b.cat.View(name); ok {
			// A view's columns, as information_schema.COLUMNS has them
			// (show_query.go); DESCRIBE v col names a LIKE pattern.
			if n.Column != nil && n.Pattern == nil {
				n.Pattern = &ast.PatternLikeOrIlikeExpr{Pattern: ast.NewValueExpr(n.Column.Name.O, "", ""), Escape: '\\', IsLike: true}
			}
			return b.showQuery(n, "columns", "TABLE_NAME = "+quoteString(v.Name), "ORDINAL_POSITION", showColumnsColumns(n.Full))
		}
		t, ok := b.cat.Table(name)
		if !ok {
			return nil, b.errCode(b.wordPos(name, -1), ErNoSuchTable, "Table '%s.%s' doesn't exist", DatabaseName, name)
		}
		if n.Where != nil { // over SHOW's columns (show_query.go)
			return b.showQuery(n, "columns", "TABLE_NAME = "+quoteString(t.Name), "ORDINAL_POSITION", showColumnsColumns(n.Full))
		}
		like, err := b.showLike(n, "SHOW COLUMNS")
		if n.Column != nil && like == nil {
			like = &n.Column.Name.O // DESCRIBE t col_wild: a LIKE pattern too
		}
		return &Describe{Table: t.Name, Like: like, Full: n.Full}, err
	case ast.ShowDatabases:
		if n.Where != nil { // over SHOW's column, Database (show_query.go)
			return b.showQuery(n, "schemata", "", "SCHEMA_NAME", [][2]string{{"SCHEMA_NAME", "Database"}})
		}
		like, err := b.showLike(n, "SHOW DATABASES")
		return &ShowDatabases{Like: like}, err
	case ast.ShowCreateTable:
		if err := b.describeInfoTable(n.Table, "SHOW CREATE TABLE"); err != nil {
			return nil, err
		}
		if v, ok := b.cat.View(n.Table.Name.O); ok {
			// MySQL answers SHOW CREATE TABLE of a view as SHOW CREATE VIEW.
			return &ShowCatalogTable{What: "create view", Name: v.Name}, nil
		}
		t, err := b.table(n.Table)
		if err != nil {
			return nil, err
		}
		return &ShowCreateTable{Table: t.Name}, nil
	case ast.ShowVariables:
		return b.showVariables(n)
	case ast.ShowStatus:
		return b.showStatus(n)
	case ast.ShowIndex:
		if n.Table == nil {
			return nil, b.errf(-1, "SHOW INDEX needs a table")
		}
		if v, ok := b.cat.View(n.Table.Name.O); ok {
			// MySQL lists a view's indexes as an empty set, not an error:
			// STATISTICS has no rows for it.
			return b.showQuery(n, "statistics", "TABLE_NAME = "+quoteString(v.Name), "", showIndexColumns)
		}
		t, err := b.table(n.Table)
		if err != nil {
			return nil, err
		}
		if n.Where != nil { // rows in key order, as STATISTICS lists them
			return b.showQuery(n, "statistics", "TABLE_NAME = "+quoteString(t.Name), "", showIndexColumns)
		}
		return &ShowIndex{Table: t.Name}, nil
	}
	return nil, b.errf(b.start, "unsupported statement: %s (SHOW TABLES, SHOW COLUMNS, SHOW INDEX, SHOW CREATE TABLE, SHOW DATABASES, SHOW VARIABLES, SHOW STATUS, SHOW TABLE STATUS, SHOW WARNINGS, SHOW PROCESSLIST, SHOW CHARACTER SET, SHOW COLLATION, SHOW ENGINES, SHOW CREATE VIEW, SHOW CREATE DATABASE, SHOW TRIGGERS, SHOW PROCEDURE STATUS, SHOW FUNCTION STATUS and SHOW EVENTS are supported)", strings.ToUpper(firstN(b.src[b.start:b.end], 2)))
}

// showTables binds SHOW [FULL] TABLES [LIKE 'pattern' | WHERE ...].
func (b *binder) showTables(n *ast.ShowStmt) (Statement, error) {
	if strings.EqualFold(n.DBName, "information_schema") {
		return b.showInfoSchemaTables(n)
	}
	if n.Where != nil { // over the columns SHOW TABLES names (show_query.go)
		cols := [][2]string{{"TABLE_NAME", "Tables_in_" + DatabaseName}}
		if n.Full {
			cols = append(cols, [2]string{"TABLE_TYPE", "Table_type"})
		}
		return b.showQuery(n, "tables", "", "TABLE_NAME", cols)
	}
	like, err := b.showLike(n, "SHOW TABLES")
	return &ShowTables{Like: like, Full: n.Full}, err
}

// showCatalogTable binds SHOW CHARACTER SET / COLLATION / ENGINES [LIKE].
func (b *binder) showCatalogTable(n *ast.ShowStmt) (Statement, error) {
	what := map[ast.ShowStmtType]string{ast.ShowCharset: "charset", ast.ShowCollation: "collation", ast.ShowEngines: "engines"}[n.Tp]
	if n.Where != nil {
		return nil, b.errf(-1, "unsupported: SHOW %s WHERE (use LIKE)", strings.ToUpper(what))
	}
	like, err := b.showLike(n, "SHOW "+strings.ToUpper(what))
	return &ShowCatalogTable{What: what, Like: like}, err
}

// showLike is the constant pattern of a SHOW ... LIKE (nil without one).
func (b *binder) showLike(n *ast.ShowStmt, what string) (*string, error) {
	if n.Pattern == nil {
		return nil, nil
	}
	p, err := b.expr(n.Pattern.Pattern, &scope{})
	if err != nil {
		return nil, err
	}
	c, ok := p.(*Const)
	if !ok || c.Null || c.T.ID != columnar.String {
		return nil, b.errf(-1, "%s LIKE needs a string pattern", what)
	}
	return &c.S, nil
}

// table returns a catalog table for a DML statement, or an error at its name.
func (b *binder) table(tn *ast.TableName) (*columnar.Table, error) {
	if err := b.partitionClause(tn.PartitionNames); err != nil {
		return nil, err
	}
	if _, ok := b.cat.View(tn.Name.O); ok {
		return nil, b.errf(b.wordPos(tn.Name.O, -1), "'%s' is a view: views cannot be written or indexed (name a table)", tn.Name.O)
	}
	t, ok := b.cat.Table(tn.Name.O)
	if !ok {
		return nil, b.errCode(b.wordPos(tn.Name.O, -1), ErNoSuchTable, "Table '%s.%s' doesn't exist", DatabaseName, tn.Name.O)
	}
	return t, nil
}

// vectorType is VECTOR(n) (flen n) or VECTOR (flen unspecified: any
// length), or why it is not allowed.
func vectorType(flen int) (columnar.Type, string) {
	switch {
	case flen == types.UnspecifiedLength:
		return columnar.Type{ID: columnar.Vector}, ""
	case flen < 1:
		return columnar.Type{}, "VECTOR(0): a vector column needs at least 1 dimension"
	case flen > columnar.MaxVectorDim:
		return columnar.Type{}, fmt.Sprintf("VECTOR(%d): at most %d dimensions", flen, columnar.MaxVectorDim)
	}
	return columnar.Type{ID: columnar.Vector, Dim: flen}, ""
}
