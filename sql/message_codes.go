package sql

import (
	"errors"
	"strings"
)

// ErrorCode is the MySQL error number every front end (server, REPL,
// database/sql driver, SHOW ERRORS) gives err: the one err carries
// (MySQLCode), else the one its message names (MessageCode), else 0.
// Callers with error types of their own (the server's) check those between.
func ErrorCode(err error) uint16 {
	if code, _ := MySQLCode(err); code != 0 {
		return code
	}
	return MessageCode(err)
}

// MessageCode is the MySQL error number of an error that carries none but
// whose text names its failure: the binder's and executors' messages are
// stable and tested, so their leading words identify them. 0: none.
func MessageCode(err error) uint16 {
	if err == nil {
		return 0
	}
	msg := err.Error()
	var se *Error
	if errors.As(err, &se) {
		msg = se.Msg
	}
	for _, m := range messageCodes {
		if strings.Contains(msg, m.text) {
			return m.code
		}
	}
	return 0
}

// messageCodes map the binder's and executors' messages to codes, most
// specific first.
var messageCodes = []struct {
	text string
	code uint16
}{
	{"Incorrect table definition; there can be only one auto column", 1075}, // ER_WRONG_AUTO_KEY
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
	{"Data truncated for column", 1265}, // WARN_DATA_TRUNCATED
	// VARCHAR / CHAR stores (storage/columnar/varchar.go).
	{"Data too long for column", 1406},      // ER_DATA_TOO_LONG
	{"Incorrect string value", 1366},        // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
	{"cannot be null", 1048},                // ER_BAD_NULL_ERROR
	{"Out of range value for column", 1264}, // ER_WARN_DATA_OUT_OF_RANGE
	// Generated columns (sql/generated.go).
	{"The value specified for generated column", 3105},
	{"Expression of generated column", 3102},
	{"Generated column can refer only to generated columns", 3107},
	{"has a generated column dependency", 3108},
	{"in 'generated column function'", 1054},
	{"Failed to read auto-increment value", 1467}, // ER_AUTOINC_READ_FAILED
	{"unknown table", 1146},                       // ER_NO_SUCH_TABLE
	{"unknown column", 1054},                      // ER_BAD_FIELD_ERROR
	{"unknown database", 1049},                    // ER_BAD_DB_ERROR
	{"unknown system variable", 1193},             // ER_UNKNOWN_SYSTEM_VARIABLE
	{"can't be set to the value", 1231},           // ER_WRONG_VALUE_FOR_VAR
	{"out of range value", 1264},                  // ER_WARN_DATA_OUT_OF_RANGE
	{"value is out of range", 1690},               // ER_DATA_OUT_OF_RANGE
	{"out of range", 1690},                        // ER_DATA_OUT_OF_RANGE
	{"already exists", 1050},                      // ER_TABLE_EXISTS_ERROR
	{"incorrect DATE value", 1292},                // ER_TRUNCATED_WRONG_VALUE
	{"Incorrect datetime value", 1292},            // ER_TRUNCATED_WRONG_VALUE
	{"Incorrect integer value", 1366},             // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
	{"Incorrect decimal value", 1366},             // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
	{"Invalid JSON text in argument", 3141},
	{"Invalid JSON text", 3140},
	{"Invalid JSON path expression", 3143},
	{"Operand should contain", 1241},                                        // ER_OPERAND_COLUMNS
	{"Subquery returns more than 1 row", 1242},                              // ER_SUBQUERY_NO_1_ROW
	{"Result consisted of more than one row", 1172},                         // ER_TOO_MANY_ROWS
	{"The used SELECT statements have a different number of columns", 1222}, // ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT
	{"unsupported", 1235},                                                   // ER_NOT_SUPPORTED_YET
	{"Illegal mix of collations", 1267},                                     // ER_CANT_AGGREGATE_2COLLATIONS
	{"Unknown collation", 1273},                                             // ER_UNKNOWN_COLLATION
	{"is not valid for CHARACTER SET", 1253},                                // ER_COLLATION_CHARSET_MISMATCH
	{"Incorrect user-level lock name", 3057},
	{"Display width out of range for column", 1439}, // ER_TOO_BIG_DISPLAYWIDTH
	{"No value was found by 'json_value' on the specified path", 3966},
	// Regular expressions (sql/regexp.go, exec/cpu/rowfunc_regexp.go).
	{"Incorrect arguments to regexp", 1210}, // ER_WRONG_ARGUMENTS
	{"Index out of bounds in regular expression search", 3686},
	{"Deadlock found when trying to get user-level lock", 3058},
}

// extraSQLStates are the SQLSTATEs of MySQL codes that client libraries'
// tables (go-mysql's) leave at HY000: MySQL 8 sends these.
var extraSQLStates = map[uint16]string{
	3140: "22032", // ER_INVALID_JSON_TEXT
	3141: "22032", // ER_INVALID_JSON_TEXT_IN_PARAM
	3143: "42000", // ER_INVALID_JSON_PATH
	3152: "42000", // ER_JSON_USED_AS_KEY
	3057: "42000", // ER_USER_LOCK_WRONG_NAME
	1792: "25006", // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
}

// ExtraSQLState is MySQL's SQLSTATE for code where a client library's
// table has none (ok false: use the library's).
func ExtraSQLState(code uint16) (string, bool) {
	st, ok := extraSQLStates[code]
	return st, ok
}
