package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// insert binds INSERT INTO t [(cols)] VALUES ... | SELECT ...: the source's
// columns are cast to the target columns' types. VALUES constants are
// converted here, strictly (MySQL strict mode): a value that does not fit
// its column is an error naming the row and column.
func (b *binder) insert(n *ast.InsertStmt) (Statement, error) {
	// INSERT ... SET a = 1, b = 2 comes from the parser as (a, b) VALUES
	// (1, 2).
	switch {
	case n.Table == nil || n.Table.TableRefs == nil:
		return nil, b.errf(-1, "INSERT needs a table")
	}
	ts, ok := n.Table.TableRefs.Left.(*ast.TableSource)
	var tn *ast.TableName
	if ok {
		tn, ok = ts.Source.(*ast.TableName)
	}
	if !ok || n.Table.TableRefs.Right != nil {
		return nil, b.errf(-1, "unsupported: INSERT into something other than one table")
	}
	if err := b.partitionClause(n.PartitionNames); err != nil {
		return nil, err
	}
	t, err := b.table(tn)
	if err != nil {
		return nil, err
	}
	var targets []int
	// VALUES () inserts a row of defaults (MySQL): no column is given.
	allDefaults := n.Select == nil && len(n.Lists) > 0
	for _, l := range n.Lists {
		allDefaults = allDefaults && len(l) == 0
	}
	if len(n.Columns) == 0 && !allDefaults {
		for i := range t.Fields {
			targets = append(targets, i)
		}
	} else {
		seen := map[int]bool{}
		for _, c := range n.Columns {
			i := -1
			for k, f := range t.Fields {
				if strings.EqualFold(f.Name, c.Name.O) {
					i = k
				}
			}
			if i < 0 {
				return nil, b.errCode(b.wordPos(c.Name.O, -1), ErBadField, "Unknown column '%s' in 'field list'", c.Name.O)
			}
			if seen[i] {
				return nil, b.errCode(b.wordPos(c.Name.O, -1), ErFieldSpecifiedTwice, "Column '%s' specified twice", c.Name.O)
			}
			seen[i] = true
			targets = append(targets, i)
		}
	}
	// Columns left out take their defaults: they become targets whose
	// value is a constant appended to every row.
	var defaults []Expr
	var missing []Warning // lenient: NOT NULL columns without a default (1364)
	for i, f := range t.Fields {
		if containsInt(targets, i) || f.Nullable && !f.HasDefault && !allDefaults || f.Generated != "" {
			continue // a generated column is computed by the engine
		}
		if f.AutoIncrement { // NULL: the engine generates the value
			targets = append(targets, i)
			defaults = append(defaults, &Const{T: f.Type, Null: true})
			continue
		}
		c, err := b.defaultConst(f, b.start)
		if code, msg := MySQLCode(err); code == ErNoDefaultForField && b.lenientWrites(n.IgnoreErr) && implicitDefault(f.Type) != nil {
			// Outside strict mode MySQL stores the type's implicit
			// default, with the error as a warning.
			c, err = implicitDefault(f.Type), nil
			missing = append(missing, Warning{Level: "Warning", Code: ErNoDefaultForField, Message: msg})
		}
		if err != nil {
			return nil, err
		}
		targets = append(targets, i)
		defaults = append(defaults, c)
	}
	given := len(targets) - len(defaults)
	out := make(Schema, len(targets))
	for i, k := range targets {
		f := t.Fields[k]
		out[i] = Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable || f.AutoIncrement || f.Generated != ""}
	}
	if n.Select != nil {
		for _, k := range targets[:given] {
			if t.Fields[k].Generated != "" {
				return nil, b.generatedValueError(b.wordPos(t.Fields[k].Name, -1), t.Fields[k].Name, t.Name)
			}
		}
		// The values go to the columns whole, each rounded once to its
		// column's scale, as MySQL stores them (division_digits.go).
		b.queries++
		blk, err := b.query(n.Select, nil)
		b.queries--
		if err != nil {
			return nil, err
		}
		if len(blk.names) != given {
			err := b.errCode(-1, ErWrongValueCount, "Column count doesn't match value count at row 1")
			err.Detail = fmt.Sprintf("%d target columns, the SELECT returns %d", given, len(blk.names))
			return nil, err
		}
		sch := blk.plan.Schema()
		for i, c := range out[:given] {
			if !castable(sch[i].Type, c.Type) {
				return nil, b.errf(-1, "type mismatch: cannot insert %s into column '%s' %s", sch[i].Type, c.Name, c.Type)
			}
		}
		store := storeSchema(sch, out[:given])
		// Text for a DATE reaches the engine as text, which names column
		// and row where CAST would give NULL and a warning without them:
		// strictly it fails (1292 Incorrect date value: '2020-13-01' for
		// column 'x' at row 2), a lenient write makes it NULL with 1265
		// Data truncated for column 'x' at row 2 (engine/lenient_store.go).
		for i := range store {
			if store[i].Type.ID == columnar.Date && sch[i].Type.ID == columnar.String && !sch[i].Type.JSON && sch[i].Type.Members == "" {
				store[i].Type = sch[i].Type
			}
		}
		src := castColumns(blk.plan, names(out[:given]), store)
		if len(defaults) > 0 {
			sc := &scope{plan: src}
			exprs := make([]Expr, 0, len(targets))
			for i := 0; i < given; i++ {
				exprs = append(exprs, sc.colRef(i))
			}
			src = newProject(src, append(exprs, defaults...), names(out))
		}
		return b.finishInsert(n, &Insert{Table: t.Name, Targets: targets, Source: src, Replace: n.IsReplace, AutoOnZero: b.autoValueOnZero(), Notes: missing}, t)
	}
	b.target = t // DEFAULT(col) in VALUES names t's columns
	defer func() { b.target = nil }()
	vals := &Values{Out: out}
	notes := missing
	lenient := b.lenientWrites(n.IgnoreErr)
	empty := &scope{plan: &Values{Rows: [][]Expr{{}}}}
	for r, list := range n.Lists {
		if len(list) != given {
			err := b.errCode(b.posOr(firstNode(list), -1), ErWrongValueCount, "Column count doesn't match value count at row %d", r+1)
			err.Detail = fmt.Sprintf("%d columns, %d values", given, len(list))
			return nil, err
		}
		valuesColumnRefs(t, targets, list)
		row := make([]Expr, len(targets))
		copy(row[given:], defaults)
		for i, v := range list {
			col := out[i]
			pos := b.posOr(v, -1)
			var e Expr
			var err error
			d, ok := v.(*ast.DefaultExpr)
			switch gen := t.Fields[targets[i]].Generated != ""; {
			case gen && (!ok || d.Name != nil):
				return nil, b.generatedValueError(pos, col.Name, t.Name)
			case gen:
				e = &Const{T: col.Type, Null: true} // the engine computes it
			case ok && t.Fields[targets[i]].AutoIncrement && d.Name == nil:
				e = &Const{T: col.Type, Null: true} // DEFAULT generates a value
			case ok:
				e, err = b.defaultOf(d, t, t.Fields[targets[i]], pos)
				if code, msg := MySQLCode(err); code == ErNoDefaultForField && lenient && implicitDefault(col.Type) != nil {
					e, err = implicitDefault(col.Type), nil // as a column left out
					notes = append(notes, Warning{Level: "Warning", Code: code, Message: msg})
				}
			default:
				e, err = b.expr(v, empty)
			}
			if err != nil {
				return nil, err
			}
			if c, ok := e.(*Const); ok {
				st := constStore{table: t, col: col, row: r + 1, pos: pos, lenient: lenient,
					nullToDefault: n.IgnoreErr || len(n.Lists) > 1}
				if row[i], err = b.storeConst(c, st, &notes); err != nil {
					return nil, err
				}
				continue
			}
			if !castable(e.Type(), col.Type) {
				return nil, b.errf(pos, "type mismatch: cannot insert %s into column '%s' %s", e.Type(), col.Name, col.Type)
			}
			row[i] = storeCast(e, col.Type)
		}
		vals.Rows = append(vals.Rows, row)
	}
	vals.Out = storeValuesSchema(vals)
	if err := unsignedValuesSchema(vals, out); err != nil {
		return nil, b.errf(-1, "%v", err)
	}
	return b.finishInsert(n, &Insert{Table: t.Name, Targets: targets, Source: vals, Replace: n.IsReplace, AutoOnZero: b.autoValueOnZero(), Notes: notes}, t)
}

// finishInsert binds ON DUPLICATE KEY UPDATE, if given, and IGNORE into
// ins.
func (b *binder) finishInsert(n *ast.InsertStmt, ins *Insert, t *columnar.Table) (Statement, error) {
	// With ON DUPLICATE KEY UPDATE no key conflict is left for IGNORE,
	// but IGNORE still stores what strict mode refuses, in the new rows
	// and the updated ones (838:59:59 for '900:00:00', with 1264).
	ins.Ignore = n.IgnoreErr
	if len(n.OnDuplicate) == 0 {
		return ins, nil
	}
	var unique [][]int
	for _, ix := range b.cat.Indexes(t.Name) {
		if ix.Unique {
			unique = append(unique, ix.Columns)
		}
	}
	od, err := b.onDuplicate(t, n.OnDuplicate, unique)
	if err != nil {
		return nil, err
	}
	ins.OnDuplicate = od
	return ins, nil
}

// integerText reports s, a sign and digits only: a whole number, whose
// range the store checks (storeOutOfRange) however many digits it has.
func integerText(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// strictOK rejects lossy string conversions that convertConst accepts for
// comparisons: '12abc' into an INT column.
func strictOK(from, to *Const) bool {
	if from.Null || from.hex || from.T.ID != columnar.String || to.T.ID == columnar.String {
		return true
	}
	if to.T.Year {
		return true // ParseYear reads the text's number as Field_year::store does
	}
	s := strings.TrimSpace(from.S)
	switch to.T.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		if integerText(s) {
			return true // past DECIMAL(18)'s digits too: '18446744073709551615' into BIGINT UNSIGNED
		}
		_, ok := ParseDecimal(s, 0)
		return ok && !strings.Contains(s, ".")
	case columnar.Decimal:
		if to.T.IsWide() {
			_, _, err := decimal.Parse(s, to.T.Scale)
			return err == nil
		}
		_, ok := ParseDecimal(s, to.T.Scale)
		return ok
	case columnar.Float64:
		f, ok := parseFloatPrefix(s)
		_ = f
		return ok && len(s) > 0 && strings.IndexFunc(s, func(r rune) bool {
			return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E')
		}) < 0
	}
	return true
}

// castable reports whether a Cast from one type to another is defined.
func castable(from, to columnar.Type) bool {
	if from.ID == columnar.Vector || to.ID == columnar.Vector {
		return from.ID == to.ID || from.ID == columnar.String || to.ID == columnar.String
	}
	if from.ID == to.ID || to.ID == columnar.String || from.ID == columnar.String {
		return true
	}
	if to.ID == columnar.Time || from.ID == columnar.Time {
		// A TIME becomes a DATE or DATETIME only with the current date
		// (MySQL), which gpusql refuses (times.go).
		return to.ID != columnar.Bool && from.ID != columnar.Bool && (from.ID != columnar.Time || !isTemporal(to))
	}
	if to.ID == columnar.Datetime || from.ID == columnar.Datetime {
		return to.ID != columnar.Bool && from.ID != columnar.Bool
	}
	if to.ID == columnar.Date || from.ID == columnar.Date {
		return (from.IsInteger() || to.IsInteger()) && from.ID != columnar.Bool && to.ID != columnar.Bool
	}
	return true
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func names(s Schema) []string {
	out := make([]string, len(s))
	for i, c := range s {
		out[i] = c.Name
	}
	return out
}

func firstNode(list []ast.ExprNode) ast.Node {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

// incorrectValue is MySQL's strict-mode error for a constant column col
// cannot take as written: 1366 "Incorrect integer value: 'abc' for
// column 'a' at row 1" for a string that is no number into an integer or
// DECIMAL column, 1265 "Data truncated for column 'a' at row 1" for one
// that starts with a number ('12abc'),
// 1264 "Out of range value for column 'a' at row 1" for a number (or a
// string that is one) past the column's range, 1292 "Incorrect date
// value: '2020-13-01' for column 'd' at row 1" for a DATE.
func (b *binder) incorrectValue(pos int, c *Const, col Column, row int) *Error {
	numeric := col.Type.IsInteger() || col.Type.ID == columnar.Decimal || col.Type.Year // Field_year is a Field_tiny
	_, clean, isString := constNumber(c)
	if col.Type.Year && c.T.ID == columnar.String && !c.hex {
		if _, code := YearTextStore(c.S); code != 0 {
			return b.errCode(pos, code, "%s", YearStoreMessage(code, c.S, col.Name, row))
		}
	}
	switch {
	case numeric && (!isString || clean):
		return b.errCode(pos, ErWarnDataOutOfRange, "Out of range value for column '%s' at row %d", col.Name, row)
	case numeric && hasNumberPrefix(c.S):
		// A number followed by more ('12abc'): MySQL's Field_num::check_int
		// notes WARN_DATA_TRUNCATED, which strict mode makes the error.
		return b.errCode(pos, WarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row)
	case numeric:
		kind := "integer"
		if col.Type.ID == columnar.Decimal {
			kind = "decimal"
		}
		return b.errCode(pos, ErTruncatedWrongValueForField, "Incorrect %s value: '%s' for column '%s' at row %d", kind, strings.ReplaceAll(c.S, "'", "''"), col.Name, row)
	case col.Type.ID == columnar.Float64 && isString:
		return b.errCode(pos, WarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row)
	case col.Type.ID == columnar.Date && isString:
		return b.errCode(pos, ErTruncatedWrongValue, "Incorrect date value: '%s' for column '%s' at row %d", c.S, col.Name, row)
	case col.Type.ID == columnar.Date && c.T.IsNumeric():
		return b.errCode(pos, ErTruncatedWrongValue, "Incorrect date value: '%s' for column '%s' at row %d", constString(c), col.Name, row)
	}
	return b.errf(pos, "incorrect %s value %s for column '%s' at row %d", col.Type, constString(c), col.Name, row)
}
