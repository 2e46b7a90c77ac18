package sql

import (
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// MySQL's errors for names a table or column cannot take
// (check_table_name, check_column_name in sql/table.cc).
const (
	ErTooLongIdent    = 1059 // Identifier name '%s' is too long
	ErWrongColumnName = 1166 // Incorrect column name '%s'
)

// maxIdentChars is NAME_CHAR_LEN, the longest table or column name.
const maxIdentChars = 64

// tableNameError is MySQL's error for a new table or view name: 1103 for
// an empty one or one that ends in a space, 1059 past 64 characters.
func (b *binder) tableNameError(name string) error {
	return b.identNameError(name, ErWrongTableName, "Incorrect table name '%s'")
}

// columnNameError is tableNameError for a new column name (1166).
func (b *binder) columnNameError(name string) error {
	return b.identNameError(name, ErWrongColumnName, "Incorrect column name '%s'")
}

func (b *binder) identNameError(name string, code uint16, format string) error {
	switch {
	case name == "" || strings.HasSuffix(name, " "):
		return b.errCode(b.wordPos(name, -1), code, format, name)
	case utf8.RuneCountInString(name) > maxIdentChars:
		return b.errCode(b.wordPos(name, -1), ErTooLongIdent, "Identifier name '%s' is too long", name)
	}
	return nil
}

// ErPartitionClauseOnNonpartitioned is MySQL's 1747: gpusql has no
// partitioned tables, so a PARTITION (p0) clause naming a table's
// partitions is always this error rather than ignored.
const ErPartitionClauseOnNonpartitioned = 1747

func (b *binder) partitionClause(names []ast.CIStr) error {
	if len(names) == 0 {
		return nil
	}
	return b.errCode(b.wordPos("PARTITION", -1), ErPartitionClauseOnNonpartitioned, "PARTITION () clause on non partitioned table")
}
