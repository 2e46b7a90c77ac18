package sql

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// mysqlExprText prints an expression as MySQL 8 prints a stored one (a
// CHECK clause in SHOW CREATE TABLE and information_schema, a generated
// column's expression): names in backquotes, every operator application in
// parentheses, keywords and function names in lower case, string literals
// with their character set introducer: (`a` > 0), ((`a` + `b`) < 10),
// (`s` like _utf8mb4'x%'). Forms this printer does not know fall back to
// the parser's own restore in lower case.
func mysqlExprText(n ast.ExprNode) string {
	var b strings.Builder
	writeMySQLExpr(&b, n)
	return b.String()
}

func writeMySQLExpr(b *strings.Builder, n ast.ExprNode) {
	switch n := n.(type) {
	case *ast.ColumnNameExpr:
		b.WriteString("`" + strings.ReplaceAll(n.Name.Name.O, "`", "``") + "`")
	case *ast.ParenthesesExpr:
		writeMySQLExpr(b, n.Expr)
	case *driver.ValueExpr:
		writeMySQLValue(b, n)
	case *ast.BinaryOperationExpr:
		b.WriteString("(")
		writeMySQLExpr(b, n.L)
		b.WriteString(" " + mysqlOp(n.Op) + " ")
		writeMySQLExpr(b, n.R)
		b.WriteString(")")
	case *ast.UnaryOperationExpr:
		switch n.Op {
		case opcode.Not, opcode.Not2:
			b.WriteString("(not(")
			writeMySQLExpr(b, n.V)
			b.WriteString("))")
		case opcode.Minus:
			b.WriteString("-(")
			writeMySQLExpr(b, n.V)
			b.WriteString(")")
		default:
			restoreLower(b, n)
		}
	case *ast.IsNullExpr:
		b.WriteString("(")
		writeMySQLExpr(b, n.Expr)
		b.WriteString(map[bool]string{false: " is null)", true: " is not null)"}[n.Not])
	case *ast.PatternInExpr:
		if n.Sel != nil {
			restoreLower(b, n)
			return
		}
		b.WriteString("(")
		writeMySQLExpr(b, n.Expr)
		b.WriteString(map[bool]string{false: " in (", true: " not in ("}[n.Not])
		for i, e := range n.List {
			if i > 0 {
				b.WriteString(",")
			}
			writeMySQLExpr(b, e)
		}
		b.WriteString("))")
	case *ast.BetweenExpr:
		b.WriteString("(")
		writeMySQLExpr(b, n.Expr)
		b.WriteString(map[bool]string{false: " between ", true: " not between "}[n.Not])
		writeMySQLExpr(b, n.Left)
		b.WriteString(" and ")
		writeMySQLExpr(b, n.Right)
		b.WriteString(")")
	case *ast.PatternLikeOrIlikeExpr:
		b.WriteString("(")
		writeMySQLExpr(b, n.Expr)
		b.WriteString(map[bool]string{false: " like ", true: " not like "}[n.Not])
		writeMySQLExpr(b, n.Pattern)
		b.WriteString(")")
	case *ast.FuncCallExpr:
		b.WriteString(n.FnName.L + "(")
		for i, e := range n.Args {
			if i > 0 {
				b.WriteString(",")
			}
			writeMySQLExpr(b, e)
		}
		b.WriteString(")")
	default:
		restoreLower(b, n)
	}
}

// mysqlOp is an operator as MySQL prints it.
func mysqlOp(op opcode.Op) string {
	switch op {
	case opcode.LogicAnd, opcode.LogicOr, opcode.LogicXor:
		return op.String()
	case opcode.NE:
		return "<>"
	case opcode.IntDiv:
		return "div"
	case opcode.Mod:
		return "%"
	}
	var buf bytes.Buffer
	op.Format(&buf)
	return strings.ToLower(buf.String())
}

// writeMySQLValue prints a literal: strings with MySQL's _utf8mb4
// introducer and quotes doubled, NULL as NULL, numbers as written.
func writeMySQLValue(b *strings.Builder, v *driver.ValueExpr) {
	switch {
	case v.Datum.Kind() == driver.KindNull:
		b.WriteString("NULL")
	case v.Datum.Kind() == driver.KindString || v.Datum.Kind() == driver.KindBytes:
		b.WriteString("_utf8mb4'" + strings.ReplaceAll(v.Datum.GetString(), "'", "\\'") + "'")
	default:
		restoreLower(b, v)
	}
}

// restoreLower is the parser's restore of n with lower-case keywords.
func restoreLower(b *strings.Builder, n ast.Node) {
	var sb strings.Builder
	flags := format.RestoreStringSingleQuotes | format.RestoreKeyWordLowercase | format.RestoreNameBackQuotes
	if err := n.Restore(format.NewRestoreCtx(flags, &sb)); err != nil {
		fmt.Fprintf(b, "%v", n.Text())
		return
	}
	b.WriteString(sb.String())
}
