package sql

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// OnDuplicate is INSERT ... ON DUPLICATE KEY UPDATE a = e, ...: a proposed
// row whose PRIMARY KEY or UNIQUE key matches a row of the table updates
// that row instead of being inserted. The engine finds the matches (they
// depend on the rows the statement inserted and updated before), gathers
// each matched row next to the proposed one into a pairs table (PairFields)
// and runs the plan Bind returns over it; the assignments are plain
// expressions over both rows, so they run on any executor like UPDATE's.
type OnDuplicate struct {
	// Targets are the table columns assigned, in first-assigned order.
	Targets []int
	// KeyChange is set when an assignment sets a column of a unique
	// index: matching then depends on every update before it, so the
	// engine applies the updates one by one.
	KeyChange bool
	// Touch and Now: the ON UPDATE CURRENT_TIMESTAMP columns the list does
	// not assign, set to Now in each row the update changes (as Update's).
	Touch []int
	Now   int64
	// Bind returns the plan computing, for each row of pairs, the new
	// values of Targets (one column each, in order). It was checked at
	// bind time over an empty pairs table, so it fails only where the
	// data does (a subquery's runtime error).
	Bind func(pairs *columnar.Table) (Plan, error)
	// SetsLastInsertID: c = LAST_INSERT_ID(expr), c being
	// Targets[LastInsertIDTarget] (as Update's): c's value in the last
	// row updated becomes LAST_INSERT_ID().
	SetsLastInsertID   bool
	LastInsertIDTarget int
}

// PairFields are the columns of OnDuplicate's pairs table: the existing
// row's (named as the table's, so a = a + 1 reads it) and then the
// proposed row's, under names no identifier can spell; VALUES(a) reads
// those.
func PairFields(t *columnar.Table) []columnar.Field {
	out := append([]columnar.Field(nil), t.Fields...)
	for _, f := range t.Fields {
		f.Name = "\x00values." + f.Name
		f.Nullable = true
		out = append(out, f)
	}
	return out
}

// onDuplicate binds the ON DUPLICATE KEY UPDATE list of an INSERT into t.
func (b *binder) onDuplicate(t *columnar.Table, list []*ast.Assignment, unique [][]int) (*OnDuplicate, error) {
	exprs := make([]ast.Node, len(list))
	for i, a := range list {
		exprs[i] = a.Expr
	}
	if err := b.selfReference(t.Name, exprs...); err != nil {
		return nil, err
	}
	list, idColumn := lastInsertIDAssignment(list)
	od := &OnDuplicate{}
	od.Bind = func(pairs *columnar.Table) (Plan, error) {
		// A constant its column cannot take (NULL into NOT NULL, 'abc'
		// into INT) is MySQL's store error (1048, 1366) only when a row
		// conflicts and is updated: not over no pair (the check below),
		// only when the engine binds the pairs it has.
		check, stored := b.checkStores, b.storeError
		b.checkStores, b.storeError = true, nil
		defer func() { b.checkStores, b.storeError = check, stored }()
		plan, targets, err := b.bindOnDuplicate(t, list, pairs)
		if err == nil && b.storeError != nil && pairs.Rows > 0 {
			err = b.storeError
		}
		od.Targets = targets
		return plan, err
	}
	empty := columnar.NewEmptyTable(t.Name, PairFields(t))
	if _, err := od.Bind(empty); err != nil {
		return nil, err
	}
	if idColumn != "" {
		if err := b.onDuplicateSetsID(t, od, idColumn, empty); err != nil {
			return nil, err
		}
	}
	for _, k := range od.Targets {
		for _, cols := range unique {
			if containsInt(cols, k) {
				od.KeyChange = true
			}
		}
	}
	for k, f := range t.Fields {
		if f.OnUpdateNow && !containsInt(od.Targets, k) {
			od.Touch = append(od.Touch, k)
			od.Now = b.stmtMicros(columnar.MaxFsp)
		}
	}
	return od, nil
}

// onDuplicateSetsID records c = LAST_INSERT_ID(expr) of column name in
// od, whose value must be an integer, as in UPDATE.
func (b *binder) onDuplicateSetsID(t *columnar.Table, od *OnDuplicate, name string, empty *columnar.Table) error {
	k, _ := b.assignTarget(t, t.Name, &ast.ColumnName{Name: ast.NewCIStr(name)})
	i := slices.Index(od.Targets, k)
	plan, err := od.Bind(empty)
	if err != nil || i < 0 {
		return err
	}
	if tp := plan.Schema()[i].Type; !tp.IsInteger() || tp.ID == columnar.Bool {
		return b.errf(b.wordPos(name, -1), "unsupported: LAST_INSERT_ID(expr) of %s (give it an integer expression)", tp)
	}
	od.SetsLastInsertID, od.LastInsertIDTarget = true, i
	return nil
}

// bindOnDuplicate binds the assignments over a scan of pairs: the
// existing row's columns resolve by name (qualified by the table's name
// or not), the proposed row's only through VALUES(col) (valuesRef).
func (b *binder) bindOnDuplicate(t *columnar.Table, list []*ast.Assignment, pairs *columnar.Table) (Plan, []int, error) {
	scan := newScan(pairs, t.Name)
	cols := qualify(names(scan.Out), t.Name)
	for i := len(t.Fields); i < len(cols); i++ {
		cols[i].hidden = true
	}
	b.values = &valuesRow{table: t}
	defer func() { b.values = nil }()
	sc, targets, raw, err := b.assignments(t, t.Name, list, &scope{plan: b.zoneScan(scan), cols: cols})
	if err != nil {
		return nil, nil, err
	}
	out := make([]Expr, len(targets))
	outNames := make([]string, len(targets))
	for i, k := range targets {
		var e Expr = sc.colRef(raw[k])
		if e.Type().ID == columnar.String && t.Fields[k].Type.ID != columnar.String {
			e = storeCast(e, t.Fields[k].Type) // the engine stores numbers, not text
		}
		out[i], outNames[i] = e, t.Fields[k].Name
	}
	return newProject(sc.plan, out, outNames), targets, nil
}

// valuesRow is what VALUES(col) reads while ON DUPLICATE KEY UPDATE is
// bound: the proposed row, columns len(table.Fields) on of the pairs scan.
// Every scope of the assignments keeps the scan's columns at their
// positions (assignments projects them through), so the index holds.
type valuesRow struct {
	table *columnar.Table
}

// ErWarnDeprecatedSyntax is MySQL's 1287; valuesDeprecated its text for
// VALUES(col) in ON DUPLICATE KEY UPDATE.
const (
	ErWarnDeprecatedSyntax = 1287
	valuesDeprecated       = "'VALUES function' is deprecated and will be removed in a future release. Please use an alias (INSERT INTO ... VALUES (...) AS alias) and replace VALUES(col) in the ON DUPLICATE KEY UPDATE clause with alias.col instead"
)

// valuesRef binds VALUES(col).
func (b *binder) valuesRef(n *ast.ValuesExpr, sc *scope, pos int) (Expr, error) {
	if b.values == nil {
		return nil, b.errf(pos, "unsupported: VALUES(col) outside INSERT ... ON DUPLICATE KEY UPDATE")
	}
	t := b.values.table
	name := n.Column.Name.Name.O
	for k, f := range t.Fields {
		if strings.EqualFold(f.Name, name) {
			i := len(t.Fields) + k
			if sc.parent != nil || i >= len(sc.cols) || !sc.cols[i].hidden {
				return nil, b.errf(pos, "unsupported: VALUES(%s) inside a subquery", name)
			}
			if pos > 0 {
				// Written, not a row alias's column rewritten to it:
				// MySQL 8.0.20+ notes each one.
				b.ddlWarnings = append(b.ddlWarnings, Warning{Level: "Warning", Code: ErWarnDeprecatedSyntax, Message: valuesDeprecated})
			}
			return sc.colRef(i), nil
		}
	}
	return nil, b.errCode(pos, ErBadField, "Unknown column '%s' in 'field list'", name)
}
