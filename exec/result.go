// Package exec holds what both executors share: the result set they return.
package exec

import "gpusql/storage/columnar"

// Result is a query's rows as column vectors (strings as codes with their
// dictionary, decimals scaled, dates as days). Both executors return it for
// the same physical plan, so one can be checked against the other; Record
// turns it into an Arrow record batch for clients.
type Result struct {
	Names   []string
	Columns []*columnar.Column
	Rows    int
}
