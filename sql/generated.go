package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Generated columns: b INT [GENERATED ALWAYS] AS (expr) [VIRTUAL | STORED].
// The binder checks the expression when the table is created (MySQL's
// rules: no subquery, variable or non-deterministic function, no
// AUTO_INCREMENT column, only generated columns defined before it) and
// keeps it as MySQL prints it (columnar.Field.Generated). Writes give the
// column no value of their own — a value other than DEFAULT is MySQL's error
// 3105 — and the engine computes it on every snapshot a statement commits
// (engine/generated.go). VIRTUAL columns are stored like STORED ones: the
// difference is where MySQL keeps them, not what queries see.

// generatedColumns binds the AS (expr) options of CREATE TABLE's columns
// into fields (in column order, so a column sees the generated ones before
// it).
func (b *binder) generatedColumns(n *ast.CreateTableStmt, fields []columnar.Field) error {
	for i, c := range n.Cols {
		for _, o := range c.Options {
			if o.Tp != ast.ColumnOptionGenerated {
				continue
			}
			if err := b.generatedColumn(fields, i, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// generatedColumn binds the expression of generated column i.
func (b *binder) generatedColumn(fields []columnar.Field, i int, o *ast.ColumnOption) error {
	f := &fields[i]
	pos := b.posOr(o.Expr, b.wordPos(f.Name, -1))
	if f.AutoIncrement || f.HasDefault {
		return b.errf(pos, "Incorrect usage of DEFAULT or AUTO_INCREMENT and generated column '%s'", f.Name)
	}
	var bad error
	walkAST(o.Expr, func(n ast.Node) bool {
		if bad == nil {
			bad = b.generatedNode(n, fields, i, pos)
		}
		return bad == nil
	})
	if bad != nil {
		return bad
	}
	t := columnar.NewEmptyTable("generated", fields)
	scan := newScan(t, "")
	e, err := b.expr(o.Expr, &scope{plan: scan, cols: qualify(names(scan.Out), "")})
	if err != nil {
		return err
	}
	if !castable(e.Type(), f.Type) {
		return b.errf(pos, "type mismatch: generated column '%s' %s cannot hold %s", f.Name, f.Type, e.Type())
	}
	f.Generated, f.GeneratedStored = mysqlExprText(o.Expr), o.Stored
	return nil
}

// generatedNode refuses what MySQL refuses in a generated column's
// expression (field i's).
func (b *binder) generatedNode(n ast.Node, fields []columnar.Field, i, pos int) error {
	name := fields[i].Name
	switch n := n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr, *ast.VariableExpr, *ast.DefaultExpr:
		return b.errf(pos, "Expression of generated column '%s' contains a disallowed function.", name)
	case *ast.FuncCallExpr:
		if disallowedInCheck[n.FnName.L] {
			return b.errf(pos, "Expression of generated column '%s' contains a disallowed function: %s.", name, n.FnName.L)
		}
	case *ast.ColumnNameExpr:
		col := n.Name.Name.O
		k := -1
		for j := range fields {
			if strings.EqualFold(fields[j].Name, col) {
				k = j
			}
		}
		switch {
		case k < 0:
			return b.errf(pos, "Unknown column '%s' in 'generated column function'", col)
		case k == i || (k > i && fields[k].Generated != ""):
			return b.errf(pos, "Generated column can refer only to generated columns defined prior to it.")
		case fields[k].AutoIncrement:
			return b.errf(pos, "Generated column '%s' cannot refer to auto-increment column.", name)
		}
	}
	return nil
}

// markGenerated sets a placeholder expression on the generated columns of
// CREATE TABLE before any is bound, so an expression can tell a later
// generated column (refused) from a later plain one (allowed).
func markGenerated(n *ast.CreateTableStmt, fields []columnar.Field) {
	for i, c := range n.Cols {
		for _, o := range c.Options {
			if o.Tp == ast.ColumnOptionGenerated {
				fields[i].Generated = "?"
			}
		}
	}
}

// generatedValueError is MySQL's error 3105 for a value given to a
// generated column.
func (b *binder) generatedValueError(pos int, column, table string) error {
	return b.errf(pos, "The value specified for generated column '%s' in table '%s' is not allowed.", column, table)
}

// generatedColumnUse is MySQL's error 3108 when ALTER TABLE drops or
// renames a column a generated column reads.
func (b *binder) generatedColumnUse(fields []columnar.Field, column string) error {
	quoted := "`" + strings.ToLower(strings.ReplaceAll(column, "`", "``")) + "`"
	for _, f := range fields {
		if f.Generated != "" && strings.Contains(strings.ToLower(f.Generated), quoted) {
			return b.errf(b.wordPos(column, -1), "Column '%s' has a generated column dependency.", column)
		}
	}
	return nil
}

// addGenerated binds the expression of the generated column ALTER TABLE
// ADD COLUMN puts at fields[at]; the engine computes its values for the
// rows already there as it commits the rewritten table.
func (b *binder) addGenerated(fields []columnar.Field, at int, c *ast.ColumnDef) error {
	fields[at].Generated = ""
	for _, o := range c.Options {
		if o.Tp == ast.ColumnOptionGenerated {
			return b.generatedColumn(fields, at, o)
		}
	}
	return nil
}
