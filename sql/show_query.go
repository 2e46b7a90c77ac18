package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// SHOW statements that MySQL defines as views of information_schema
// tables are bound as those SELECTs, so they have MySQL's columns and take
// LIKE and WHERE as MySQL's do (WHERE over the SHOW's column names).

// tableStatusColumns are SHOW TABLE STATUS's columns and the
// information_schema.TABLES column each reads.
var tableStatusColumns = [][2]string{{"TABLE_NAME", "Name"}, {"ENGINE", "Engine"}, {"VERSION", "Version"},
	{"ROW_FORMAT", "Row_format"}, {"TABLE_ROWS", "Rows"}, {"AVG_ROW_LENGTH", "Avg_row_length"},
	{"DATA_LENGTH", "Data_length"}, {"MAX_DATA_LENGTH", "Max_data_length"}, {"INDEX_LENGTH", "Index_length"},
	{"DATA_FREE", "Data_free"}, {"AUTO_INCREMENT", "Auto_increment"}, {"CREATE_TIME", "Create_time"},
	{"UPDATE_TIME", "Update_time"}, {"CHECK_TIME", "Check_time"}, {"TABLE_COLLATION", "Collation"},
	{"CHECKSUM", "Checksum"}, {"CREATE_OPTIONS", "Create_options"}, {"TABLE_COMMENT", "Comment"}}

// showColumnsColumns are SHOW [FULL] COLUMNS' columns from COLUMNS.
func showColumnsColumns(full bool) [][2]string {
	if !full {
		return [][2]string{{"COLUMN_NAME", "Field"}, {"COLUMN_TYPE", "Type"}, {"IS_NULLABLE", "Null"},
			{"COLUMN_KEY", "Key"}, {"COLUMN_DEFAULT", "Default"}, {"EXTRA", "Extra"}}
	}
	return [][2]string{{"COLUMN_NAME", "Field"}, {"COLUMN_TYPE", "Type"}, {"COLLATION_NAME", "Collation"},
		{"IS_NULLABLE", "Null"}, {"COLUMN_KEY", "Key"}, {"COLUMN_DEFAULT", "Default"}, {"EXTRA", "Extra"},
		{"PRIVILEGES", "Privileges"}, {"COLUMN_COMMENT", "Comment"}}
}

// showIndexColumns are SHOW INDEX's columns from STATISTICS.
var showIndexColumns = [][2]string{{"TABLE_NAME", "Table"}, {"NON_UNIQUE", "Non_unique"}, {"INDEX_NAME", "Key_name"},
	{"SEQ_IN_INDEX", "Seq_in_index"}, {"COLUMN_NAME", "Column_name"}, {"COLLATION", "Collation"},
	{"CARDINALITY", "Cardinality"}, {"SUB_PART", "Sub_part"}, {"PACKED", "Packed"}, {"NULLABLE", "Null"},
	{"INDEX_TYPE", "Index_type"}, {"COMMENT", "Comment"}, {"INDEX_COMMENT", "Index_comment"},
	{"IS_VISIBLE", "Visible"}, {"EXPRESSION", "Expression"}}

// showQuery binds n as SELECT cols FROM information_schema.from [WHERE
// filter], each column renamed as the SHOW names it, in the order of the
// information_schema column order (a column not shown; "": the table's
// row order); LIKE filters the
// first column, WHERE the rows. The WHERE keeps its place in the
// statement for its errors (an unknown column is 1054 there).
func (b *binder) showQuery(n *ast.ShowStmt, from, filter, order string, cols [][2]string) (Statement, error) {
	var inner, outer strings.Builder
	for i, c := range cols {
		if i > 0 {
			inner.WriteString(", ")
			outer.WriteString(", ")
		}
		fmt.Fprintf(&inner, "%s AS `%s`", c[0], c[1])
		fmt.Fprintf(&outer, "`%s`", c[1])
	}
	where := ""
	if filter != "" {
		where = " WHERE " + filter
	}
	text := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM information_schema.%s%s) AS show_rows", outer.String(), inner.String(), from, where)
	if order != "" { // else the table's own row order
		text = fmt.Sprintf("SELECT %s FROM (SELECT %s, %s AS show_order FROM information_schema.%s%s) AS show_rows ORDER BY show_order",
			outer.String(), inner.String(), order, from, where)
	}
	ps, err := Parse(text)
	if err != nil {
		return nil, err
	}
	q := ps[0].Node.(*ast.SelectStmt)
	q.Where = n.Where
	if n.Pattern != nil {
		n.Pattern.Expr = &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(cols[0][1])}}
		q.Where = n.Pattern
	}
	return b.topQuery(q)
}
