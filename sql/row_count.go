package sql

import "gpusql/storage/columnar"

// ROW_COUNT() and FOUND_ROWS() describe the connection's previous
// statements. ROW_COUNT() is what the connection's previous statement affected, as
// MySQL defines it: the rows an INSERT, UPDATE, DELETE or LOAD affected
// (as the statement reported them), -1 after a statement that returned a
// result set, 0 after any other (DDL, SET). A failed statement leaves it.
// FOUND_ROWS() is the number of rows the last statement that returned a
// result set returned (LIMIT applied), 0 before any; after SELECT
// SQL_CALC_FOUND_ROWS the engine counts the rows without the LIMIT
// (engine/row_count.go), and where it cannot it is an error rather than a
// wrong count. Like LAST_INSERT_ID()
// both are read when the statement is bound, so the statement is never
// served from the plan cache.

// RowCount is the connection's ROW_COUNT().
func (u *UserVars) RowCount() int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.rowCount
}

// SetRowCount records the outcome of a statement that succeeded: it
// returned rows, or affected the given number (0 for one that changes no
// rows).
func (u *UserVars) SetRowCount(returnedRows bool, affected int64) {
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.rowCount = affected
	if returnedRows {
		u.rowCount = -1
	}
}

func (b *binder) rowCountFunc(nargs, pos int) (Expr, error) {
	if nargs != 0 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function 'row_count'")
	}
	b.volatile("ROW_COUNT()")
	var v int64
	if b.vars != nil {
		v = b.vars.RowCount()
	}
	return &Const{T: columnar.TInt64, I: v}, nil
}

// FoundRows is the connection's FOUND_ROWS(); calc reports that the
// result set was asked for with SQL_CALC_FOUND_ROWS.
func (u *UserVars) FoundRows() (n int64, calc bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.foundRows, u.foundRowsCalc
}

// SetFoundRows records the rows of a result set.
func (u *UserVars) SetFoundRows(n int64, calc bool) {
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.foundRows, u.foundRowsCalc = n, calc
}

func (b *binder) foundRowsFunc(nargs, pos int) (Expr, error) {
	if nargs != 0 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function 'found_rows'")
	}
	b.volatile("FOUND_ROWS()")
	var n int64
	if b.vars != nil {
		var calc bool
		if n, calc = b.vars.FoundRows(); calc {
			return nil, b.errf(pos, "unsupported: FOUND_ROWS() after SELECT SQL_CALC_FOUND_ROWS (gpusql does not count the rows past the LIMIT; run SELECT COUNT(*) without it)")
		}
	}
	return &Const{T: columnar.TInt64, I: n}, nil
}
