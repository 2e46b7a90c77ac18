package sql

import (
	"fmt"
	"unicode/utf8"
)

// MySQL 8 bounds comments by characters: a table's COMMENT at 2048, a
// column's at 1024 (validate_comment_length). In strict mode a longer one
// is an error; otherwise it is cut to the bound with a warning of the
// same code, which the DDL statement notes when it runs.
const (
	ErTooLongTableComment uint16 = 1628 // Comment for table '%s' is too long (max = %d)
	ErTooLongFieldComment uint16 = 1629 // Comment for field '%s' is too long (max = %d)

	maxTableComment = 2048
	maxFieldComment = 1024
)

// DDLWarnings are the warnings a DDL statement notes when it runs.
type DDLWarnings struct {
	Warnings []Warning
}

// TakeDDLWarnings returns the warnings of st, a statement that may carry
// some (CREATE TABLE, ALTER TABLE).
func TakeDDLWarnings(st Statement) []Warning {
	if w, ok := st.(interface{ ddlWarnings() *DDLWarnings }); ok {
		return w.ddlWarnings().Warnings
	}
	return nil
}

func (w *DDLWarnings) ddlWarnings() *DDLWarnings { return w }

// tableComment checks a table's COMMENT against MySQL's bound.
func (b *binder) tableComment(table, text string) (string, error) {
	return b.commentWithin(text, maxTableComment, ErTooLongTableComment, "table", table)
}

// fieldComment checks a column's COMMENT against MySQL's bound.
func (b *binder) fieldComment(column, text string) (string, error) {
	return b.commentWithin(text, maxFieldComment, ErTooLongFieldComment, "field", column)
}

func (b *binder) commentWithin(text string, limit int, code uint16, kind, name string) (string, error) {
	if utf8.RuneCountInString(text) <= limit {
		return text, nil
	}
	msg := fmt.Sprintf("Comment for %s '%s' is too long (max = %d)", kind, name, limit)
	if b.session == nil || b.session.Strict() {
		return "", b.errCode(b.start, code, "%s", msg)
	}
	b.ddlWarnings = append(b.ddlWarnings, Warning{Level: "Warning", Code: code, Message: msg})
	cut, n := 0, 0
	for i := range text {
		if n == limit {
			cut = i
			break
		}
		n++
	}
	return text[:cut], nil
}
