package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Column defaults are catalog metadata (columnar.Field.HasDefault and
// Default): the binder reads them wherever MySQL does — columns an INSERT
// leaves out, DEFAULT and DEFAULT(col) in VALUES and UPDATE ... SET, the
// column ALTER TABLE ADD COLUMN fills existing rows with — and turns them
// into constants, so no executor knows defaults exist. Only constant
// defaults are kept, and CURRENT_TIMESTAMP on DATETIME and TIMESTAMP
// columns (Default is then columnar.DefaultNow), which becomes the
// statement's clock wherever the default is read.

// columnDefault binds DEFAULT expr of column f's definition into f. The
// value is converted as strict INSERT converts it, once, here: a default
// that does not fit its column fails the CREATE/ALTER, as in MySQL.
// DEFAULT NULL keeps no default (the column's default is NULL anyway) and
// is refused on a NOT NULL column.
func (b *binder) columnDefault(f *columnar.Field, e ast.ExprNode, pos int) error {
	if isCurrentTimestamp(e) {
		if f.Type.ID != columnar.Datetime {
			return b.invalidDefault(pos, f.Name, "CURRENT_TIMESTAMP is a default only of DATETIME and TIMESTAMP columns")
		}
		if fsp := currentTimestampFsp(e); fsp != f.Type.Scale {
			return b.invalidDefault(pos, f.Name, fmt.Sprintf("a DATETIME(%d) takes DEFAULT CURRENT_TIMESTAMP(%d), not CURRENT_TIMESTAMP(%d)", f.Type.Scale, f.Type.Scale, fsp))
		}
		f.HasDefault, f.Default = true, columnar.DefaultNow
		return nil
	}
	if !isLiteral(e) {
		return b.errf(pos, "unsupported: non-constant DEFAULT for column '%s' (only literal defaults such as 0, -1.5, 'x' and '2024-01-31' are supported)", f.Name)
	}
	v, err := b.expr(e, &scope{plan: &Values{Rows: [][]Expr{{}}}})
	if err != nil {
		return err
	}
	c, ok := v.(*Const)
	if !ok {
		return b.errf(pos, "unsupported: non-constant DEFAULT for column '%s'", f.Name)
	}
	if c.Null {
		if !f.Nullable {
			return b.invalidDefault(pos, f.Name, "NULL in a NOT NULL column")
		}
		f.HasDefault, f.Default = false, ""
		return nil
	}
	if blobType(f.Type) && !b.parenthesized(e) {
		if keep, err := b.blobDefault(pos, f.Name, f.Type); !keep {
			return err
		}
	}
	if err := vectorConstError(c, f.Type); err != nil {
		return b.invalidDefault(pos, f.Name, err.Error())
	}
	out, ok := convertConst(c, f.Type)
	if !ok || !strictOK(c, out) {
		return b.invalidDefault(pos, f.Name, constString(c)+" is not a "+f.Type.String())
	}
	if f.Type.ID == columnar.String {
		if out.S, err = f.Type.FitString(out.S); err != nil {
			return b.invalidDefault(pos, f.Name, err.Error())
		}
	}
	f.HasDefault, f.Default = true, valueText(out)
	return nil
}

// isLiteral reports whether a DEFAULT is a literal, maybe signed or in
// parentheses. Anything else is refused even when it folds to a constant:
// CURRENT_DATE binds to the statement's date, but MySQL evaluates such a
// default at each INSERT.
func isLiteral(e ast.ExprNode) bool {
	switch n := e.(type) {
	case ast.ValueExpr:
		return true
	case *ast.ParenthesesExpr:
		return isLiteral(n.Expr)
	case *ast.UnaryOperationExpr:
		return (n.Op == opcode.Minus || n.Op == opcode.Plus) && isLiteral(n.V)
	case *ast.FuncCallExpr:
		// DATE '2024-01-31' and TIMESTAMP '...' literals parse as calls.
		switch n.FnName.L {
		case ast.DateLiteral, ast.TimestampLiteral, ast.TimeLiteral:
			return len(n.Args) == 1 && isLiteral(n.Args[0])
		}
	}
	return false
}

// isCurrentTimestamp reports DEFAULT CURRENT_TIMESTAMP[(fsp)] and its
// synonyms NOW(), LOCALTIME, LOCALTIMESTAMP.
func isCurrentTimestamp(e ast.ExprNode) bool {
	n, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return false
	}
	switch n.FnName.L {
	case "current_timestamp", "now", "localtime", "localtimestamp":
		return true
	}
	return false
}

// currentTimestampFsp is the digits of a CURRENT_TIMESTAMP[(fsp)] default or
// ON UPDATE clause, -1 where they are not a plain integer. MySQL takes
// either only with the column's own digits: DATETIME(6) DEFAULT
// CURRENT_TIMESTAMP is 1067 and ON UPDATE CURRENT_TIMESTAMP(3) on a
// DATETIME is 1294, since a value of other digits would be rounded at each
// INSERT or UPDATE.
func currentTimestampFsp(e ast.ExprNode) int {
	n := e.(*ast.FuncCallExpr)
	if len(n.Args) == 0 {
		return 0
	}
	v, ok := n.Args[0].(ast.ValueExpr)
	if !ok {
		return -1
	}
	switch x := v.GetValue().(type) {
	case int64:
		return int(x)
	case uint64:
		return int(x)
	}
	return -1
}

// valueText writes a non-NULL constant as the text DESCRIBE shows and
// defaultConst reads back (plain digits, dates as YYYY-MM-DD, strings
// unquoted; doubles keep every bit).
func valueText(c *Const) string {
	switch c.T.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		if c.T.IsBigUnsigned() {
			return strconv.FormatUint(uint64(c.I), 10)
		}
		return strconv.FormatInt(c.I, 10)
	case columnar.Float64:
		return strconv.FormatFloat(c.F, 'g', -1, 64)
	case columnar.Decimal:
		if c.T.IsWide() {
			return decimal.Format(c.W, c.T.Scale)
		}
		return FormatDecimal(c.I, c.T.Scale)
	case columnar.Date:
		return FormatDate(int32(c.I))
	case columnar.Datetime:
		return columnar.FormatDatetime(c.I, c.T.Scale)
	case columnar.Time:
		return columnar.FormatTime(c.I, c.T.Scale)
	case columnar.Vector:
		return columnar.VectorText(c.V)
	}
	return c.S
}

// defaultConst is the value column f takes when a statement gives none:
// its default, or NULL. A NOT NULL column without a default has none,
// which is MySQL's error "Field 'c' doesn't have a default value".
func (b *binder) defaultConst(f columnar.Field, pos int) (*Const, error) {
	if !f.HasDefault {
		if !f.Nullable {
			return nil, b.errCode(pos, ErNoDefaultForField, "Field '%s' doesn't have a default value", f.Name)
		}
		return nullConst(f.Type), nil
	}
	if f.Type.ID == columnar.Datetime && f.Default == columnar.DefaultNow {
		return &Const{T: f.Type, I: b.stmtMicros(f.Type.Scale)}, nil
	}
	c, ok := convertConst(&Const{T: columnar.TString, S: f.Default}, f.Type)
	if !ok {
		// The text was written by valueText from a value of this type.
		return nil, b.errf(pos, "corrupt default %q of column '%s'", f.Default, f.Name)
	}
	return c, nil
}

// defaultOf binds DEFAULT (the default of column f, where the value goes)
// and DEFAULT(col) (the default of col of table t).
func (b *binder) defaultOf(n *ast.DefaultExpr, t *columnar.Table, f columnar.Field, pos int) (*Const, error) {
	if n.Name == nil {
		return b.defaultConst(f, pos)
	}
	for _, g := range t.Fields {
		if strings.EqualFold(g.Name, n.Name.Name.O) {
			return b.defaultConst(g, pos)
		}
	}
	return nil, b.errCode(pos, ErBadField, "Unknown column '%s' in 'field list'", n.Name.Name.O)
}

// defaultExpr binds DEFAULT and DEFAULT(col): in INSERT's VALUES and
// UPDATE's SET the written table's default; DEFAULT(col) elsewhere is the
// default of col's table in FROM (MySQL's DEFAULT() function, "returns
// the default value for a table column"), col resolved as the column is.
func (b *binder) defaultExpr(n *ast.DefaultExpr, sc *scope, pos int) (Expr, error) {
	if n.Name != nil && b.target == nil && sc != nil {
		if _, err := b.column(n.Name, sc, pos); err != nil {
			return nil, err // unknown (1054) or ambiguous (1052)
		}
		if f, ok := b.scannedField(sc.plan, n.Name); ok {
			return b.defaultConst(f, pos)
		}
	}
	if n.Name == nil || b.target == nil {
		return nil, b.errf(pos, "unsupported: DEFAULT here (it is a value of INSERT ... VALUES and UPDATE ... SET, and DEFAULT(col) a column of a table in FROM)")
	}
	return b.defaultOf(n, b.target, columnar.Field{}, pos)
}

// scannedField finds the field of a catalog table that plan scans under
// cn's qualifier (any, when cn has none) named as cn: the one such field.
func (b *binder) scannedField(plan Plan, cn *ast.ColumnName) (columnar.Field, bool) {
	var found []columnar.Field
	var walk func(p Plan)
	walk = func(p Plan) {
		if s, ok := p.(*Scan); ok && (cn.Table.O == "" || strings.EqualFold(s.Alias, cn.Table.O)) {
			if t, ok := b.cat.Table(s.Table.Name); ok && t == s.Table {
				for _, f := range t.Fields {
					if strings.EqualFold(f.Name, cn.Name.O) {
						found = append(found, f)
					}
				}
			}
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	if plan != nil && b.cat != nil {
		walk(plan)
	}
	if len(found) != 1 {
		return columnar.Field{}, false
	}
	return found[0], true
}

// blobType reports TEXT, BLOB and JSON, which MySQL 8 gives a default
// only as an expression: DEFAULT ('x'), not DEFAULT 'x'.
func blobType(t columnar.Type) bool {
	return t.ID == columnar.String && t.Width <= 0 && t.Members == ""
}

// blobDefault is MySQL's answer to a literal DEFAULT on a TEXT, BLOB or
// JSON column (sql_table.cc): 1101, or in a non-strict sql_mode, for TEXT
// and BLOB, warning 1101 and no default; keep is false either way.
func (b *binder) blobDefault(pos int, column string, t columnar.Type) (keep bool, err error) {
	kind := "BLOB, TEXT, GEOMETRY or JSON"
	msg := fmt.Sprintf("%s column '%s' can't have a default value", kind, column)
	if t.JSON || b.session == nil || b.session.Strict() {
		err := b.errCode(pos, ErBlobCantHaveDefault, "%s", msg)
		err.Detail = "write the default as an expression: DEFAULT ('...')"
		return false, err
	}
	b.ddlWarnings = append(b.ddlWarnings, Warning{Level: "Warning", Code: ErBlobCantHaveDefault, Message: msg})
	return false, nil
}

// parenthesized reports DEFAULT (literal), MySQL 8's expression default:
// the TiDB parser drops the parentheses round a literal, so the text
// before the literal tells (a charset introducer may stand between).
func (b *binder) parenthesized(e ast.ExprNode) bool {
	if _, ok := e.(*ast.ParenthesesExpr); ok {
		return true
	}
	at := e.OriginTextPosition()
	if at <= 0 || at >= len(b.src) {
		return false
	}
	if b.src[at] == '(' {
		return true // the parser's offset is at times the parenthesis's
	}
	before := strings.TrimRight(b.src[:at], " \t\r\n")
	if i := strings.LastIndexByte(before, '_'); i >= 0 && isIntroducer(strings.ToLower(before[i:])) {
		before = strings.TrimRight(before[:i], " \t\r\n")
	}
	return strings.HasSuffix(before, "(")
}

// isIntroducer reports a character set introducer, _utf8mb4 or _binary.
func isIntroducer(w string) bool {
	switch w {
	case "_utf8mb4", "_utf8mb3", "_utf8", "_binary", "_latin1", "_ascii":
		return true
	}
	return false
}
