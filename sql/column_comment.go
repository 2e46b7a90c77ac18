package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// columnComment is the text of a column's COMMENT 'text' option, which
// the parser keeps as a string literal.
func columnComment(o *ast.ColumnOption) string {
	if v, ok := o.Expr.(*driver.ValueExpr); ok {
		return v.GetString()
	}
	return ""
}

// QuoteComment writes a comment as MySQL's SHOW CREATE TABLE does
// (append_unescaped): in single quotes, with a quote, a backslash and the
// control characters MySQL escapes written as backslash escapes, so the
// text reads back as the same comment.
func QuoteComment(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		case 032:
			b.WriteString(`\Z`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
