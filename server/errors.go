package server

import (
	"errors"

	"github.com/go-mysql-org/go-mysql/mysql"

	"gpusql/catalog"
	"gpusql/engine"
	"gpusql/exec"
	"gpusql/sql"
)

// mysqlError gives an engine error the MySQL error code (and, through the
// library's table, the SQLSTATE) that a MySQL 8 server gives the same
// failure, so client libraries that branch on codes (retry on 1213, report
// 1146 as a missing table) behave. Typed errors map by type; the binder's
// errors carry their meaning in their text, which is stable and tested, so
// those map by its leading words. The message stays gpusql's, with the
// line:column it names.
func mysqlError(err error) *mysql.MyError {
	var my *mysql.MyError
	if errors.As(err, &my) {
		return my
	}
	if code, msg := sql.MySQLCode(err); code != 0 {
		// MySQL's own text, without gpusql's line:column, as a MySQL
		// client shows it.
		e := mysql.NewError(code, msg)
		if st, ok := sql.ExtraSQLState(code); ok {
			e.State = st
		}
		return e
	}
	e := mysql.NewError(errorCode(err), err.Error())
	if st, ok := sql.ExtraSQLState(e.Code); ok {
		e.State = st
	}
	return e
}

func errorCode(err error) uint16 {
	if code, _ := sql.MySQLCode(err); code != 0 {
		return code
	}
	var (
		dup  *catalog.DuplicateKeyError
		conf *catalog.ConflictError
		mem  *exec.MemoryLimitError
		priv *engine.PrivilegeError
		user *engine.UserError
		root *engine.FileRootError
		kill *killError
		syn  *syntaxError
		save *engine.SavepointError
		con  *catalog.ConstraintError
		zone *sql.UnknownTimeZoneError
		warn *sql.WarningError
	)
	switch {
	case errors.As(err, &con):
		return con.Code
	case errors.As(err, &zone):
		return mysql.ER_UNKNOWN_TIME_ZONE
	case errors.As(err, &warn):
		return warn.Warning.Code
	case errors.As(err, &syn):
		return mysql.ER_PARSE_ERROR
	case errors.Is(err, errEmptyQuery):
		return mysql.ER_EMPTY_QUERY
	case errors.Is(err, engine.ErrCancelled):
		return mysql.ER_QUERY_INTERRUPTED
	case errors.As(err, &dup):
		return mysql.ER_DUP_ENTRY
	case errors.As(err, &conf):
		return mysql.ER_LOCK_DEADLOCK
	case errors.As(err, &mem):
		return mysql.ER_OUT_OF_RESOURCES
	case errors.As(err, &priv):
		if priv.Command == "CREATE USER" || priv.Command == "SET GLOBAL" {
			return mysql.ER_SPECIFIC_ACCESS_DENIED_ERROR
		}
		return mysql.ER_TABLEACCESS_DENIED_ERROR
	case errors.As(err, &user):
		return mysql.ER_CANNOT_USER
	case errors.As(err, &root):
		return mysql.ER_OPTION_PREVENTS_STATEMENT
	case errors.As(err, &save):
		return mysql.ER_SP_DOES_NOT_EXIST
	case errors.As(err, &kill):
		if kill.denied {
			return mysql.ER_KILL_DENIED_ERROR
		}
		return mysql.ER_NO_SUCH_THREAD
	}
	if code := sql.MessageCode(err); code != 0 {
		return code
	}
	return mysql.ER_UNKNOWN_ERROR
}
