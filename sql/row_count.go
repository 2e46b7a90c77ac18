package sql

import "gpusql/storage/columnar"

// ROW_COUNT() is what the connection's previous statement affected, as
// MySQL defines it: the rows an INSERT, UPDATE, DELETE or LOAD affected
// (as the statement reported them), -1 after a statement that returned a
// result set, 0 after any other (DDL, SET). A failed statement leaves it.
// Like LAST_INSERT_ID() it is read when the statement is bound, so the
// statement is never served from the plan cache.

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
