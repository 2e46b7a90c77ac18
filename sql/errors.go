package sql

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// Error is a parse or bind error at a position of the text given to Parse.
// Line and Col are 1-based; Col counts characters (runes) from the start of
// the line, so an editor can jump to it. Line 0 is an error of no position.
// Code, where set, is the MySQL error number of the same failure, and Msg
// then MySQL's text (mysql_errors.go).
// Detail, where set, follows Msg in gpusql's text only (MySQL's has none).
type Error struct {
	Line, Col int
	Msg       string
	Code      uint16
	Detail    string
}

func (e *Error) Error() string {
	msg := e.Msg
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	if e.Line == 0 {
		return msg
	}
	return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, msg)
}

// Errorf is a MySQL error of no position: code and MySQL's message.
func Errorf(code uint16, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// MySQLCode is the MySQL error number err carries (0: none), and the
// message a MySQL client shows for it (without gpusql's line:column).
func MySQLCode(err error) (uint16, string) {
	var e *Error
	if errors.As(err, &e) && e.Code != 0 {
		return e.Code, e.Msg
	}
	var ce *catalog.ConstraintError
	if errors.As(err, &ce) && ce.Code != 0 {
		return ce.Code, ce.Msg
	}
	var dup *catalog.DuplicateKeyError
	if errors.As(err, &dup) {
		return 1062, dup.Error() // ER_DUP_ENTRY
	}
	var se *columnar.StringError
	if errors.As(err, &se) && se.TooLong && se.JSONError == "" && !se.Truncated && se.Column != "" {
		return ErDataTooLong, fmt.Sprintf("Data too long for column '%s' at row %d", se.Column, se.Row)
	}
	if errors.As(err, &se) && se.Truncated && se.Column != "" { // not a member of the ENUM or SET
		return WarnDataTruncated, fmt.Sprintf("Data truncated for column '%s' at row %d", se.Column, se.Row)
	}
	var we *WarningError
	if errors.As(err, &we) && we.Warning.Code != 0 {
		return we.Warning.Code, we.Warning.Message // a warning strict mode made the error
	}
	var coded MySQLCoded
	if errors.As(err, &coded) {
		return coded.MySQLError()
	}
	return 0, ""
}

// MySQLCoded is an error of another package that is one of MySQL's: its
// number and MySQL's message (engine.SavepointError's 1305).
type MySQLCoded interface {
	error
	MySQLError() (code uint16, msg string)
}

// lineCol maps a byte offset of src to a 1-based line and column.
func lineCol(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(src[start:off]) + 1
}
