package engine

import (
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// showWarnings answers SHOW WARNINGS / SHOW ERRORS / SHOW COUNT(*)
// WARNINGS in MySQL's columns Level, Code and Message: the warnings the
// connection's previous statement noted (sql/warnings.go). gpusql fails a
// statement with an error instead of keeping it in the list, so SHOW
// ERRORS is empty.
func showWarnings(s *sql.ShowWarnings) *StatementResult {
	var list []sql.Warning
	count := int64(0)
	if !s.Errors {
		list, count = s.Last.List(), s.Last.Count()
	}
	if s.Count {
		name := "@@session.warning_count"
		if s.Errors {
			name = "@@session.error_count"
		}
		c := columnar.NewColumn(columnar.TInt64, 1, false)
		c.I64[0] = count
		return &StatementResult{Kind: KindRows, Result: &exec.Result{Names: []string{name}, Columns: []*columnar.Column{c}, Rows: 1}}
	}
	levels, messages := make([]string, len(list)), make([]string, len(list))
	codes := columnar.NewColumn(columnar.TInt32, len(list), false)
	for i, w := range list {
		levels[i], messages[i], codes.I32[i] = w.Level, w.Message, int32(w.Code)
	}
	res := &exec.Result{Names: []string{"Level", "Code", "Message"}, Columns: []*columnar.Column{
		stringColumn(levels), codes, stringColumn(messages)}, Rows: len(list)}
	return &StatementResult{Kind: KindRows, Result: res}
}
