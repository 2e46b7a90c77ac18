package exec

import "errors"

// ErrExactOverflow marks the error of a value the engine's int64 types
// could not hold where MySQL's exact types would: a SUM or AVG of
// integers or narrow DECIMALs whose total left BIGINT or DECIMAL(18,s),
// or narrow DECIMAL arithmetic past 18 digits. MySQL types those as wide
// DECIMALs (up to 65 digits); the engine keeps the int64 types (the GPU
// computes them) and, on this error, rebinds the statement with MySQL's
// types (sql.Parsed.ExactDecimals) and runs it again, on the CPU.
var ErrExactOverflow = errors.New("exact overflow")

// ExactOverflowError is MySQL's 1690 text for such a value; it matches
// ErrExactOverflow under errors.Is.
type ExactOverflowError struct{ Msg string }

func (e *ExactOverflowError) Error() string { return e.Msg }

// Is reports ErrExactOverflow.
func (e *ExactOverflowError) Is(target error) bool { return target == ErrExactOverflow }
