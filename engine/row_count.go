package engine

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/sql"
)

// recordCounts keeps what ROW_COUNT() and FOUND_ROWS() of the
// connection's next statement read (sql/row_count.go): a statement that
// returned rows sets both, one that did not sets ROW_COUNT() only.
func (c *Conn) recordCounts(p sql.Parsed, r *StatementResult) {
	rows := r.Kind == KindRows
	c.vars.SetRowCount(rows, r.RowsAffected)
	if rows && r.Result != nil {
		c.vars.SetFoundRows(int64(r.Result.Rows), calcFoundRows(p.Node))
	}
}

// calcFoundRows reports SELECT SQL_CALC_FOUND_ROWS.
func calcFoundRows(n ast.StmtNode) bool {
	s, ok := n.(*ast.SelectStmt)
	return ok && s.SelectStmtOpts != nil && s.SelectStmtOpts.CalcFoundRows
}
