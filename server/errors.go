package server

import (
	"errors"
	"strings"

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
		if st, ok := extraStates[code]; ok {
			e.State = st
		}
		return e
	}
	e := mysql.NewError(errorCode(err), err.Error())
	if st, ok := extraStates[e.Code]; ok {
		e.State = st
	}
	return e
}

// MySQL's JSON error codes, which the library's tables do not name, and
// their SQLSTATEs.
const (
	erInvalidJSONText        = 3140
	erInvalidJSONTextInParam = 3141
	erInvalidJSONPath        = 3143
	erUserLockWrongName      = 3057 // ER_USER_LOCK_WRONG_NAME
	erUserLockDeadlock       = 3058 // ER_USER_LOCK_DEADLOCK
	erRegexpIndexOutOfBounds = 3686 // ER_REGEXP_INDEX_OUTOFBOUNDS_ERROR
	erMissingJSONValue       = 3966 // ER_MISSING_JSON_VALUE
	erReadOnlyTransaction    = 1792 // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
)

var extraStates = map[uint16]string{erInvalidJSONText: "22032", erInvalidJSONTextInParam: "22032", erInvalidJSONPath: "42000",
	erUserLockWrongName: "42000", erReadOnlyTransaction: "25006"}

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
	msg := err.Error()
	var se *sql.Error
	if errors.As(err, &se) {
		msg = se.Msg
	}
	for _, m := range messageCodes {
		if strings.Contains(msg, m.text) {
			return m.code
		}
	}
	return mysql.ER_UNKNOWN_ERROR
}

// messageCodes map the binder's and executors' messages to codes, most
// specific first.
var messageCodes = []struct {
	text string
	code uint16
}{
	{"Incorrect table definition; there can be only one auto column", mysql.ER_WRONG_AUTO_KEY},
	// CHECK constraints (sql/check.go): MySQL 8.0.16's codes 3812-3822, 3959.
	{"non-boolean type specified to a check constraint", 3812},
	{"Column check constraint '", 3813},
	{"contains disallowed function: ", 3814},
	{"contains disallowed function.", 3815},
	{"cannot refer to a user or system variable", 3816},
	{"cannot refer to a row value", 3817},
	{"cannot refer to an auto-increment column", 3818},
	{"refers to non-existing column", 3820},
	{"Duplicate check constraint name", 3822},
	{"hence column cannot be dropped or renamed", 3959},
	// FOREIGN KEY definitions (sql/foreign_key.go).
	{"Failed to open the referenced table", 1824},
	{"Failed to add the foreign key constraint. Missing index", 1822},
	{"Failed to add the foreign key constraint. Missing column", 3734},
	{"in foreign key constraint", 3780},
	{"cannot be NOT NULL: needed in a foreign key constraint", 1830},
	{"Key reference and table reference don't match", 1239},
	{"Duplicate foreign key constraint name", 1826},
	{"needed in a foreign key constraint", 1828},
	// ENUM / SET values that are not members (storage/columnar/enum.go).
	{"Data truncated for column", mysql.WARN_DATA_TRUNCATED},
	// VARCHAR / CHAR stores (storage/columnar/varchar.go).
	{"Data too long for column", mysql.ER_DATA_TOO_LONG},
	{"Incorrect string value", mysql.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD},
	{"cannot be null", mysql.ER_BAD_NULL_ERROR},
	{"Out of range value for column", mysql.ER_WARN_DATA_OUT_OF_RANGE},
	// Generated columns (sql/generated.go).
	{"The value specified for generated column", 3105},
	{"Expression of generated column", 3102},
	{"Generated column can refer only to generated columns", 3107},
	{"has a generated column dependency", 3108},
	{"in 'generated column function'", 1054},
	{"Failed to read auto-increment value", mysql.ER_AUTOINC_READ_FAILED},
	{"unknown table", mysql.ER_NO_SUCH_TABLE},
	{"unknown column", mysql.ER_BAD_FIELD_ERROR},
	{"unknown database", mysql.ER_BAD_DB_ERROR},
	{"unknown system variable", mysql.ER_UNKNOWN_SYSTEM_VARIABLE},
	{"can't be set to the value", mysql.ER_WRONG_VALUE_FOR_VAR},
	{"out of range value", mysql.ER_WARN_DATA_OUT_OF_RANGE},
	{"value is out of range", mysql.ER_DATA_OUT_OF_RANGE},
	{"out of range", mysql.ER_DATA_OUT_OF_RANGE},
	{"already exists", mysql.ER_TABLE_EXISTS_ERROR},
	{"incorrect DATE value", mysql.ER_TRUNCATED_WRONG_VALUE},
	{"Incorrect datetime value", mysql.ER_TRUNCATED_WRONG_VALUE},
	{"Incorrect integer value", mysql.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD},
	{"Incorrect decimal value", mysql.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD},
	{"Invalid JSON text in argument", erInvalidJSONTextInParam},
	{"Invalid JSON text", erInvalidJSONText},
	{"Invalid JSON path expression", erInvalidJSONPath},
	{"Operand should contain", mysql.ER_OPERAND_COLUMNS},
	{"Subquery returns more than 1 row", mysql.ER_SUBQUERY_NO_1_ROW},
	{"Result consisted of more than one row", mysql.ER_TOO_MANY_ROWS},
	{"The used SELECT statements have a different number of columns", mysql.ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT},
	{"unsupported", mysql.ER_NOT_SUPPORTED_YET},
	{"Illegal mix of collations", mysql.ER_CANT_AGGREGATE_2COLLATIONS},
	{"Unknown collation", mysql.ER_UNKNOWN_COLLATION},
	{"is not valid for CHARACTER SET", mysql.ER_COLLATION_CHARSET_MISMATCH},
	{"Incorrect user-level lock name", erUserLockWrongName},
	{"Display width out of range for column", mysql.ER_TOO_BIG_DISPLAYWIDTH},
	{"No value was found by 'json_value' on the specified path", erMissingJSONValue},
	// Regular expressions (sql/regexp.go, exec/cpu/rowfunc_regexp.go).
	{"Incorrect arguments to regexp", mysql.ER_WRONG_ARGUMENTS},
	{"Index out of bounds in regular expression search", erRegexpIndexOutOfBounds},
	{"Deadlock found when trying to get user-level lock", erUserLockDeadlock},
}
