package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"gpusql/storage/columnar"
)

// LOAD DATA ... (col, @var, ...) [SET col = expr, ...]: the file's fields
// are read into a staging table of the listed columns (a column with its
// table type, a user variable as text), then stored by
//
//	INSERT [IGNORE] | REPLACE INTO t (listed columns, SET columns)
//	SELECT listed columns, SET expressions FROM staging
//
// so the columns left out take their defaults, the SET expressions read
// each row's fields (@var is the row's field, as MySQL assigns it per
// row), and every store and error is INSERT ... SELECT's (row N of the
// message is the file's Nth row).

// LoadStagingName is the staging table's name in the statement.
const LoadStagingName = "gpusql_load_rows"

// loadColumns sets st's Staging fields and Insert text for a LOAD DATA
// with a column list or SET.
func (b *binder) loadColumns(n *ast.LoadDataStmt, t *columnar.Table, st *Load) error {
	items := n.ColumnsAndUserVars
	if len(items) == 0 {
		for _, c := range n.Columns {
			items = append(items, &ast.ColumnNameOrUserVar{ColumnName: c})
		}
	}
	if len(items) == 0 { // SET alone: the file holds every column
		for _, f := range t.Fields {
			items = append(items, &ast.ColumnNameOrUserVar{ColumnName: &ast.ColumnName{Name: ast.NewCIStr(f.Name)}})
		}
	}
	vars := map[string]bool{}
	var targets, exprs []string
	for _, it := range items {
		if it.UserVar != nil {
			name := "@" + strings.ToLower(it.UserVar.Name)
			vars[name[1:]] = true
			st.Staging = append(st.Staging, columnar.Field{Name: name, Type: columnar.TString, Nullable: true})
			st.Missing = append(st.Missing, nil)
			continue
		}
		f, err := b.loadColumn(t, it.ColumnName.Name.O)
		if err != nil {
			return err
		}
		if st.Lenient {
			st.Missing = append(st.Missing, missingFieldText(t, f.Name))
			f.Type = columnar.TString
		}
		st.Staging = append(st.Staging, f)
		targets = append(targets, quoteName(f.Name))
		exprs = append(exprs, quoteName(f.Name))
	}
	for _, a := range n.ColumnAssignments {
		f, err := b.loadColumn(t, a.Column.Name.O)
		if err != nil {
			return err
		}
		e, _ := a.Expr.Accept(&loadVarRewriter{vars: vars})
		var sb strings.Builder
		if err := e.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil {
			return b.errf(b.start, "LOAD DATA ... SET %s: %v", f.Name, err)
		}
		targets = append(targets, quoteName(f.Name))
		exprs = append(exprs, sb.String())
	}
	verb := "INSERT INTO"
	switch {
	case st.Ignore:
		verb = "INSERT IGNORE INTO"
	case st.Replace:
		verb = "REPLACE INTO"
	}
	st.Insert = fmt.Sprintf("%s %s (%s) SELECT %s FROM %s", verb, quoteName(t.Name), strings.Join(targets, ", "),
		strings.Join(exprs, ", "), quoteName(LoadStagingName))
	return nil
}

// loadColumn is the staging field of t's column name: its type (a
// TIMESTAMP read as the DATETIME the session's zone makes it, as INSERT
// converts it), nullable, with nothing else of the column's.
func (b *binder) loadColumn(t *columnar.Table, name string) (columnar.Field, error) {
	for _, f := range t.Fields {
		if strings.EqualFold(f.Name, name) {
			typ := f.Type
			if typ.Timestamp {
				typ.Timestamp = false
			}
			return columnar.Field{Name: f.Name, Type: typ, Nullable: true}, nil
		}
	}
	return columnar.Field{}, b.errCode(b.wordPos(name, -1), ErBadField, "Unknown column '%s' in 'field list'", name)
}

// missingFieldText is what a lenient LOAD DATA stores in column name for
// a record without its field: MySQL resets the field (Field::reset), which
// is its implicit default, 0 or the empty string; NULL for a nullable column, and where
// gpusql stores no implicit default (dates) NULL too, which the INSERT
// then refuses or adjusts as any NULL.
func missingFieldText(t *columnar.Table, name string) *string {
	for _, f := range t.Fields {
		if f.Name != name || f.Nullable {
			continue
		}
		switch c := implicitDefault(f.Type); {
		case c == nil:
		case f.Type.ID == columnar.String:
			s := ""
			return &s
		default:
			s := "0"
			return &s
		}
	}
	return nil
}

// loadVarRewriter turns the list's user variables into the staging
// table's columns of their names.
type loadVarRewriter struct{ vars map[string]bool }

func (r *loadVarRewriter) Enter(n ast.Node) (ast.Node, bool) { return n, false }

func (r *loadVarRewriter) Leave(n ast.Node) (ast.Node, bool) {
	if v, ok := n.(*ast.VariableExpr); ok && !v.IsSystem && v.Value == nil && r.vars[strings.ToLower(v.Name)] {
		return &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr("@" + strings.ToLower(v.Name))}}, true
	}
	return n, true
}

func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
