package main

import (
	"fmt"

	"github.com/go-mysql-org/go-mysql/mysql"

	"gpusql/sql"
)

// errorCode is the "ERROR 1054 (42S22): " a MySQL client puts before an
// error's message, for the errors that carry MySQL's number (with the
// SQLSTATE MySQL gives it), or "" for the others.
func errorCode(err error) string {
	code := sql.ErrorCode(err)
	if code == 0 {
		return ""
	}
	state := mysql.NewError(code, "").State
	if st, ok := sql.ExtraSQLState(code); ok {
		state = st
	}
	return fmt.Sprintf("ERROR %d (%s): ", code, state)
}
