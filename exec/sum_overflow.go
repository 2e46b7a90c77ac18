package exec

import "errors"

// ErrSumOverflow marks the error of a SUM or AVG of integers or narrow
// DECIMALs whose total left the engine's result type (BIGINT,
// DECIMAL(18,s)). MySQL types those sums as wide DECIMALs and never
// overflows them; the engine keeps the int64 types (the GPU computes
// them) and, on this error, rebinds the statement with MySQL's types
// (sql.Parsed.ExactSums) and runs it again, on the CPU.
var ErrSumOverflow = errors.New("sum overflow")

// SumOverflowError is MySQL's 1690 text for an overflowing sum; it
// matches ErrSumOverflow under errors.Is.
type SumOverflowError struct{ Msg string }

func (e *SumOverflowError) Error() string { return e.Msg }

// Is reports ErrSumOverflow.
func (e *SumOverflowError) Is(target error) bool { return target == ErrSumOverflow }
