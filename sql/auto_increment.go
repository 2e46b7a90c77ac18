package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// AUTO_INCREMENT columns, as MySQL has them: one integer column per table,
// the first column of some index (PRIMARY KEY, UNIQUE or KEY), NOT NULL.
// The binder only lets NULL reach such a column (a value left out, NULL,
// or 0 outside NO_AUTO_VALUE_ON_ZERO); the engine turns those into the
// table's counter values when it stores the rows (engine/auto_increment.go).

// ErrAutoColumn is MySQL's error 1075 text.
const ErrAutoColumn = catalog.ErrAutoKey

// checkAutoIncrement enforces MySQL's rule for a table's AUTO_INCREMENT
// column (error 1075): at most one, and it leads an index.
func (b *binder) checkAutoIncrement(fields []columnar.Field, indexes []catalog.Index) error {
	auto := AutoColumn(fields)
	if auto < 0 {
		return nil
	}
	for i, f := range fields {
		if f.AutoIncrement && i != auto {
			return b.autoKeyError(f.Name, fmt.Sprintf("column '%s'", f.Name))
		}
	}
	for _, ix := range indexes {
		if len(ix.Columns) > 0 && ix.Columns[0] == auto {
			return nil
		}
	}
	return b.autoKeyError(fields[auto].Name, fmt.Sprintf("column '%s' is not the first column of a PRIMARY KEY, UNIQUE or KEY", fields[auto].Name))
}

// autoKeyError is MySQL's 1075 at the column's name, with gpusql's
// detail of which rule the column breaks.
func (b *binder) autoKeyError(name, detail string) error {
	e := b.errCode(b.wordPos(name, -1), 1075, "%s", ErrAutoColumn)
	e.Detail = detail
	return e
}

// AutoColumn is the index of the table's AUTO_INCREMENT column, -1 if none.
func AutoColumn(fields []columnar.Field) int {
	for i, f := range fields {
		if f.AutoIncrement {
			return i
		}
	}
	return -1
}

// autoValueOnZero reports whether 0 stored into an AUTO_INCREMENT column
// generates a value, as it does unless sql_mode has NO_AUTO_VALUE_ON_ZERO.
func (b *binder) autoValueOnZero() bool {
	return b.session == nil || !b.session.HasMode("NO_AUTO_VALUE_ON_ZERO")
}

// lastInsertID binds LAST_INSERT_ID(): the first AUTO_INCREMENT value the
// connection's last INSERT that generated one generated (0 before any),
// a BIGINT UNSIGNED as in MySQL. Like @x it is read when the statement
// starts. LAST_INSERT_ID(expr) of a constant integer (or of an integer
// expression of no column, computed here: foldConst) is that value, and
// sets the connection's: MySQL sets it as the call is evaluated, and a
// constant is evaluated once, so setting it here, where the call is
// bound (in the statement's order), gives MySQL's answers.
func (b *binder) lastInsertID(args []ast.ExprNode, sc *scope, pos int) (Expr, error) {
	b.volatile("LAST_INSERT_ID()")
	if len(args) > 0 {
		return b.setLastInsertID(args, sc, pos)
	}
	var v uint64
	if b.vars != nil {
		v = b.vars.LastInsertID()
	}
	return &Const{T: columnar.TUint64, I: int64(v)}, nil
}

func (b *binder) setLastInsertID(args []ast.ExprNode, sc *scope, pos int) (Expr, error) {
	unsupported := b.errf(pos, "unsupported: LAST_INSERT_ID(expr) other than of an integer expression of no column (a constant, @x + 1) or as the whole value of a single-table UPDATE's SET c = LAST_INSERT_ID(expr) or of ON DUPLICATE KEY UPDATE's c = LAST_INSERT_ID(expr) (LAST_INSERT_ID() without an argument reads the last generated AUTO_INCREMENT value)")
	if len(args) != 1 {
		return nil, unsupported
	}
	e, err := b.expr(args[0], sc)
	if err != nil {
		return nil, err
	}
	c, ok := e.(*Const)
	if !ok {
		if c, ok, err = b.foldConst(e); err != nil {
			return nil, err
		}
	}
	if !ok || c.Null || !c.T.IsInteger() || c.T.ID == columnar.Bool {
		return nil, unsupported
	}
	if b.vars != nil {
		b.vars.SetLastInsertID(uint64(c.I))
	}
	return &Const{T: columnar.TUint64, I: c.I}, nil
}

// foldConst computes e when it reads no column, row or parameter
// (LAST_INSERT_ID(@x + 1)): MySQL evaluates such an argument once per
// row to one value, which the binder needs as it binds the call.
func (b *binder) foldConst(e Expr) (*Const, bool, error) {
	if b.vars == nil || b.vars.eval == nil {
		return nil, false, nil
	}
	foldable := true
	walkExpr(e, func(x Expr) bool {
		switch x.(type) {
		case *ColRef, *CodeSet, *ScalarSubquery, *NestedSubquery, *Param:
			foldable = false
		}
		return foldable
	})
	if !foldable {
		return nil, false, nil
	}
	names := []string{"v"}
	c, err := b.vars.eval(&Query{Plan: newProject(&Values{Rows: [][]Expr{{}}}, []Expr{e}, names), Names: names})
	return c, err == nil, err
}

// DefaultsToNow reports whether f's default is CURRENT_TIMESTAMP.
func DefaultsToNow(f columnar.Field) bool {
	return f.HasDefault && f.Type.ID == columnar.Datetime && f.Default == columnar.DefaultNow
}

// NowText is CURRENT_TIMESTAMP as MySQL writes it in f's default and ON
// UPDATE clause: with f's fractional digits, which MySQL makes the
// function's (CURRENT_TIMESTAMP(3) for a DATETIME(3)).
func NowText(f columnar.Field) string {
	if f.Type.Scale > 0 {
		return fmt.Sprintf("%s(%d)", columnar.DefaultNow, f.Type.Scale)
	}
	return columnar.DefaultNow
}

// DefaultText is f's default as DESCRIBE and information_schema.COLUMNS
// show it (CURRENT_TIMESTAMP with its digits).
func DefaultText(f columnar.Field) string {
	if DefaultsToNow(f) {
		return NowText(f)
	}
	if b, ok := BitDefault(f); ok {
		return b
	}
	if exprDefault(f) {
		return exprDefaultText(f.Default)
	}
	return f.Default
}

// exprDefault reports a TEXT, BLOB or JSON column's default, which MySQL 8
// takes only as an expression, DEFAULT ('x'), and marks DEFAULT_GENERATED.
func exprDefault(f columnar.Field) bool {
	return f.HasDefault && blobType(f.Type) && !DefaultsToNow(f)
}

// escapeQuoted escapes quotes and backslashes as MySQL prints a string.
var escapeQuoted = strings.NewReplacer(`\`, `\\`, "'", `\'`)

// exprDefaultText is such a default as MySQL's data dictionary keeps it and
// DESCRIBE and information_schema.COLUMNS show it: the literal as MySQL
// prints it, _utf8mb4'x', escaped once more (_utf8mb4\'[]\').
func exprDefaultText(v string) string {
	return escapeQuoted.Replace("_utf8mb4'" + escapeQuoted.Replace(v) + "'")
}

// BitDefault is a BIT column's default as MySQL 8 writes it in SHOW CREATE
// TABLE, DESCRIBE and information_schema.COLUMNS: a bit literal, b'101'
// (a quoted '5' would read back as the string's byte, 0x35).
func BitDefault(f columnar.Field) (string, bool) {
	if f.Type.Bit == 0 || !f.HasDefault {
		return "", false
	}
	v, err := strconv.ParseUint(f.Default, 10, 64)
	if err != nil {
		return "", false
	}
	return "b'" + strconv.FormatUint(v, 2) + "'", true
}

// ColumnExtra is a column's Extra in DESCRIBE and information_schema.COLUMNS
// (MySQL 8's words).
func ColumnExtra(f columnar.Field) string {
	switch {
	case f.AutoIncrement:
		return "auto_increment"
	case DefaultsToNow(f) && f.OnUpdateNow:
		return "DEFAULT_GENERATED on update " + NowText(f)
	case DefaultsToNow(f) || exprDefault(f):
		// MySQL 8 marks a default that is an expression, as
		// CURRENT_TIMESTAMP is.
		return "DEFAULT_GENERATED"
	case f.OnUpdateNow:
		return "on update " + NowText(f)
	case f.Generated != "" && f.GeneratedStored:
		return "STORED GENERATED"
	case f.Generated != "":
		return "VIRTUAL GENERATED"
	}
	return ""
}

// checkAlterAuto applies MySQL's rule to the columns ALTER TABLE leaves
// (fields; src[i] is field i's column in t, -1 for an added one): at most
// one AUTO_INCREMENT column, leading one of the table's indexes (leads: the
// new columns that lead one). ADD COLUMN ... AUTO_INCREMENT (MySQL numbers
// the existing rows) is not supported.
func (b *binder) checkAlterAuto(t *columnar.Table, fields []columnar.Field, src []int, leads map[int]bool) error {
	auto := AutoColumn(fields)
	if auto < 0 {
		return nil
	}
	name := fields[auto].Name
	for i, f := range fields {
		if f.AutoIncrement && i != auto {
			return b.autoKeyError(f.Name, fmt.Sprintf("column '%s'", f.Name))
		}
	}
	if src[auto] < 0 {
		return b.errf(b.wordPos(name, -1), "unsupported: ADD COLUMN ... AUTO_INCREMENT (column '%s'): add the column, fill it, then MODIFY it AUTO_INCREMENT", name)
	}
	if leads[auto] {
		return nil
	}
	return b.autoKeyError(name, fmt.Sprintf("column '%s' is not the first column of a PRIMARY KEY, UNIQUE or KEY", name))
}

// AlterAutoIncrement is ALTER TABLE t AUTO_INCREMENT = N: the counter's
// next value becomes N, or the column's largest value + 1 when N is not
// past it (InnoDB never sets it at or below a value in use).
type AlterAutoIncrement struct {
	Table string
	Next  uint64
}

func (*AlterAutoIncrement) statement() {}

// alterAutoIncrement binds ALTER TABLE t AUTO_INCREMENT = N; the other
// table options (ENGINE, CHARSET, ...) mean nothing to gpusql and are
// accepted alongside it, as CREATE TABLE accepts them.
func (b *binder) alterAutoIncrement(t *columnar.Table, opts []*ast.TableOption) (Statement, error) {
	st := &AlterAutoIncrement{Table: t.Name}
	found, charset, kept := false, false, false
	for _, o := range opts {
		switch o.Tp {
		case ast.TableOptionAutoIncrement:
			st.Next, found = o.UintValue, true
		case ast.TableOptionCharset:
			charset = true
		case ast.TableOptionCollate:
			charset = tableCollation(opts) == ""
			kept = !charset
		case ast.TableOptionComment:
			kept = true
		}
	}
	switch {
	case charset:
		// MySQL changes the default of columns added later; gpusql keeps
		// a table default only where it is a collation it compares by.
		return nil, b.errf(b.start, "unsupported: ALTER TABLE ... DEFAULT CHARSET without a supported COLLATE (name one: COLLATE = utf8mb4_0900_ai_ci or utf8mb4_bin; or CONVERT TO CHARACTER SET the table)")
	case kept:
		// COMMENT and COLLATE are kept (table_options.go), with any
		// AUTO_INCREMENT beside them.
		alter := &AlterTableOptions{Table: t.Name, Options: tableOptions(opts, b.cat.Options(t.Name))}
		var err error
		if alter.Options.Comment, err = b.tableComment(t.Name, alter.Options.Comment); err != nil {
			return nil, err
		}
		if found {
			alter.AutoIncrement = st
		}
		return alter, nil
	case found:
		return st, nil
	}
	// ENGINE = InnoDB, COMMENT, ROW_FORMAT ...: MySQL rebuilds the table
	// or records the option; gpusql, which has one engine and ignores them
	// in CREATE TABLE, leaves the table as it is.
	return &TableUnchanged{Table: t.Name}, nil
}

// TableUnchanged is an ALTER TABLE whose table options change nothing in
// gpusql (ENGINE = InnoDB, COMMENT 'x').
type TableUnchanged struct{ Table string }

func (*TableUnchanged) statement() {}

// lastInsertIDAssignment finds SET c = LAST_INSERT_ID(expr) in a
// single-table UPDATE (MySQL's sequence idiom, UPDATE seq SET id =
// LAST_INSERT_ID(id + 1)): it returns the list with that value replaced by
// expr, and c's name ("" when there is none). The engine then takes c's
// value in the last row it updated as LAST_INSERT_ID(). The last such
// assignment wins; elsewhere LAST_INSERT_ID(expr) is not supported.
func lastInsertIDAssignment(list []*ast.Assignment) ([]*ast.Assignment, string) {
	out := list
	column := ""
	for i, a := range list {
		f, ok := a.Expr.(*ast.FuncCallExpr)
		if !ok || f.FnName.L != "last_insert_id" || len(f.Args) != 1 {
			continue
		}
		if column == "" {
			out = append([]*ast.Assignment(nil), list...)
		}
		c := *a
		c.Expr = f.Args[0]
		out[i] = &c
		column = a.Column.Name.O
	}
	return out, column
}
