package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"
)

// MySQL 8.0's error numbers for the failures the binder reports with
// MySQL's own text ("MySQL 8.0 Server Error Message Reference"), so that a
// MySQL client through `gpusql serve` sees the number, SQLSTATE and message
// a MySQL server gives, and SHOW ERRORS lists them.
const (
	ErBadDB                       = 1049 // Unknown database '%s'
	ErBadNull                     = 1048 // Column '%s' cannot be null
	ErInvalidUseOfNull            = 1138 // Invalid use of NULL value
	ErWarnDataOutOfRange          = 1264 // Out of range value for column '%s' at row %d
	ErTooBigScale                 = 1425 // Too big scale %d specified for column '%s'. Maximum is %lu.
	ErTooBigPrecision             = 1426 // Too-big precision %d specified for '%s'. Maximum is %lu.
	ErMBiggerThanD                = 1427 // For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '%s').
	ErTruncatedWrongValue         = 1292 // Incorrect date value: '%s' for column '%s' at row %d
	ErTruncatedWrongValueForField = 1366 // Incorrect integer value: '%s' for column '%s' at row %d
	ErDataTooLong                 = 1406 // Data too long for column '%s' at row %d
	ErTableExists                 = 1050 // Table '%s' already exists
	ErBadTable                    = 1051 // Unknown table '%s'
	ErNonUniqError                = 1052 // Column '%s' in %s is ambiguous
	ErWrongFieldWithGroup         = 1055 // Expression #%d of %s is not in GROUP BY clause and contains nonaggregated column ...
	ErMixOfGroupFuncAndFields     = 1140 // In aggregated query without GROUP BY, expression #%d of SELECT list contains nonaggregated column ...
	ErWrongGroupField             = 1056 // Can't group on '%s'
	ErCantRemoveAllFields         = 1090 // You can't delete all columns with ALTER TABLE; use DROP TABLE instead
	ErCollationCharsetMismatch    = 1253 // COLLATION '%s' is not valid for CHARACTER SET '%s'
	ErUnknownCollation            = 1273 // Unknown collation: '%s'
	ErUnknownCharacterSet         = 1115 // Unknown character set: '%s'
	ErWarnTooFewRecords           = 1261 // Row %ld doesn't contain data for all columns
	ErWarnTooManyRecords          = 1262 // Row %ld was truncated; it contained more data than there were input columns
	ErWarnNullToNotNull           = 1263 // Column set to default value; NULL supplied to NOT NULL column '%s' at row %ld
	ErCantDropFieldOrKey          = 1091 // Can't DROP '%s'; check that column/key exists
	ErDupKeyName                  = 1061 // Duplicate key name '%s'
	ErKeyColumnDoesNotExist       = 1072 // Key column '%s' doesn't exist in table
	ErUnknownSystemVariable       = 1193 // Unknown system variable '%s'
	ErIncorrectGlobalLocalVar     = 1238 // Variable '%s' is a read only variable
	ErLocalVariable               = 1228 // Variable '%s' is a SESSION variable and can't be used with SET GLOBAL
	ErVariableIsReadonly          = 1621 // %s variable '%s' is read-only. Use SET %s to assign the value
	ErUnknownStorageEngine        = 1286 // Unknown storage engine '%s'
	ErUnsupportedPS               = 1295 // This command is not supported in the prepared statement protocol yet
	ErWarnUsingOtherHandler       = 1266 // Using storage engine %s for table '%s'
	ErInvalidDefault              = 1067 // Invalid default value for '%s'
	ErInvalidOnUpdate             = 1294 // Invalid ON UPDATE clause for '%s' column
	ErMultiplePriKey              = 1068 // Multiple primary key defined
	ErUpdateTableUsed             = 1093 // You can't specify target table '%s' for update in FROM clause
	ErBlobCantHaveDefault         = 1101 // BLOB, TEXT, GEOMETRY or JSON column '%s' can't have a default value
	ErWrongTableName              = 1103 // Incorrect table name '%s'
	ErWrongNameForIndex           = 1280 // Incorrect index name '%s'
	ErViewWrongList               = 1353 // In definition of view, derived table or common table expression, ...
	ErViewInvalid                 = 1356 // View '%s.%s' references invalid table(s) or column(s) or function(s) ...
	ErWrongValue                  = 1525 // Incorrect %s value: '%s'
	ErTooBigFieldLength           = 1074 // Column length too big for column '%s' (max = %d); use BLOB or TEXT instead
	ErWrongValueForVar            = 1231 // Variable '%s' can't be set to the value of '%s'
	ErWrongTypeForVar             = 1232 // Incorrect argument type to variable '%s'
	ErTooManyRows                 = 1172 // Result consisted of more than one row
	ErWrongArguments              = 1210 // Incorrect arguments to %s
	ErUnknownStmtHandler          = 1243 // Unknown prepared statement handler (%s) given to %s
	ErWrongObject                 = 1347 // '%s.%s' is not VIEW
	ErWindowNoSuchWindow          = 3579 // Window name '%s' is not defined.
	ErWindowCircularity           = 3580 // There is a circularity in the window dependency graph.
	ErWindowNoChildPartitioning   = 3581 // A window which depends on another cannot define partitioning.
	ErWindowNoInheritFrame        = 3582 // Window '%s' has a frame definition, so cannot be referenced by another window.
	ErWindowNoRedefineOrderBy     = 3583 // Window '%s' cannot inherit '%s' since both contain an ORDER BY clause.
	ErWindowDuplicateName         = 3591 // Window '%s' is defined twice.
	ErWindowFrameStartIllegal     = 3584 // Window '%s': frame start cannot be UNBOUNDED FOLLOWING.
	ErWindowFrameEndIllegal       = 3585 // Window '%s': frame end cannot be UNBOUNDED PRECEDING.
	ErWindowFrameIllegal          = 3586 // Window '%s': frame start or end is negative, NULL or of non-integral type
	ErWindowRangeFrameOrderType   = 3587 // Window '%s' with RANGE N PRECEDING/FOLLOWING frame requires exactly one ORDER BY expression, ...
	ErWindowRangeFrameTemporal    = 3588 // Window '%s' with RANGE frame has ORDER BY expression of datetime type. ...
	ErWindowRangeFrameNumeric     = 3589 // Window '%s' with RANGE frame has ORDER BY expression of numeric type, ...
	ErWindowRangeBoundNotConstant = 3590 // Window '%s' has a non-constant frame bound.
	ErWindowRowsIntervalUse       = 3596 // Window '%s': INTERVAL can only be used with RANGE frames.
	ErWindowInvalidUse            = 3593 // You cannot use the window function '%s' in this context.'
	ErWindowNestedInSpec          = 3595 // You cannot nest a window function in the specification of window '%s'.
	ErCTEMaxRecursionDepth        = 3636 // Recursive query aborted after %d iterations. ...
	ErUnknownTable                = 1109 // Unknown table '%s' in %s
	ErBadField                    = 1054 // Unknown column '%s' in '%s'
	ErDupFieldName                = 1060 // Duplicate column name '%s'
	ErParse                       = 1064 // You have an error in your SQL syntax; ...
	ErNonUniqTable                = 1066 // Not unique table/alias: '%s'
	ErWrongValueCount             = 1136 // Column count doesn't match value count at row %d
	ErNoDefaultForField           = 1364 // Field '%s' doesn't have a default value
	ErFieldSpecifiedTwice         = 1110 // Column '%s' specified twice
	ErInvalidGroupFuncUse         = 1111 // Invalid use of group function
	ErFieldInGroupingNotGroupBy   = 3602 // Argument #%d of GROUPING function is not in GROUP BY
	ErNoSuchTable                 = 1146 // Table '%s.%s' doesn't exist
	ErPrimaryCantHaveNull         = 1171 // All parts of a PRIMARY KEY must be NOT NULL; ...
	ErBlobKeyWithoutLength        = 1170 // BLOB/TEXT column '%s' used in key specification without a key length
	ErWrongSubKey                 = 1089 // Incorrect prefix key; the used key part isn't a string, ...
	ErJSONUsedAsKey               = 3152 // JSON column '%s' supports indexing only via generated columns on a specified JSON path.
	ErOperandColumns              = 1241 // Operand should contain %d column(s)
	ErSubqueryNo1Row              = 1242 // Subquery returns more than 1 row
	ErWrongNumberOfColumns        = 1222 // The used SELECT statements have a different number of columns
	ErDerivedMustHaveAlias        = 1248 // Every derived table must have its own alias
	ErNotSupportedYet             = 1235 // This version of MySQL doesn't yet support '%s'
	ErWrongUsage                  = 1221 // Incorrect usage of %s and %s
	ErTablenameNotAllowedHere     = 1250 // Table '%s' from one of the SELECTs cannot be used in %s
	ErSPDoesNotExist              = 1305 // FUNCTION %s does not exist
	ErWrongParamCountNative       = 1582 // Incorrect parameter count in the call to native function '%s'
	ErQueryTimeout                = 3024 // Query execution was interrupted, maximum statement execution time exceeded
	ErFieldInOrderNotSelect       = 3065 // Expression #%u of ORDER BY clause is not in SELECT list, references column ...
	ErAggregateInOrderNotSelect   = 3066 // Expression #%u of ORDER BY clause is not in SELECT list, contains aggregate function ...
)

// errCode is errf for a failure MySQL numbers: the message is MySQL's.
func (b *binder) errCode(pos int, code uint16, format string, args ...any) *Error {
	e := b.errf(pos, format, args...)
	e.Code = code
	return e
}

// inClause names the clause whose expressions are being bound, for MySQL's
// name errors ("Unknown column 'x' in 'where clause'"); the function it
// returns restores the previous one.
func (b *binder) inClause(name string) func() {
	prev := b.clause
	b.clause = name
	return func() { b.clause = prev }
}

// clauseName is the clause of MySQL's messages; the select list ('field
// list') where no other was named.
func (b *binder) clauseName() string {
	if b.clause == "" {
		return "field list"
	}
	return b.clause
}

// unknownColumn is MySQL's 1054 for a name no table in scope has.
func (b *binder) unknownColumn(pos int, name string) *Error {
	return b.errCode(pos, ErBadField, "Unknown column '%s' in '%s'", name, b.clauseName())
}

// ambiguousColumn is MySQL's 1052: "in field list" without quotes.
func (b *binder) ambiguousColumn(pos int, name string) *Error {
	return b.errCode(pos, ErNonUniqError, "Column '%s' in %s is ambiguous", name, b.clauseName())
}

// paramCount is MySQL's 1582 for a built-in function called with too few
// or too many arguments.
func (b *binder) paramCount(pos int, name string) *Error {
	return b.errCode(pos, ErWrongParamCountNative, "Incorrect parameter count in the call to native function '%s'", name)
}

// notGrouped is ONLY_FULL_GROUP_BY's error for column c of a grouped
// query, neither grouped nor aggregated: MySQL's 1055, or 1140 for an
// aggregated query without GROUP BY. The column is named as MySQL names
// it, database.table.column.
func (b *binder) notGrouped(pos int, c scopeCol, grouped bool) *Error {
	name := c.name
	if c.table != "" {
		name = DatabaseName + "." + c.table + "." + c.name
	}
	if !grouped {
		return b.errCode(pos, ErMixOfGroupFuncAndFields, "In aggregated query without GROUP BY, expression #%d of SELECT list contains nonaggregated column '%s'; this is incompatible with sql_mode=only_full_group_by", max(b.exprIndex, 1), name)
	}
	clause := map[string]string{"order clause": "ORDER BY clause", "having clause": "HAVING clause"}[b.clause]
	if clause == "" {
		clause = "SELECT list"
	}
	return b.errCode(pos, ErWrongFieldWithGroup, "Expression #%d of %s is not in GROUP BY clause and contains nonaggregated column '%s' which is not functionally dependent on columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by", max(b.exprIndex, 1), clause, name)
}

// invalidDefault is MySQL's 1067 for a DEFAULT a column cannot take;
// gpusql's reason follows in its own text.
func (b *binder) invalidDefault(pos int, column, reason string) *Error {
	err := b.errCode(pos, ErInvalidDefault, "Invalid default value for '%s'", column)
	err.Detail = reason
	return err
}

// columnLengthError is MySQL's 1074 for a CHAR / VARCHAR / BINARY /
// VARBINARY length past what the type holds (utf8mb4 VARCHAR: 65,535 bytes
// of row at 4 bytes a character, 16,383; CHAR and BINARY: 255).
func (b *binder) columnLengthError(tp *types.FieldType, name string, pos int) *Error {
	limit := 0
	switch tp.GetType() {
	case mysql.TypeString:
		limit = 255
	case mysql.TypeVarchar, mysql.TypeVarString:
		limit = 16383
		if isBinary(tp) {
			limit = 65535
		}
	}
	if limit != 0 && tp.GetFlen() == 0 {
		// MySQL takes CHAR(0) / VARCHAR(0), a column of '' and NULL only;
		// gpusql's storage reads width 0 as no limit, so it refuses them
		// rather than store longer strings (README, differences).
		return b.errf(pos, "unsupported: %s(0) (column '%s'): a column of width 0, which holds only '' or NULL in MySQL (declare a width of 1 or more)", strings.ToUpper(types.TypeToStr(tp.GetType(), tp.GetCharset())), name)
	}
	if limit == 0 || tp.GetFlen() <= limit {
		return nil
	}
	return b.errCode(pos, ErTooBigFieldLength, "Column length too big for column '%s' (max = %d); use BLOB or TEXT instead", name, limit)
}

// invalidView is MySQL's 1356 for a view whose SELECT no longer binds;
// gpusql's reason follows in its own text.
func (b *binder) invalidView(pos int, name, reason string) *Error {
	err := b.errCode(pos, ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", DatabaseName, name)
	err.Detail = reason
	return err
}

// frameIllegal is MySQL's 3586 for a frame offset that is no
// non-negative integer; gpusql's reason as detail. (gpusql binds named
// windows into their uses, so the window is MySQL's '<unnamed window>'.)
func (b *binder) frameIllegal(pos int, reason string) *Error {
	err := b.errCode(pos, ErWindowFrameIllegal, "Window '<unnamed window>': frame start or end is negative, NULL or of non-integral type")
	err.Detail = reason
	return err
}
