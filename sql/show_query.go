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

// showQuery binds n as SELECT cols FROM information_schema.from, each
// column renamed as the SHOW names it, ordered by the first; LIKE filters
// the first column, WHERE the rows. The WHERE keeps its place in the
// statement for its errors (an unknown column is 1054 there).
func (b *binder) showQuery(n *ast.ShowStmt, from string, cols [][2]string) (Statement, error) {
	var sel strings.Builder
	for i, c := range cols {
		if i > 0 {
			sel.WriteString(", ")
		}
		fmt.Fprintf(&sel, "%s AS `%s`", c[0], c[1])
	}
	text := fmt.Sprintf("SELECT * FROM (SELECT %s FROM information_schema.%s) AS show_rows ORDER BY `%s`", sel.String(), from, cols[0][1])
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
