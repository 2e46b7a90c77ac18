package engine

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"gpusql/sql"
)

// recordCounts keeps what ROW_COUNT() and FOUND_ROWS() of the
// connection's next statement read (sql/row_count.go): a statement that
// returned rows sets both, one that did not sets ROW_COUNT() only. After
// SELECT SQL_CALC_FOUND_ROWS, FOUND_ROWS() is the rows without the LIMIT
// (foundRowsCount).
func (c *Conn) recordCounts(ctx context.Context, p sql.Parsed, r *StatementResult, baseDir string) {
	rows := r.Kind == KindRows
	affected := r.RowsAffected
	if r.Found && c.foundRows {
		affected = r.RowsFound // the OK packet's count, which ROW_COUNT() is
	}
	c.vars.SetRowCount(rows, affected)
	if !rows || r.Result == nil {
		return
	}
	if calcFoundRows(p.Node) {
		if n, ok := c.foundRowsCount(ctx, p, baseDir); ok {
			c.vars.SetFoundRows(n, false)
			return
		}
	}
	c.vars.SetFoundRows(int64(r.Result.Rows), calcFoundRows(p.Node))
}

// SetClientFoundRows tells the connection its client set CLIENT_FOUND_ROWS:
// ROW_COUNT() then reports UPDATE's rows matched, as the OK packet does
// ("ROW_COUNT()": the value mysql_affected_rows() returns).
func (c *Conn) SetClientFoundRows(on bool) { c.foundRows = on }

// calcFoundRows reports SELECT SQL_CALC_FOUND_ROWS.
func calcFoundRows(n ast.StmtNode) bool {
	s, ok := n.(*ast.SelectStmt)
	return ok && s.SelectStmtOpts != nil && s.SelectStmtOpts.CalcFoundRows
}

// foundRowsCount counts the rows of a SELECT SQL_CALC_FOUND_ROWS without
// its LIMIT, as MySQL's FOUND_ROWS() then reports them: SELECT COUNT(*)
// over the query, LIMIT dropped, as a derived table. ok is false when that
// query does not bind or run (its select list repeats a name, say): then
// FOUND_ROWS() stays the error it was.
func (c *Conn) foundRowsCount(ctx context.Context, p sql.Parsed, baseDir string) (int64, bool) {
	s := *p.Node.(*ast.SelectStmt)
	opts := *s.SelectStmtOpts
	opts.CalcFoundRows = false
	s.SelectStmtOpts, s.Limit = &opts, nil
	var sb strings.Builder
	if err := s.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil {
		return 0, false
	}
	parsed, err := sql.Parse("SELECT COUNT(*) FROM (" + sb.String() + ") AS found_rows_count")
	if err != nil || len(parsed) != 1 {
		return 0, false
	}
	db := c.view()
	stmt, err := sql.BindConn(db.cat, db.session, c.vars, parsed[0])
	if err != nil {
		return 0, false
	}
	// The count's warnings repeat the query's: they are not noted twice.
	r, err := c.execBound(sql.WithWarnings(ctx, nil), stmt, baseDir)
	if err != nil || r.Result == nil || r.Result.Rows != 1 || len(r.Result.Columns) != 1 {
		return 0, false
	}
	return r.Result.Columns[0].I64[0], true
}
