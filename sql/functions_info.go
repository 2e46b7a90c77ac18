package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	"gpusql/storage/columnar"
)

// CHARSET(x), COLLATION(x) and COERCIBILITY(x) describe x's type, not its
// value, so they bind to constants (the argument is still bound, for its
// errors). A literal string is utf8mb4 named as the session variables name
// it (utf8mb4_0900_ai_ci) unless an introducer names its charset
// (_latin1'a' is latin1_swedish_ci); a column is utf8mb4_bin (gpusql
// compares text by its bytes) unless declared with a case-insensitive
// collation, and an expression over columns takes its first string
// column's; binary strings (VARBINARY columns, x'..' literals), numbers,
// temporal values and NULL are 'binary'; the strings of USER(),
// DATABASE(), VERSION() and of system variables are utf8mb3 as in MySQL,
// JSON is utf8mb4_bin. COERCIBILITY follows MySQL's scale: 0 for a value
// with an explicit COLLATE, 2 for a value that reads a column or a user
// variable, 3 for system functions and variables, 4 for a literal string
// (and an expression of literals only), 5 for a number or temporal value,
// 6 for NULL.
func (b *binder) infoFunc(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	name := n.FnName.L
	if len(n.Args) != 1 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function '%s'", name)
	}
	e, err := b.expr(n.Args[0], sc)
	if err != nil {
		return nil, err
	}
	charset, collation, coercibility := describeCollation(e, n.Args[0])
	switch name {
	case "charset":
		return &Const{T: columnar.TString, S: charset}, nil
	case "collation":
		return &Const{T: columnar.TString, S: collation}, nil
	}
	return &Const{T: columnar.TInt64, I: coercibility}, nil
}

// nestedCollate is the collation a COLLATE clause gives the string value
// arg, itself or one of the strings it is made of (CONCAT('a' COLLATE
// utf8mb4_bin, 'b')): explicit, coercibility 0, it decides over every
// other argument's by MySQL's coercibility rules. A COLLATE inside a
// condition (IF's or CASE's WHEN) or an operator's operands does not
// reach the value; "" when none does.
func nestedCollate(arg ast.ExprNode) string {
	switch a := arg.(type) {
	case *ast.SetCollationExpr:
		return strings.ToLower(a.Collate)
	case *ast.ParenthesesExpr:
		return nestedCollate(a.Expr)
	case *ast.FuncCallExpr:
		args := a.Args
		if a.FnName.L == "if" && len(args) == 3 {
			args = args[1:]
		}
		for _, x := range args {
			if name := nestedCollate(x); name != "" {
				return name
			}
		}
	case *ast.CaseExpr:
		for _, w := range a.WhenClauses {
			if name := nestedCollate(w.Result); name != "" {
				return name
			}
		}
		if a.ElseClause != nil {
			return nestedCollate(a.ElseClause)
		}
	}
	return ""
}

// subqueryField is the column a scalar subquery's value is, nil where its
// SELECT computes it.
func subqueryField(e Expr) *columnar.Field {
	switch q := e.(type) {
	case *ScalarSubquery:
		return baseField(q.Plan, 0)
	case *NestedSubquery:
		return baseField(q.Plan, 0)
	}
	return nil
}

// systemStringFuncs return utf8mb3 "system constants" in MySQL.
var systemStringFuncs = map[string]bool{"user": true, "current_user": true, "session_user": true,
	"system_user": true, "database": true, "schema": true, "version": true}

func describeCollation(e Expr, arg ast.ExprNode) (charset, collation string, coercibility int64) {
	t := e.Type()
	k, isConst := e.(*Const)
	switch {
	case isConst && k.Null:
		return "binary", "binary", 6
	case t.ID != columnar.String:
		return "binary", "binary", 5
	}
	if name := nestedCollate(arg); name != "" {
		// x COLLATE utf8mb4_bin binds to x itself (gpusql compares by
		// bytes already), so the name comes from the statement.
		cs, _, _ := strings.Cut(name, "_")
		return cs, name, 0
	}
	if c, explicit := collationOf(e); c != "" {
		cs, _, _ := strings.Cut(c, "_")
		if explicit {
			return cs, c, 0
		}
		return cs, c, 2
	}
	if cs, ok := convertedCharset(arg); ok {
		// MySQL's CAST and CONVERT results are implicit (2), named by
		// the connection's collation of the target charset.
		if cs == "binary" {
			return "binary", "binary", 2
		}
		return cs, defaultCollationOf(cs), 2
	}
	switch a := unparen(arg).(type) {
	case *ast.FuncCallExpr:
		if systemStringFuncs[a.FnName.L] {
			return "utf8mb3", "utf8mb3_general_ci", 3
		}
	case *ast.VariableExpr:
		if a.IsSystem {
			return "utf8mb3", "utf8mb3_general_ci", 3
		}
		if isConst && k.Collation != "" {
			cs, _, _ := strings.Cut(k.Collation, "_")
			return cs, k.Collation, 2
		}
		coercibility = 2 // MySQL: a user variable's value is implicit
	case *ast.SubqueryExpr:
		if f := subqueryField(e); f != nil && f.Type.ID == columnar.String && !f.Type.Binary {
			c := fieldCollation(*f)
			cs, _, _ := strings.Cut(c, "_")
			return cs, c, 2 // a column's, through the subquery
		}
	case ast.ValueExpr:
		switch cs := a.GetType().GetCharset(); {
		case cs == "binary" && a.GetType().GetCollate() == "binary":
			return "binary", "binary", 4
		case cs != "" && cs != "binary" && !utf8Charsets[cs]:
			return cs, defaultCollationOf(cs), 4
		}
	}
	return typedCollation(e, arg, coercibility)
}

// typedCollation describes a string value that names no collation of its
// own: a column's (or the first column's an expression reads), else the
// session's utf8mb4_0900_ai_ci.
func typedCollation(e Expr, arg ast.ExprNode, coercibility int64) (charset, collation string, _ int64) {
	t := e.Type()
	k, isConst := e.(*Const)
	col, reads := firstStringColumn(e)
	if coercibility == 0 {
		coercibility = 4
		if reads {
			coercibility = 2
		}
	}
	switch {
	case t.Binary || (isConst && k.hex) || madeBinary(arg):
		return "binary", "binary", coercibility
	case t.JSON:
		return "utf8mb4", "utf8mb4_bin", coercibility
	case col != nil && col.Collation != "":
		cs, _, _ := strings.Cut(col.Collation, "_")
		return cs, col.Collation, coercibility
	case col != nil && col.Dict != nil:
		return "utf8mb4", "utf8mb4_bin", coercibility
	}
	return "utf8mb4", "utf8mb4_0900_ai_ci", coercibility
}

// firstStringColumn is the first text column e reads (nil when it reads
// none, or only non-text ones) and whether e reads any column.
func firstStringColumn(e Expr) (*Column, bool) {
	var first *Column
	reads := false
	WalkExpr(e, func(x Expr) bool {
		if r, ok := x.(*ColRef); ok {
			reads = true
			if first == nil && r.Col.Type.ID == columnar.String && !r.Col.Type.Binary {
				first = &r.Col
			}
		}
		return first == nil
	})
	return first, reads
}

// convertedCharset is the charset a CAST(x AS CHAR / BINARY), BINARY x
// or CONVERT(x USING cs) converts to.
func convertedCharset(arg ast.ExprNode) (string, bool) {
	if madeBinary(arg) {
		return "binary", true
	}
	switch a := unparen(arg).(type) {
	case *ast.FuncCastExpr:
		if a.Tp.GetType() == mysql.TypeJSON {
			return "", false
		}
		if cs := strings.ToLower(a.Tp.GetCharset()); cs != "" && cs != "utf8" {
			return cs, true
		}
		return "utf8mb4", true
	case *ast.FuncCallExpr:
		if a.FnName.L == "convert" && len(a.Args) == 2 {
			if v, ok := a.Args[1].(ast.ValueExpr); ok {
				if cs, ok := v.GetValue().(string); ok {
					return strings.ToLower(cs), true
				}
			}
		}
	}
	return "", false
}

// defaultCollationOf is a charset's default collation (MySQL's SHOW
// CHARACTER SET), for an introducer such as _latin1'a'.
func defaultCollationOf(cs string) string {
	if c, ok := defaultCollations[cs]; ok {
		return c
	}
	if cs == "latin1" {
		return "latin1_swedish_ci"
	}
	return cs + "_general_ci"
}

// madeBinary reports an argument written as a byte string, which MySQL's
// CHARSET and COLLATION name binary: CONVERT(x USING binary), CAST(x AS
// BINARY) and BINARY x. gpusql binds them to its text type (the bytes are
// the same), so the type alone does not tell.
func madeBinary(arg ast.ExprNode) bool {
	switch a := arg.(type) {
	case *ast.FuncCallExpr:
		if a.FnName.L != "convert" || len(a.Args) != 2 {
			return false
		}
		v, ok := a.Args[1].(ast.ValueExpr)
		if !ok {
			return false
		}
		cs, _ := v.GetValue().(string)
		return strings.EqualFold(cs, "binary")
	case *ast.FuncCastExpr:
		return a.Tp != nil && a.Tp.GetCharset() == "binary"
	case *ast.ParenthesesExpr:
		return madeBinary(a.Expr)
	}
	return false
}

// byteString reports a binary string argument (a BINARY, VARBINARY or
// BLOB column, CONVERT(x USING binary), CAST(x AS BINARY), BINARY x),
// whose characters are its bytes: CHAR_LENGTH is its LENGTH and UPPER and
// LOWER leave it as it is (MySQL's manual, "String Functions").
func byteString(e Expr, arg ast.ExprNode) bool {
	if madeBinary(arg) {
		return true
	}
	switch a := unparen(arg).(type) {
	case *ast.FuncCallExpr: // CONVERT(b USING utf8mb4) is text
		if a.FnName.L == "convert" {
			return false
		}
	case *ast.FuncCastExpr: // and so is CAST(b AS CHAR)
		return false
	}
	return e.Type().ID == columnar.String && e.Type().Binary
}

// utf8Charsets are the charset names gpusql's text (UTF-8) answers to.
var utf8Charsets = map[string]bool{"utf8mb4": true, "utf8": true, "utf8mb3": true}

// convertUsing binds CONVERT(x USING charset): to a UTF-8 charset or to
// binary, x's text as it is (gpusql's strings are UTF-8 or bytes already);
// other charsets are refused rather than mis-encoded.
func (b *binder) convertUsing(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	if len(n.Args) != 2 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function 'convert'")
	}
	cs := ""
	if v, ok := n.Args[1].(ast.ValueExpr); ok {
		if s, ok := v.GetValue().(string); ok {
			cs = strings.ToLower(s)
		}
	}
	if !utf8Charsets[cs] && cs != "binary" {
		return nil, b.errf(pos, "unsupported: CONVERT(... USING %s); utf8mb4, utf8mb3 and binary are supported", cs)
	}
	e, err := b.expr(n.Args[0], sc)
	if err != nil {
		return nil, err
	}
	if cs == "binary" {
		return binaryString(castTo(e, columnar.TString)), nil
	}
	return castTo(e, columnar.TString), nil
}

// nameConst binds NAME_CONST(name, value): value, which like name must be
// a constant (MySQL's rule); the select list names the column name
// (nameConstName).
func (b *binder) nameConst(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	if len(n.Args) != 2 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function 'name_const'")
	}
	if _, ok := nameConstName(n); !ok {
		return nil, b.errf(pos, "Incorrect arguments to NAME_CONST")
	}
	v, err := b.expr(n.Args[1], sc)
	if err != nil {
		return nil, err
	}
	if _, ok := v.(*Const); !ok {
		return nil, b.errf(pos, "Incorrect arguments to NAME_CONST")
	}
	return v, nil
}

// nameConstName is the column name of a select item NAME_CONST('name', v).
func nameConstName(e ast.ExprNode) (string, bool) {
	f, ok := unparen(e).(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "name_const" || len(f.Args) != 2 {
		return "", false
	}
	if v, ok := f.Args[0].(ast.ValueExpr); ok {
		if s, ok := v.GetValue().(string); ok {
			return s, true
		}
	}
	return "", false
}
