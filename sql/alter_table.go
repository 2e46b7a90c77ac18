package sql

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// AlterColumns is ALTER TABLE ADD / DROP / RENAME / MODIFY / CHANGE /
// ALTER COLUMN: the table is rewritten as Query (one output column per new
// field: the old values as they are, or cast when the new type is a
// string; an added column is its default or NULL), and the engine stores the values as
// INSERT does, so a value the new type cannot hold fails the statement
// and nothing changes. ColMap maps each old column to its new position
// (-1: dropped), for the table's indexes. Snapshot is the table the query
// reads; a change committed in between fails the statement.
type AlterColumns struct {
	Table    string
	Fields   []columnar.Field
	Query    *Query
	ColMap   []int
	Snapshot *columnar.Table
	// Checks are CHECK constraints the statement adds (ADD COLUMN c INT
	// CHECK (...), ADD CONSTRAINT ... CHECK beside the column change).
	Checks []catalog.Check
	// AddIndexes are keys the rewritten table gets (ADD INDEX, UNIQUE or
	// PRIMARY KEY beside column changes, or ADD PRIMARY KEY over nullable
	// columns, which the rewrite makes NOT NULL); their columns are
	// positions in Fields.
	AddIndexes []catalog.Index
	// DropIndexes name the indexes the statement drops.
	DropIndexes []string
	// Options, when not nil, are the table's options with a COMMENT
	// given beside the change (alterColumnsCommented).
	Options *catalog.TableOptions
	DDLWarnings
}

// RenameTable is RENAME TABLE a TO b [, c TO d] and ALTER TABLE a RENAME
// [TO] b; the pairs apply in order, all or none.
type RenameTable struct {
	From, To []string
}

// TruncateTable is TRUNCATE [TABLE] t: every row goes, the schema and
// indexes stay.
type TruncateTable struct {
	Table string
}

func (*AlterColumns) statement()  {}
func (*RenameTable) statement()   {}
func (*TruncateTable) statement() {}

func (b *binder) renameTable(n *ast.RenameTableStmt) (Statement, error) {
	st := &RenameTable{}
	made := map[string]bool{} // names earlier pairs create
	for _, t := range n.TableToTables {
		if !made[strings.ToLower(t.OldTable.Name.O)] {
			if _, err := b.table(t.OldTable); err != nil {
				return nil, err
			}
		}
		if err := b.tableNameError(t.NewTable.Name.O); err != nil {
			return nil, err
		}
		made[strings.ToLower(t.NewTable.Name.O)] = true
		st.From = append(st.From, t.OldTable.Name.O)
		st.To = append(st.To, t.NewTable.Name.O)
	}
	return st, nil
}

func (b *binder) truncateTable(n *ast.TruncateTableStmt) (Statement, error) {
	if _, ok := b.cat.View(n.Table.Name.O); ok {
		// MySQL looks for a table of that name and finds none.
		return nil, b.errCode(b.wordPos(n.Table.Name.O, -1), ErNoSuchTable, "Table '%s.%s' doesn't exist", DatabaseName, n.Table.Name.O)
	}
	t, err := b.table(n.Table)
	if err != nil {
		return nil, err
	}
	return &TruncateTable{Table: t.Name}, nil
}

// isColumnChange reports whether an ALTER TABLE spec changes columns.
func isColumnChange(tp ast.AlterTableType) bool {
	switch tp {
	case ast.AlterTableAddColumns, ast.AlterTableDropColumn, ast.AlterTableRenameColumn,
		ast.AlterTableModifyColumn, ast.AlterTableChangeColumn, ast.AlterTableAlterColumn:
		return true
	}
	return false
}

// columnEdit is the new column list of an ALTER TABLE while its column
// changes apply in order: field i reads t's column src[i] (-1: added).
// As in MySQL, DROP, RENAME, MODIFY, CHANGE and ALTER COLUMN name a column
// of the table as it was (so RENAME COLUMN a TO b, RENAME COLUMN b TO a
// swaps two names), each at most once, while AFTER c names one of the new
// list.
type columnEdit struct {
	b       *binder
	t       *columnar.Table
	fields  []columnar.Field
	src     []int
	changed []bool // t's column was dropped, renamed, modified or changed
}

// find is the position in the new list of t's column name; a column
// already dropped or changed is MySQL's 1091 for DROP, 1054 otherwise.
func (e *columnEdit) find(name string, tp ast.AlterTableType) (int, error) {
	for i := range e.fields {
		if s := e.src[i]; s >= 0 && !e.changed[s] && strings.EqualFold(e.t.Fields[s].Name, name) {
			return i, nil
		}
	}
	if tp == ast.AlterTableDropColumn {
		return -1, e.b.errCode(e.b.wordPos(name, -1), ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", name)
	}
	return -1, e.b.errCode(e.b.wordPos(name, -1), ErBadField, "Unknown column '%s' in '%s'", name, e.t.Name)
}

// insert puts f, reading t's column from, at position at.
func (e *columnEdit) insert(at int, f columnar.Field, from int) {
	e.fields = slices.Insert(e.fields, at, f)
	e.src = slices.Insert(e.src, at, from)
}

// remove takes field i out of the new list and returns t's column it read.
func (e *columnEdit) remove(i int) int {
	from := e.src[i]
	e.fields = slices.Delete(e.fields, i, i+1)
	e.src = slices.Delete(e.src, i, i+1)
	if from >= 0 {
		e.changed[from] = true
	}
	return from
}

// alterColumns binds ALTER TABLE's column changes, applied in order, into
// one rewrite of the table: all of them or none.
func (b *binder) alterColumns(t *columnar.Table, specs []*ast.AlterTableSpec) (Statement, error) {
	e := &columnEdit{b: b, t: t, fields: slices.Clone(t.Fields), src: make([]int, len(t.Fields)), changed: make([]bool, len(t.Fields))}
	for i := range e.src {
		e.src[i] = i
	}
	for _, spec := range specs {
		if isIndexChange(spec) {
			continue // after the columns: its names are the new table's
		}
		if err := e.apply(spec); err != nil {
			return nil, err
		}
	}
	if len(e.fields) == 0 {
		return nil, b.errCode(b.start, ErCantRemoveAllFields, "You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
	}
	dropped, err := e.dropIndexes(specs)
	if err != nil {
		return nil, err
	}
	indexes, err := e.addIndexes(specs, dropped)
	if err != nil {
		return nil, err
	}
	if err := b.checkAlterAuto(t, e.fields, e.src, e.keyLeads(dropped, indexes)); err != nil {
		return nil, err
	}
	st, err := b.rewriteTable(t, e.fields, e.src)
	if err != nil {
		return nil, err
	}
	ac := st.(*AlterColumns)
	ac.AddIndexes, ac.DropIndexes = indexes, dropped
	return ac, nil
}

// dropIndexes are the names of the indexes the statement drops (DROP
// INDEX i, DROP PRIMARY KEY); one t lacks is MySQL's 1091.
func (e *columnEdit) dropIndexes(specs []*ast.AlterTableSpec) ([]string, error) {
	var out []string
	for _, spec := range specs {
		name := spec.Name
		switch spec.Tp {
		case ast.AlterTableDropPrimaryKey:
			name = catalog.PrimaryName
		case ast.AlterTableDropIndex:
		default:
			continue
		}
		found := false
		for _, ix := range e.b.cat.Indexes(e.t.Name) {
			found = found || strings.EqualFold(ix.Name, name) && !slices.ContainsFunc(out, func(d string) bool { return strings.EqualFold(d, name) })
		}
		if !found {
			return nil, e.b.errCode(e.b.wordPos(name, -1), ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", name)
		}
		out = append(out, name)
	}
	return out, nil
}

// keyLeads marks the new columns that lead an index the table keeps or
// gets (for AUTO_INCREMENT's rule, MySQL's 1075).
func (e *columnEdit) keyLeads(dropped []string, added []catalog.Index) map[int]bool {
	at := map[int]int{} // t's column -> its position in the new list
	for i, s := range e.src {
		if s >= 0 {
			at[s] = i
		}
	}
	leads := map[int]bool{}
	for _, ix := range e.b.cat.Indexes(e.t.Name) {
		gone := slices.ContainsFunc(dropped, func(d string) bool { return strings.EqualFold(d, ix.Name) })
		if i, ok := at[ix.Columns[0]]; ok && !gone {
			leads[i] = true
		}
	}
	for _, ix := range added {
		leads[ix.Columns[0]] = true
	}
	return leads
}

// addIndexes binds the statement's ADD INDEX / UNIQUE / PRIMARY KEY over
// the new columns; a PRIMARY KEY makes its columns NOT NULL, as MySQL's.
func (e *columnEdit) addIndexes(specs []*ast.AlterTableSpec, dropped []string) ([]catalog.Index, error) {
	var out []catalog.Index
	names := e.b.usedIndexNames(e.t)
	for _, d := range dropped {
		delete(names, strings.ToLower(d)) // DROP PRIMARY KEY, ADD PRIMARY KEY (a, b)
	}
	for _, spec := range specs {
		if !isIndexAdd(spec) {
			continue
		}
		ix, _, err := e.b.constraintIndex(e.fields, spec.Constraint, names)
		if err != nil {
			return nil, err
		}
		if ix.Primary {
			for _, c := range ix.Columns {
				e.fields[c].Nullable = false
			}
		}
		out = append(out, ix)
	}
	return out, nil
}

// apply makes one column change to the new list.
func (e *columnEdit) apply(spec *ast.AlterTableSpec) error {
	b := e.b
	switch spec.Tp {
	case ast.AlterTableAddColumns:
		for _, c := range spec.NewColumns { // ADD (a INT, b INT): each at the end
			f, err := b.columnDef(c, e.t.Rows > 0, b.cat.Options(e.t.Name).Collation)
			if err != nil {
				return err
			}
			at, err := b.columnPosition(e.t.Name, spec.Position, e.fields, len(e.fields))
			if err != nil {
				return err
			}
			e.insert(at, f, -1)
			if f.Generated != "" {
				if err := b.addGenerated(e.fields, at, c); err != nil {
					return err
				}
			}
		}
	case ast.AlterTableDropColumn:
		i, err := e.find(spec.OldColumnName.Name.O, spec.Tp)
		if err != nil {
			return err
		}
		if err := b.checkColumnUse(e.t.Name, e.t.Fields[e.src[i]].Name); err != nil {
			return err
		}
		e.remove(i)
	case ast.AlterTableRenameColumn:
		i, err := e.find(spec.OldColumnName.Name.O, spec.Tp)
		if err != nil {
			return err
		}
		if err := b.columnNameError(spec.NewColumnName.Name.O); err != nil {
			return err
		}
		old := e.t.Fields[e.src[i]].Name
		if !strings.EqualFold(old, spec.NewColumnName.Name.O) {
			if err := b.checkColumnUse(e.t.Name, old); err != nil {
				return err
			}
		}
		e.fields[i].Name = spec.NewColumnName.Name.O
		e.changed[e.src[i]] = true
	case ast.AlterTableAlterColumn:
		return e.alterDefault(spec.NewColumns[0])
	case ast.AlterTableModifyColumn, ast.AlterTableChangeColumn:
		return e.modify(spec)
	}
	return nil
}

// alterDefault is ALTER COLUMN c SET DEFAULT v / DROP DEFAULT: only the
// field changes; the rows are read back unchanged.
func (e *columnEdit) alterDefault(c *ast.ColumnDef) error {
	i, err := e.find(c.Name.Name.O, ast.AlterTableAlterColumn)
	if err != nil {
		return err
	}
	f := &e.fields[i]
	f.HasDefault, f.Default = false, ""
	for _, o := range c.Options {
		if o.Expr != nil { // the parser leaves SET DEFAULT's option untyped
			if err := e.b.columnDefault(f, o.Expr, e.b.wordPos(c.Name.Name.O, -1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// modify is MODIFY / CHANGE: the column's new definition, at its place or
// FIRST / AFTER c.
func (e *columnEdit) modify(spec *ast.AlterTableSpec) error {
	b := e.b
	old := spec.NewColumns[0].Name.Name.O
	if spec.Tp == ast.AlterTableChangeColumn {
		old = spec.OldColumnName.Name.O
	}
	i, err := e.find(old, spec.Tp)
	if err != nil {
		return err
	}
	if e.fields[i].Generated != "" {
		return b.errf(b.wordPos(old, -1), "unsupported: MODIFY / CHANGE of generated column '%s' (drop it and add it again)", old)
	}
	f, err := b.columnDef(spec.NewColumns[0], false, b.cat.Options(e.t.Name).Collation)
	if err != nil {
		return err
	}
	was := e.t.Fields[e.src[i]].Name
	if !strings.EqualFold(f.Name, was) {
		if err := b.checkColumnUse(e.t.Name, was); err != nil {
			return err
		}
	}
	if f.Generated != "" {
		return b.errf(b.wordPos(f.Name, -1), "unsupported: MODIFY / CHANGE into a generated column '%s' (add it with ADD COLUMN)", f.Name)
	}
	if b.inPrimaryKey(e.t.Name, e.src[i]) {
		// MySQL: a PRIMARY KEY column MODIFY leaves unmarked is NOT NULL;
		// one it declares NULL is 1171.
		if explicitNull(spec.NewColumns[0]) {
			return b.primaryNullError(f.Name)
		}
		f.Nullable = false
	}
	at, err := b.columnPosition(e.t.Name, spec.Position, append(e.fields[:i:i], e.fields[i+1:]...), i)
	if err != nil {
		return err
	}
	from := e.remove(i)
	e.insert(at, f, from)
	return nil
}

// inPrimaryKey reports whether column c of table name is part of its
// PRIMARY KEY.
func (b *binder) inPrimaryKey(name string, c int) bool {
	for _, ix := range b.cat.Indexes(name) {
		if ix.Primary && slices.Contains(ix.Columns, c) {
			return true
		}
	}
	return false
}

// rewriteTable builds the query that reads t into the new fields.
func (b *binder) rewriteTable(t *columnar.Table, fields []columnar.Field, src []int) (Statement, error) {
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[strings.ToLower(f.Name)] {
			return nil, b.errCode(b.wordPos(f.Name, -1), ErDupFieldName, "Duplicate column name '%s'", f.Name)
		}
		seen[strings.ToLower(f.Name)] = true
	}
	scan := newScan(t, t.Name)
	sc := &scope{plan: scan}
	exprs := make([]Expr, len(fields))
	names := make([]string, len(fields))
	colMap := make([]int, len(t.Fields))
	for i := range colMap {
		colMap[i] = -1
	}
	for i, f := range fields {
		names[i] = f.Name
		if src[i] < 0 {
			// An added column: existing rows get its default, as in MySQL;
			// a NOT NULL one without a DEFAULT its type's implicit one (0,
			// ''), as MySQL fills it (columnDef refused the types that
			// have none).
			exprs[i] = nullConst(f.Type)
			if d := implicitDefault(f.Type); !f.Nullable && !f.HasDefault && d != nil {
				exprs[i] = d
			}
			if f.HasDefault {
				c, err := b.defaultConst(f, b.wordPos(f.Name, -1))
				if err != nil {
					return nil, err
				}
				exprs[i] = c
				if f.Type.Timestamp {
					// ALTER stores values as they are (UTC): the default,
					// in the session zone, is converted here.
					exprs[i] = b.toUTC(c)
				}
			}
			continue
		}
		colMap[src[i]] = i
		from := t.Fields[src[i]].Type
		e := Expr(sc.colRef(src[i]))
		if !alterableType(from, f.Type) {
			return nil, b.errf(b.wordPos(f.Name, -1), "unsupported: changing column '%s' from %s to %s (numbers change to numbers or strings, dates to dates or strings, strings to INT, DECIMAL or DOUBLE)", f.Name, from, f.Type)
		}
		// Numbers and dates reach the engine as they are and are stored
		// as INSERT stores them (range checked, rounded half away from
		// zero); only conversions to strings are computed here.
		if f.Type.ID == columnar.String {
			e = castTo(e, f.Type)
		}
		exprs[i] = e
	}
	q := &Query{Plan: newProject(scan, exprs, names), Names: names}
	return &AlterColumns{Table: t.Name, Fields: fields, Query: q, ColMap: colMap, Snapshot: t}, nil
}

// alterableType reports whether MODIFY/CHANGE converts from to to. A
// string becomes a number as INSERT ... SELECT stores it, read by the
// engine (sql.StoresText), which fails on text that is no number as
// MySQL's strict ALTER does (1366 Incorrect integer value: 'x' for column
// 'c' at row 3); other string conversions (dates, YEAR, TIME, wide or
// unsigned numbers) are refused rather than read as CAST reads them.
func alterableType(from, to columnar.Type) bool {
	switch {
	case to.ID == columnar.String:
		return true
	case from.ID == columnar.String:
		return StoresText(from, to)
	case isTemporal(from) || isTemporal(to):
		// DATE and DATETIME convert into each other (midnight; the date).
		return isTemporal(from) && isTemporal(to)
	}
	return true
}

// columnDef types a column definition of ALTER TABLE. A NOT NULL column
// added to a table with rows needs a DEFAULT to fill them with, or a type
// with an implicit one (0 for numbers, the empty string for strings).
func (b *binder) columnDef(c *ast.ColumnDef, hasRows bool, tableColl string) (columnar.Field, error) {
	name := c.Name.Name.O
	if err := b.columnNameError(name); err != nil {
		return columnar.Field{}, err
	}
	pos := b.wordPos(name, -1)
	if err := b.columnLengthError(c.Tp, name, pos); err != nil {
		return columnar.Field{}, err
	}
	t, bad := columnType(c.Tp)
	if bad != "" {
		return columnar.Field{}, b.errf(pos, "unsupported: %s (column '%s')", bad, name)
	}
	f := columnar.Field{Name: name, Type: t, Nullable: true}
	if t.ID == columnar.String && !t.Binary && !t.JSON && t.Members == "" {
		// A column named without a collation takes the table's default,
		// as in CREATE TABLE (ddl.go).
		if err := b.columnCollation(&f, tableColl, pos); err != nil {
			return columnar.Field{}, err
		}
	}
	if err := b.columnCollation(&f, c.Tp.GetCollate(), pos); err != nil {
		return columnar.Field{}, err
	}
	var def ast.ExprNode
	for _, o := range c.Options {
		switch o.Tp {
		case ast.ColumnOptionNotNull:
			f.Nullable = false
		case ast.ColumnOptionCollate:
			if err := b.columnCollation(&f, o.StrValue, pos); err != nil {
				return columnar.Field{}, err
			}
		case ast.ColumnOptionComment:
			var err error
			if f.Comment, err = b.fieldComment(f.Name, columnComment(o)); err != nil {
				return columnar.Field{}, err
			}
		case ast.ColumnOptionNull, ast.ColumnOptionNoOption:
		case ast.ColumnOptionDefaultValue:
			def = o.Expr
		case ast.ColumnOptionGenerated:
			f.Generated = "?" // ADD COLUMN binds it over the new fields: addGenerated
		case ast.ColumnOptionCheck: // alterColumnsChecked adds it
		case ast.ColumnOptionAutoIncrement: // MODIFY / CHANGE only: checkAlterAuto
			if !t.IsInteger() || t.ID == columnar.Bool || t.Year {
				return columnar.Field{}, b.errf(pos, "unsupported: AUTO_INCREMENT on %s column '%s' (give it an integer type: INT or BIGINT)", t, name)
			}
			f.AutoIncrement, f.Nullable = true, false
		default:
			return columnar.Field{}, b.errf(pos, "unsupported: this column option in ALTER TABLE (column '%s'); NULL, NOT NULL, DEFAULT, COMMENT and AUTO_INCREMENT (MODIFY / CHANGE) are supported", name)
		}
	}
	if def != nil {
		if err := b.columnDefault(&f, def, pos); err != nil {
			return columnar.Field{}, err
		}
	}
	if !f.Nullable && !f.HasDefault && hasRows && f.Generated == "" && implicitDefault(f.Type) == nil {
		// MySQL fills the rows with the type's implicit default; gpusql
		// has none for dates (MySQL's '0000-00-00'), ENUM, JSON and the rest.
		return columnar.Field{}, b.errf(pos, "cannot add NOT NULL column '%s' of type %s without a DEFAULT to a table with rows (give it a DEFAULT, or add it nullable, UPDATE it, then MODIFY it NOT NULL)", name, t)
	}
	return f, nil
}

// columnPosition is where FIRST / AFTER c puts a column among the fields of table
// (def when neither is given).
func (b *binder) columnPosition(table string, p *ast.ColumnPosition, fields []columnar.Field, def int) (int, error) {
	if p == nil {
		return def, nil
	}
	switch p.Tp {
	case ast.ColumnPositionFirst:
		return 0, nil
	case ast.ColumnPositionAfter:
		for i, f := range fields {
			if strings.EqualFold(f.Name, p.RelativeColumn.Name.O) {
				return i + 1, nil
			}
		}
		return 0, b.errCode(b.wordPos(p.RelativeColumn.Name.O, -1), ErBadField, "Unknown column '%s' in '%s'", p.RelativeColumn.Name.O, table)
	}
	return def, nil
}
