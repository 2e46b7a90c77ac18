package sql

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// UPDATE and DELETE are bound to ordinary queries over the table: the rows
// the WHERE clause selects, each with its row number (and, for UPDATE, its
// new values). The engine runs that query on the session's executor like any
// SELECT and then rebuilds the table's columns from the result, so both
// statements get every expression, subquery and executor the query path has,
// and a failure leaves the old snapshot in place.

// RowIDColumn names the row-number column added to the scanned snapshot. A
// name with spaces cannot collide with a column a user can write unquoted.
const RowIDColumn = "gpusql row id"

// Update sets columns of the rows of Snapshot selected by Source, whose
// output is the row number (BIGINT) then one new value per Targets entry,
// in Targets order (values are not yet converted to the column types: the
// engine converts them, naming the column and row of a value that does not
// fit).
type Update struct {
	DMLReads
	Table    string
	Snapshot *columnar.Table
	Targets  []int
	Source   Plan
	// Touch are the ON UPDATE CURRENT_TIMESTAMP columns the SET list does
	// not name: in each row whose values change they take Now (the
	// statement's clock, microseconds; rounded to each column's fsp).
	Touch []int
	Now   int64
	// SetsLastInsertID: SET c = LAST_INSERT_ID(expr), c being
	// Targets[LastInsertIDTarget]; c's value in the last row updated
	// becomes the connection's LAST_INSERT_ID().
	SetsLastInsertID   bool
	LastInsertIDTarget int
	// Ignore (UPDATE IGNORE) leaves the rows whose new values break a
	// CHECK constraint or a foreign key as they were.
	Ignore bool
	// StoreError is strict mode's error for a SET constant its column
	// cannot take, raised once a row matches; StoreWarnings the warnings
	// of such constants a lenient UPDATE adjusted, noted for every row
	// (update_store.go).
	StoreError    error
	StoreWarnings []StoreWarning
	// Recursive are the WITH RECURSIVE tables Source reads (WITH ...
	// UPDATE), computed before it runs.
	Recursive []*RecursiveCTE
}

// Delete removes the rows of Snapshot whose row numbers Source returns;
// Recursive as Update's.
type Delete struct {
	DMLReads
	Table     string
	Snapshot  *columnar.Table
	Source    Plan
	Recursive []*RecursiveCTE
}

func (*Update) statement() {}
func (*Delete) statement() {}

// withRowID returns t with a row-number column appended (sharing t's column
// vectors and statistics), for the scan under UPDATE and DELETE.
func withRowID(t *columnar.Table) *columnar.Table {
	ids := columnar.NewColumn(columnar.TInt64, t.Rows, false)
	for i := range ids.I64 {
		ids.I64[i] = int64(i)
	}
	out := &columnar.Table{
		Name:    t.Name,
		Fields:  append(append([]columnar.Field(nil), t.Fields...), columnar.Field{Name: RowIDColumn, Type: columnar.TInt64}),
		Columns: append(append([]*columnar.Column(nil), t.Columns...), ids),
		Rows:    t.Rows,
		Stats:   append(append([][]columnar.ChunkStats(nil), t.Stats...), nil),
	}
	columnar.ComputeStats(out)
	return out
}

// WithRowID is t with the row-number column RowIDColumn appended, for
// queries the engine runs over a snapshot that must place their rows.
func WithRowID(t *columnar.Table) *columnar.Table { return withRowID(t) }

// dmlTable resolves the single table of an UPDATE or DELETE, rejecting the
// multi-table forms (the binder sends those to dml_multi.go), and returns
// the scope its expressions bind over: the snapshot's columns (the row
// number hidden) filtered by where, then sorted and cut by ORDER BY and
// LIMIT (dml_order.go).
func (b *binder) dmlTable(verb string, refs *ast.TableRefsClause, where ast.ExprNode, order *ast.OrderByClause, limit *ast.Limit) (*columnar.Table, *scope, error) {
	if refs == nil || refs.TableRefs == nil {
		return nil, nil, b.errf(b.start, "%s needs a table", verb)
	}
	j := refs.TableRefs
	ts, ok := j.Left.(*ast.TableSource)
	var tn *ast.TableName
	if ok {
		tn, ok = ts.Source.(*ast.TableName)
	}
	if !ok || j.Right != nil {
		return nil, nil, b.errf(b.start, "unsupported: multi-table %s (name one table)", verb)
	}
	t, err := b.table(tn)
	if err != nil {
		return nil, nil, err
	}
	q := ts.AsName.O
	if q == "" {
		q = t.Name
	}
	scan := newScan(withRowID(t), q)
	cols := qualify(names(scan.Out), q)
	cols[len(cols)-1].hidden = true
	sc := &scope{plan: b.zoneScan(scan), cols: cols}
	if where != nil {
		restore := b.inClause("where clause")
		_, err := b.filter(where, sc, false)
		restore()
		if err != nil {
			return nil, nil, err
		}
	}
	restore := b.inClause("order clause")
	sc, err = b.dmlOrderLimit(sc, order, limit)
	restore()
	if err != nil {
		return nil, nil, err
	}
	return t, sc, nil
}

func (b *binder) deleteStmt(n *ast.DeleteStmt) (Statement, error) {
	if n.IsMultiTable {
		return b.multiDelete(n)
	}
	pop, err := b.pushCTEs(n.With) // WITH ... DELETE: the CTEs serve the WHERE's subqueries
	if err != nil {
		return nil, err
	}
	defer pop()
	t, sc, err := b.dmlTable("DELETE", n.TableRefs, n.Where, n.Order, n.Limit)
	if err != nil {
		return nil, err
	}
	if err := b.selfReference(t.Name, n.Where, orderNode(n.Order)); err != nil {
		return nil, err
	}
	id := len(sc.cols) - 1
	src := newProject(sc.plan, []Expr{sc.colRef(id)}, []string{RowIDColumn})
	return &Delete{Table: t.Name, Snapshot: t, Source: src}, nil
}

// update binds UPDATE t SET c = e, ... [WHERE ...]. MySQL assigns left to
// right and a later expression sees the columns earlier ones set (SET a =
// a + 1, b = a gives b the new a), so each assignment is a Project over the
// previous one's output that replaces its column by the value cast to the
// column type. The value as computed is carried alongside (appended after
// the table's columns) for the engine, which converts it with range checks.
func (b *binder) update(n *ast.UpdateStmt) (Statement, error) {
	if n.MultipleTable || joinsTables(n.TableRefs) {
		return b.multiUpdate(n)
	}
	if b.lenientWrites(n.IgnoreErr) {
		// A NULL into a NOT NULL column is the engine's to adjust
		// (engine/lenient_store.go).
		b.nullToDefault = true
		defer func() { b.nullToDefault = false }()
	} else {
		b.checkStores, b.storeError = true, nil
		defer func() { b.checkStores, b.storeError = false, nil }()
	}
	pop, err := b.pushCTEs(n.With) // WITH ... UPDATE: the CTEs serve SET's and WHERE's subqueries
	if err != nil {
		return nil, err
	}
	defer pop()
	t, sc, err := b.dmlTable("UPDATE", n.TableRefs, n.Where, n.Order, n.Limit)
	if err != nil {
		return nil, err
	}
	self := []ast.Node{n.Where, orderNode(n.Order)}
	for _, a := range n.List {
		self = append(self, a.Expr)
	}
	if err := b.selfReference(t.Name, self...); err != nil {
		return nil, err
	}
	width := len(sc.cols) // table columns and the row number
	list, idColumn := lastInsertIDAssignment(n.List)
	sc, targets, raw, err := b.assignments(t, sc.cols[0].table, list, sc)
	if err != nil {
		return nil, err
	}
	out := []Expr{sc.colRef(width - 1)}
	outNames := []string{RowIDColumn}
	for _, k := range targets {
		var e Expr = sc.colRef(raw[k])
		if e.Type().ID == columnar.String && t.Fields[k].Type.ID != columnar.String && !StoresText(e.Type(), t.Fields[k].Type) && !storesDateText(e, t.Fields[k]) {
			e = storeCast(e, t.Fields[k].Type) // the engine stores numbers, not text (but reads text into numbers, StoresText)
		}
		out = append(out, e)
		outNames = append(outNames, t.Fields[k].Name)
	}
	src := newProject(sc.plan, out, outNames)
	u := &Update{Table: t.Name, Snapshot: t, Targets: targets, Source: src, Ignore: n.IgnoreErr}
	if b.storeError != nil {
		u.StoreError = b.storeError
	}
	u.StoreWarnings, b.storeWarnings = b.storeWarnings, nil
	if idColumn != "" {
		k, _ := b.assignTarget(t, sc.cols[0].table, &ast.ColumnName{Name: ast.NewCIStr(idColumn)})
		if tp := sc.colRef(raw[k]).Type(); !tp.IsInteger() || tp.ID == columnar.Bool {
			return nil, b.errf(b.wordPos(idColumn, -1), "unsupported: LAST_INSERT_ID(expr) of %s (give it an integer expression)", tp)
		}
		u.SetsLastInsertID, u.LastInsertIDTarget = true, slices.Index(targets, k)
	}
	for k, f := range t.Fields {
		if f.OnUpdateNow && !containsInt(targets, k) {
			u.Touch = append(u.Touch, k)
			u.Now = b.stmtMicros(columnar.MaxFsp)
		}
	}
	return u, nil
}

// assignments binds SET a = e, ... over sc, whose first columns are t's,
// left to right as MySQL does: each assignment sees the values the earlier
// ones set (SET a = a + 1, b = a gives b the new a). It returns the scope
// after the last one, the columns assigned (in first-assigned order) and,
// for each, the scope index of its final value.
func (b *binder) assignments(t *columnar.Table, qual string, list []*ast.Assignment, sc *scope) (*scope, []int, map[int]int, error) {
	var targets []int
	raw := map[int]int{} // table column → scope index of its latest raw value
	for _, a := range list {
		k, err := b.assignTarget(t, qual, a.Column)
		if err != nil {
			return nil, nil, nil, err
		}
		e, err := b.assignValue(t, t.Fields[k], a.Expr, sc)
		if err != nil {
			return nil, nil, nil, err
		}
		// Only the named columns go on: a scalar subquery may have
		// appended join columns after them.
		exprs := make([]Expr, 0, len(sc.cols)+1)
		for i := range sc.cols {
			if i == k {
				exprs = append(exprs, castTo(e, t.Fields[k].Type))
			} else {
				exprs = append(exprs, sc.colRef(i))
			}
		}
		exprs = append(exprs, e)
		cols := append(append([]scopeCol(nil), sc.cols...), scopeCol{hidden: true})
		p := newProject(sc.plan, exprs, append(names(sc.plan.Schema())[:len(sc.cols)], "set"+strconv.Itoa(len(sc.cols))))
		sc = &scope{plan: p, cols: cols}
		if _, seen := raw[k]; !seen {
			targets = append(targets, k)
		}
		raw[k] = len(exprs) - 1
	}
	return sc, targets, raw, nil
}

// assignTarget finds the column a SET assignment names (optionally
// qualified by the table's name or alias).
func (b *binder) assignTarget(t *columnar.Table, qual string, c *ast.ColumnName) (int, error) {
	pos := b.wordPos(c.Name.O, -1)
	if q := c.Table.O; q != "" && !strings.EqualFold(q, qual) && !strings.EqualFold(q, t.Name) {
		return 0, b.errCode(pos, ErBadField, "Unknown column '%s.%s' in 'field list'", q, c.Name.O)
	}
	for k, f := range t.Fields {
		if strings.EqualFold(f.Name, c.Name.O) {
			return k, nil
		}
	}
	return 0, b.errCode(pos, ErBadField, "Unknown column '%s' in 'field list'", c.Name.O)
}

// assignValue binds the value of SET c = v. DEFAULT is the column's
// default (or NULL); a NULL constant into a NOT NULL column fails here, at
// its position, and the engine checks computed values.
func (b *binder) assignValue(t *columnar.Table, f columnar.Field, v ast.ExprNode, sc *scope) (Expr, error) {
	pos := b.posOr(v, b.wordPos(f.Name, -1))
	b.target = t
	defer func() { b.target = nil }()
	if d, ok := v.(*ast.DefaultExpr); ok && f.Generated != "" && d.Name == nil {
		// SET g = DEFAULT: the engine computes the column anyway.
		return b.expr(&ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(f.Name)}}, sc)
	} else if f.Generated != "" {
		return nil, b.generatedValueError(pos, f.Name, t.Name)
	}
	if d, ok := v.(*ast.DefaultExpr); ok {
		return b.defaultOf(d, t, f, pos)
	}
	e, err := b.expr(v, sc)
	if err != nil {
		return nil, err
	}
	if c, ok := e.(*Const); ok && c.Null && !f.Nullable && !(b.nullToDefault && implicitDefault(f.Type) != nil) {
		err := b.errCode(pos, ErBadNull, "Column '%s' cannot be null", f.Name)
		if !b.checkStores {
			return nil, err
		}
		// As a constant the column cannot take: MySQL's error once a row
		// matches, none when none does (update_store.go).
		if b.storeError == nil {
			b.storeError = err
		}
		return e, nil
	}
	if !castable(e.Type(), f.Type) {
		return nil, b.errf(pos, "type mismatch: cannot assign %s to column '%s' %s", e.Type(), f.Name, f.Type)
	}
	if err := b.storeConstError(e, f, pos); err != nil && b.checkStores {
		if b.storeError == nil {
			b.storeError = err
		}
		return &Const{T: f.Type, Null: true}, nil
	} else if err != nil && b.nullToDefault {
		if v, w, ok := b.adjustConst(e.(*Const), Column{Name: f.Name, Type: f.Type}, "\x00"); ok {
			b.storeWarnings = append(b.storeWarnings, storeWarning(t, f, w))
			return v, nil
		}
	}
	return e, nil
}

// storesDateText reports text that UPDATE stores into a DATE column as
// such, as INSERT ... SELECT does: the engine parses it as MySQL's store
// does, so text that is no date is 1292 Incorrect date value: 'x' for
// column 'd' at row n in strict mode and, outside it, 1265 Data truncated
// for column 'd' at row n (engine/lenient_store.go), not a cast's 1292
// without a column.
func storesDateText(e Expr, f columnar.Field) bool {
	return f.Type.ID == columnar.Date && !e.Type().JSON && e.Type().Members == ""
}
