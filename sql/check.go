package sql

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// CHECK constraints (MySQL 8.0.16+). The binder validates each condition
// when the constraint is defined — the columns it reads exist, a column
// constraint reads only its own column, no subquery, variable or
// non-deterministic function — and stores it as text in MySQL's printed
// form (catalog.Check.Clause). The engine enforces the enforced ones on
// every snapshot a statement commits (engine/check_constraints.go).

// checkDef is one CHECK clause of CREATE or ALTER TABLE before naming.
type checkDef struct {
	name     string
	expr     ast.ExprNode
	enforced bool
	column   string // the column of a column constraint; "" for a table one
}

// AddCheck is ALTER TABLE t ADD [CONSTRAINT name] CHECK (...).
type AddCheck struct {
	Table string
	Check catalog.Check
}

// DropCheck is ALTER TABLE t DROP CHECK name (and DROP CONSTRAINT name
// when name is a check constraint).
type DropCheck struct {
	Table, Name string
}

// AlterCheck is ALTER TABLE t ALTER CHECK name [NOT] ENFORCED.
type AlterCheck struct {
	Table, Name string
	Enforced    bool
}

func (*AddCheck) statement()   {}
func (*DropCheck) statement()  {}
func (*AlterCheck) statement() {}

// columnChecks collects the CHECK clauses of CREATE TABLE in the order
// they are written.
func columnChecks(n *ast.CreateTableStmt) []checkDef {
	var out []checkDef
	for _, c := range n.Cols {
		for _, o := range c.Options {
			if o.Tp == ast.ColumnOptionCheck {
				out = append(out, checkDef{name: o.ConstraintName, expr: o.Expr, enforced: o.Enforced, column: c.Name.Name.O})
			}
		}
	}
	for _, con := range n.Constraints {
		if con.Tp == ast.ConstraintCheck {
			out = append(out, checkDef{name: con.Name, expr: con.Expr, enforced: con.Enforced})
		}
	}
	// MySQL numbers t_chk_N in the order the clauses are written, table
	// constraints among the columns; the parser keeps the two apart, so
	// the conditions' offsets in the text put them back in order.
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].expr.OriginTextPosition() < out[j].expr.OriginTextPosition()
	})
	return out
}

// bindChecks names and validates check clauses of table over fields.
// Unnamed ones get MySQL's table_chk_N, N counting on from the largest
// generated ordinal in existing.
func (b *binder) bindChecks(table string, fields []columnar.Field, defs []checkDef, existing []catalog.Check) ([]catalog.Check, error) {
	ordinal := 0
	prefix := strings.ToLower(table) + "_chk_"
	for _, ck := range existing {
		if n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(ck.Name), prefix)); err == nil && strings.HasPrefix(strings.ToLower(ck.Name), prefix) && n > ordinal {
			ordinal = n
		}
	}
	taken := map[string]bool{}
	for _, ck := range existing {
		taken[strings.ToLower(ck.Name)] = true
	}
	var out []catalog.Check
	for _, d := range defs {
		name := d.name
		if name == "" {
			ordinal++
			name = table + "_chk_" + strconv.Itoa(ordinal)
		}
		if taken[strings.ToLower(name)] || b.cat.CheckNameTaken(name) {
			return nil, b.errf(b.wordPos(name, -1), "Duplicate check constraint name '%s'.", name)
		}
		taken[strings.ToLower(name)] = true
		ck, err := b.bindCheck(table, fields, name, d)
		if err != nil {
			return nil, err
		}
		out = append(out, ck)
	}
	return out, nil
}

// bindCheck validates one clause and prints it as MySQL stores it.
func (b *binder) bindCheck(table string, fields []columnar.Field, name string, d checkDef) (catalog.Check, error) {
	pos := b.posOr(d.expr, b.wordPos("CHECK", -1))
	cols := map[string]bool{}
	var bad error
	walkAST(d.expr, func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		bad = b.checkNode(n, name, d.column, fields, cols, pos)
		return bad == nil
	})
	if bad != nil {
		return catalog.Check{}, bad
	}
	t := columnar.NewEmptyTable(table, fields)
	scan := newScan(t, table)
	e, err := b.expr(d.expr, &scope{plan: scan, cols: qualify(names(scan.Out), table)})
	if err != nil {
		return catalog.Check{}, err
	}
	if e.Type().ID != columnar.Bool {
		// MySQL wants a condition: CHECK (f1) or CHECK (f1 + 10) is refused.
		return catalog.Check{}, b.errf(pos, "An expression of non-boolean type specified to a check constraint '%s'.", name)
	}
	clause := mysqlExprText(d.expr)
	if !strings.HasPrefix(clause, "(") || !strings.HasSuffix(clause, ")") {
		clause = "(" + clause + ")"
	}
	ck := catalog.Check{Name: name, Clause: clause, Enforced: d.enforced}
	for c := range cols {
		ck.Columns = append(ck.Columns, c)
	}
	return ck, nil
}

// checkNode refuses what MySQL refuses in a check condition, and records
// the columns it reads.
func (b *binder) checkNode(n ast.Node, name, column string, fields []columnar.Field, cols map[string]bool, pos int) error {
	switch n := n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr, *ast.DefaultExpr:
		return b.errf(pos, "An expression of a check constraint '%s' contains disallowed function.", name)
	case *ast.VariableExpr:
		return b.errf(pos, "An expression of a check constraint '%s' cannot refer to a user or system variable.", name)
	case *ast.RowExpr:
		return b.errf(pos, "Check constraint '%s' cannot refer to a row value.", name)
	case *ast.FuncCallExpr:
		if disallowedInCheck[n.FnName.L] {
			return b.errf(pos, "An expression of a check constraint '%s' contains disallowed function: %s.", name, n.FnName.L)
		}
	case *ast.ColumnNameExpr:
		col := n.Name.Name.O
		var f *columnar.Field
		for i := range fields {
			if strings.EqualFold(fields[i].Name, col) {
				f = &fields[i]
			}
		}
		switch {
		case f == nil:
			return b.errf(pos, "Check constraint '%s' refers to non-existing column '%s'.", name, col)
		case column != "" && !strings.EqualFold(col, column):
			return b.errf(pos, "Column check constraint '%s' references other column.", name)
		case f.AutoIncrement:
			return b.errf(pos, "Check constraint '%s' cannot refer to an auto-increment column.", name)
		}
		cols[strings.ToLower(f.Name)] = true
	}
	return nil
}

// disallowedInCheck are the functions MySQL refuses in a CHECK condition:
// non-deterministic ones and those reading the session or the server.
var disallowedInCheck = map[string]bool{}

func init() {
	for _, f := range strings.Fields(`benchmark connection_id curdate current_date current_time current_timestamp
		current_role current_user curtime database found_rows get_lock is_free_lock is_used_lock last_insert_id
		load_file localtime localtimestamp master_pos_wait now rand random_bytes release_all_locks release_lock
		row_count schema session_user sleep sysdate system_user unix_timestamp user utc_date utc_time
		utc_timestamp uuid uuid_short values version`) {
		disallowedInCheck[f] = true
	}
}

// checkColumnUse is MySQL's error 3959 when ALTER TABLE drops or renames a
// column a check constraint reads (3108 when a generated column reads it,
// 1828/1829 when a foreign key names it).
func (b *binder) checkColumnUse(table, column string) error {
	if t, ok := b.cat.Table(table); ok {
		if err := b.generatedColumnUse(t.Fields, column); err != nil {
			return err
		}
	}
	if err := b.foreignKeyColumnUse(table, column); err != nil {
		return err
	}
	for _, ck := range b.cat.Checks(table) {
		for _, c := range ck.Columns {
			if strings.EqualFold(c, column) {
				return b.errf(b.wordPos(column, -1), "Check constraint '%s' uses column '%s', hence column cannot be dropped or renamed.", ck.Name, column)
			}
		}
	}
	return nil
}

// alterCheck binds the CHECK forms of ALTER TABLE; ok is false for other
// changes.
func (b *binder) alterCheck(t *columnar.Table, spec *ast.AlterTableSpec) (st Statement, ok bool, err error) {
	switch spec.Tp {
	case ast.AlterTableAddConstraint:
		con := spec.Constraint
		if con.Tp != ast.ConstraintCheck {
			return nil, false, nil
		}
		list, err := b.bindChecks(t.Name, t.Fields, []checkDef{{name: con.Name, expr: con.Expr, enforced: con.Enforced}}, b.cat.Checks(t.Name))
		if err != nil {
			return nil, true, err
		}
		return &AddCheck{Table: t.Name, Check: list[0]}, true, nil
	case ast.AlterTableDropCheck:
		return &DropCheck{Table: t.Name, Name: spec.Constraint.Name}, true, nil
	case ast.AlterTableAlterCheck:
		return &AlterCheck{Table: t.Name, Name: spec.Constraint.Name, Enforced: spec.Constraint.Enforced}, true, nil
	}
	return nil, false, nil
}

// CheckViolationQuery is the query the engine runs over a snapshot to find
// a row that breaks one of checks: one column per check, true where the
// condition is FALSE (NULL passes, as in MySQL), over at most the first
// such row.
func CheckViolationQuery(table string, checks []catalog.Check) string {
	conds := make([]string, len(checks))
	for i, ck := range checks {
		conds[i] = "NOT " + ck.Clause
	}
	return fmt.Sprintf("SELECT %s FROM `%s` WHERE %s LIMIT 1", strings.Join(conds, ", "),
		strings.ReplaceAll(table, "`", "``"), strings.Join(conds, " OR "))
}

// alterSpecs splits ALTER TABLE's changes into the column changes the
// binder applies together and the ADD [CONSTRAINT] CHECK clauses that may
// come with them (ALTER TABLE t ADD COLUMN c INT, DROP d, ADD CONSTRAINT
// ck CHECK (c > 0)); other changes are one per statement.
func (b *binder) alterSpecs(n *ast.AlterTableStmt) ([]*ast.AlterTableSpec, []checkDef, error) {
	if merged, ok := tableOptionsOnly(n.Specs); ok {
		return []*ast.AlterTableSpec{merged}, nil, nil
	}
	specs := slices.DeleteFunc(slices.Clone(n.Specs), ignoredOption)
	switch {
	case len(specs) == 0:
		return n.Specs[:1], nil, nil // ENGINE = InnoDB alone: the table stays
	case len(specs) == 1:
		return specs, nil, nil
	}
	var cols []*ast.AlterTableSpec
	var checks []checkDef
	refuse := b.errf(b.start, "unsupported: ALTER TABLE with %d changes (give one per statement; column changes may come together and with ADD CONSTRAINT ... CHECK)", len(specs))
	for _, sp := range specs {
		switch {
		case sp.Tp == ast.AlterTableAddConstraint && sp.Constraint.Tp == ast.ConstraintCheck:
			checks = append(checks, checkDef{name: sp.Constraint.Name, expr: sp.Constraint.Expr, enforced: sp.Constraint.Enforced})
		case isColumnChange(sp.Tp) || isIndexChange(sp):
			cols = append(cols, sp)
		default:
			return nil, nil, refuse
		}
	}
	if len(cols) == 0 {
		return nil, nil, refuse
	}
	return cols, checks, nil
}

// isIndexChange reports ADD INDEX, UNIQUE or PRIMARY KEY and DROP INDEX or
// PRIMARY KEY, which may come with column changes and each other (ALTER
// TABLE t ADD c INT, ADD INDEX (c); DROP PRIMARY KEY, ADD PRIMARY KEY (a, b)).
func isIndexChange(sp *ast.AlterTableSpec) bool {
	return isIndexAdd(sp) || sp.Tp == ast.AlterTableDropIndex || sp.Tp == ast.AlterTableDropPrimaryKey
}

// isIndexAdd reports ADD INDEX, UNIQUE or PRIMARY KEY.
func isIndexAdd(sp *ast.AlterTableSpec) bool {
	if sp.Tp != ast.AlterTableAddConstraint {
		return false
	}
	switch sp.Constraint.Tp {
	case ast.ConstraintPrimaryKey, ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex, ast.ConstraintKey, ast.ConstraintIndex:
		return true
	}
	return false
}

// tableOptionsOnly merges ALTER TABLE t COLLATE = c, COMMENT = 'x' (table
// options separated by commas, which the parser gives as one change
// each) into one change, so that each option takes effect.
func tableOptionsOnly(specs []*ast.AlterTableSpec) (*ast.AlterTableSpec, bool) {
	merged := &ast.AlterTableSpec{Tp: ast.AlterTableOption}
	for _, sp := range specs {
		if sp.Tp != ast.AlterTableOption {
			return nil, false
		}
		merged.Options = append(merged.Options, sp.Options...)
	}
	return merged, len(specs) > 1
}

// ignoredOption reports an ALTER TABLE change of table options that mean
// nothing to gpusql (ENGINE, COMMENT, ROW_FORMAT, ...: alterAutoIncrement),
// which may come with any other change.
func ignoredOption(sp *ast.AlterTableSpec) bool {
	if sp.Tp != ast.AlterTableOption {
		return false
	}
	for _, o := range sp.Options {
		switch o.Tp {
		case ast.TableOptionAutoIncrement, ast.TableOptionCharset, ast.TableOptionCollate:
			return false
		}
	}
	return true
}

// alterColumnsChecked binds a column change and the CHECK constraints it
// adds: inline ones on the new column definition, and extra.
func (b *binder) alterColumnsChecked(t *columnar.Table, specs []*ast.AlterTableSpec, extra []checkDef) (Statement, error) {
	st, err := b.alterColumns(t, specs)
	if err != nil {
		return nil, err
	}
	var defs []checkDef
	for _, spec := range specs {
		for _, c := range spec.NewColumns {
			for _, o := range c.Options {
				if o.Tp == ast.ColumnOptionCheck {
					defs = append(defs, checkDef{name: o.ConstraintName, expr: o.Expr, enforced: o.Enforced, column: c.Name.Name.O})
				}
			}
		}
	}
	defs = append(defs, extra...)
	if len(defs) == 0 {
		return st, nil
	}
	ac, ok := st.(*AlterColumns)
	if !ok {
		return nil, b.errf(b.start, "unsupported: CHECK constraints with this ALTER TABLE change")
	}
	if ac.Checks, err = b.bindChecks(t.Name, ac.Fields, defs, b.cat.Checks(t.Name)); err != nil {
		return nil, err
	}
	return ac, nil
}
