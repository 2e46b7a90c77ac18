package sql

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
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

func writeMySQLExpr(b *strings.Builder, n ast.ExprNode) { writeMySQLExprCols(b, nil, n) }

// writeMySQLExprCols is writeMySQLExpr with columns as cols writes them
// (nil: their bare names in backquotes).
func writeMySQLExprCols(b *strings.Builder, cols func(*ast.ColumnName) string, n ast.ExprNode) {
	switch n := n.(type) {
	case *ast.ColumnNameExpr:
		if cols != nil {
			b.WriteString(cols(n.Name))
			return
		}
		b.WriteString(backquote(n.Name.Name.O))
	case *ast.ParenthesesExpr:
		writeMySQLExprCols(b, cols, n.Expr)
	case *driver.ValueExpr:
		writeMySQLValue(b, n)
	case *ast.BinaryOperationExpr:
		b.WriteString("(")
		writeMySQLExprCols(b, cols, n.L)
		b.WriteString(" " + mysqlOp(n.Op) + " ")
		writeMySQLExprCols(b, cols, n.R)
		b.WriteString(")")
	case *ast.UnaryOperationExpr:
		switch n.Op {
		case opcode.Not, opcode.Not2:
			b.WriteString("(not(")
			writeMySQLExprCols(b, cols, n.V)
			b.WriteString("))")
		case opcode.Minus:
			b.WriteString("-(")
			writeMySQLExprCols(b, cols, n.V)
			b.WriteString(")")
		default:
			restoreLower(b, n)
		}
	case *ast.IsNullExpr:
		b.WriteString("(")
		writeMySQLExprCols(b, cols, n.Expr)
		b.WriteString(map[bool]string{false: " is null)", true: " is not null)"}[n.Not])
	case *ast.PatternInExpr:
		if n.Sel != nil {
			restoreLower(b, n)
			return
		}
		b.WriteString("(")
		writeMySQLExprCols(b, cols, n.Expr)
		b.WriteString(map[bool]string{false: " in (", true: " not in ("}[n.Not])
		for i, e := range n.List {
			if i > 0 {
				b.WriteString(",")
			}
			writeMySQLExprCols(b, cols, e)
		}
		b.WriteString("))")
	case *ast.BetweenExpr:
		b.WriteString("(")
		writeMySQLExprCols(b, cols, n.Expr)
		b.WriteString(map[bool]string{false: " between ", true: " not between "}[n.Not])
		writeMySQLExprCols(b, cols, n.Left)
		b.WriteString(" and ")
		writeMySQLExprCols(b, cols, n.Right)
		b.WriteString(")")
	case *ast.PatternLikeOrIlikeExpr:
		b.WriteString("(")
		writeMySQLExprCols(b, cols, n.Expr)
		b.WriteString(map[bool]string{false: " like ", true: " not like "}[n.Not])
		writeMySQLExprCols(b, cols, n.Pattern)
		b.WriteString(")")
	case *ast.FuncCastExpr:
		t, ok := castTypeText(n)
		if !ok {
			restoreLower(b, n)
			return
		}
		b.WriteString("cast(")
		writeMySQLExprCols(b, cols, n.Expr)
		b.WriteString(" as " + t + ")")
	case *ast.FuncCallExpr:
		name, args := n.FnName.L, n.Args
		if canon, ok := printedFuncNames[name]; ok {
			name = canon
		}
		if name == "instr" && len(args) == 2 {
			// Item_func_instr keeps Item_func_locate's print, which
			// writes locate(substring,string): INSTR(s, t) is locate(t,s).
			name, args = "locate", []ast.ExprNode{args[1], args[0]}
		}
		b.WriteString(name + "(")
		for i, e := range args {
			if i > 0 {
				b.WriteString(",")
			}
			writeMySQLExprCols(b, cols, e)
		}
		b.WriteString(")")
	default:
		restoreLower(b, n)
	}
}

// printedFuncNames are aliases MySQL prints by its item's func_name(), the
// one Item class each alias builds: POWER(-2, 0.5)'s error names
// pow(-(2),0.5), CEIL(x) + 1's ceiling(x). POSITION(s IN t) is
// Item_func_locate, whose print puts s first as gpusql's arguments are.
var printedFuncNames = map[string]string{
	"power": "pow", "ceil": "ceiling",
	"lcase": "lower", "ucase": "upper",
	"substring": "substr", "mid": "substr",
	"character_length": "char_length", "octet_length": "length",
	"position": "locate", "day": "dayofmonth",
}

// castTypeText is a CAST's target as MySQL prints it, for the integer,
// DOUBLE, FLOAT and DECIMAL targets (ok false for others).
func castTypeText(n *ast.FuncCastExpr) (string, bool) {
	switch n.Tp.GetType() {
	case mysql.TypeLonglong:
		if mysql.HasUnsignedFlag(n.Tp.GetFlag()) {
			return "unsigned", true
		}
		return "signed", true
	case mysql.TypeDouble:
		return "double", true
	case mysql.TypeFloat:
		if n.Tp.GetFlen() <= 24 {
			return "float", true
		}
	case mysql.TypeNewDecimal:
		if n.Tp.GetFlen() > 0 && n.Tp.GetDecimal() >= 0 {
			return fmt.Sprintf("decimal(%d,%d)", n.Tp.GetFlen(), n.Tp.GetDecimal()), true
		}
	}
	return "", false
}

func backquote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// mysqlOp is an operator as MySQL prints it.
func mysqlOp(op opcode.Op) string {
	switch op {
	case opcode.LogicAnd, opcode.LogicOr, opcode.LogicXor:
		return op.String()
	case opcode.NE:
		return "<>"
	case opcode.IntDiv:
		return "DIV" // Item_func_int_div's func_name(), which print_op writes
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
	case v.Datum.Kind() == driver.KindFloat64:
		// MySQL's Item_float prints the literal as written (1e308); the
		// parser's restore would write 1e+308.
		if t := strings.TrimSpace(v.Text()); t != "" {
			b.WriteString(t)
			return
		}
		b.WriteString(strings.Replace(strconv.FormatFloat(v.Datum.GetFloat64(), 'g', -1, 64), "e+", "e", 1))
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
