package engine

import (
	"context"

	"gpusql/sql"
)

// Statements that change tables run in MySQL's strict mode
// (STRICT_TRANS_TABLES, which gpusql always keeps): a warning the values
// they compute would note is their error instead, as MySQL's is. INSERT
// INTO t SELECT s ... with s = '7z' fails with 1292 Truncated incorrect
// INTEGER value: '7z', and so does UPDATE t SET ... WHERE s = 0 for an s
// that is not a number. A division by zero is an error only under
// ERROR_FOR_DIVISION_BY_ZERO (else it stays a warning, the value NULL).
// INSERT IGNORE keeps them all as warnings.

// strictly runs a write's computation (run, given its context) with its own
// warnings: the first one strict mode turns into an error fails it; those
// before it join the statement's warnings. The error is listed once, as
// the statement's error (MySQL's list has no Warning beside it), and what
// came after it is dropped, as MySQL stops at that row.
func (db *DB) strictly(ctx context.Context, ignore bool, run func(context.Context) error) error {
	w := &sql.Warnings{}
	err := run(sql.WithWarnings(ctx, w))
	outer := sql.WarningsFrom(ctx)
	divisionErrors := db.session.HasMode("ERROR_FOR_DIVISION_BY_ZERO") || db.session.HasMode("TRADITIONAL")
	// Without STRICT_TRANS_TABLES / STRICT_ALL_TABLES every one stays a
	// warning (ERROR_FOR_DIVISION_BY_ZERO included, as MySQL's manual says).
	lenient := db.lenientWrites(ignore)
	for _, x := range w.List() {
		if err == nil && !lenient && (x.Code != sql.WarnDivisionByZero || divisionErrors) {
			err = &sql.WarningError{Warning: x}
			break
		}
		outer.Add(x.Code, x.Message)
	}
	return err
}
