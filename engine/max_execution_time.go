package engine

import (
	"context"
	"errors"
	"time"

	"gpusql/sql"
)

// A SELECT runs at most @@max_execution_time milliseconds, or its
// MAX_EXECUTION_TIME(N) hint's N (0: no bound), as in MySQL; past it the
// statement stops, as KILL QUERY stops it, with MySQL's error 3024.

// withExecutionLimit is ctx bounded by q's execution time limit.
func (db *DB) withExecutionLimit(ctx context.Context, q *sql.Query) (context.Context, context.CancelFunc) {
	ms := q.MaxExecutionMS
	if ms == 0 {
		ms = db.session.Limit("max_execution_time")
	}
	if ms <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
}

// executionLimitError is err, or MySQL's 3024 when ctx's deadline stopped
// the statement.
func executionLimitError(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return sql.Errorf(sql.ErQueryTimeout, "Query execution was interrupted, maximum statement execution time exceeded")
	}
	return err
}
