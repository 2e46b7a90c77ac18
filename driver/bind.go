package driver

import (
	"database/sql/driver"
	"fmt"

	"gpusql/sql"
)

// bind substitutes '?' placeholders by the arguments written as SQL
// literals (the engine has no server-side parameters; sql.SubstituteParams
// says how).
func bind(query string, args []driver.NamedValue) (string, error) {
	vals := make([]any, len(args))
	for i, a := range args {
		vals[i] = a.Value
	}
	s, err := sql.SubstituteParams(query, vals)
	if err != nil {
		return "", fmt.Errorf("gpusql: %w", err)
	}
	return s, nil
}
