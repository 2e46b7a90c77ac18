package engine

import (
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// showWarnings answers SHOW WARNINGS / SHOW ERRORS: gpusql fails a
// statement with an error instead of finishing it with warnings, so the
// list is empty (and its COUNT(*) 0), in MySQL's columns Level, Code and
// Message. Clients and tools send it after statements.
func showWarnings(s *sql.ShowWarnings) *StatementResult {
	if s.Count {
		name := "@@session.warning_count"
		if s.Errors {
			name = "@@session.error_count"
		}
		c := columnar.NewColumn(columnar.TInt64, 1, false)
		return &StatementResult{Kind: KindRows, Result: &exec.Result{Names: []string{name}, Columns: []*columnar.Column{c}, Rows: 1}}
	}
	res := &exec.Result{Names: []string{"Level", "Code", "Message"}, Columns: []*columnar.Column{
		stringColumn(nil), columnar.NewColumn(columnar.TInt32, 0, false), stringColumn(nil)}}
	return &StatementResult{Kind: KindRows, Result: res}
}
