package engine

import (
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// showWarnings answers SHOW WARNINGS / SHOW ERRORS / SHOW COUNT(*)
// WARNINGS | ERRORS in MySQL's columns Level, Code and Message: what the
// connection's previous statement noted (sql/warnings.go), the error it
// failed with included; SHOW ERRORS lists that error only.
func showWarnings(s *sql.ShowWarnings) *StatementResult {
	list, count := s.Last.List(), s.Last.Count()
	if s.Errors {
		kept := list[:0]
		for _, w := range list {
			if w.Level == "Error" {
				kept = append(kept, w)
			}
		}
		list, count = kept, s.Last.Errors()
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
	list = limitWarnings(list, s.Offset, s.Limit)
	levels, messages := make([]string, len(list)), make([]string, len(list))
	codes := columnar.NewColumn(columnar.TInt32, len(list), false)
	for i, w := range list {
		levels[i], messages[i], codes.I32[i] = w.Level, w.Message, int32(w.Code)
	}
	res := &exec.Result{Names: []string{"Level", "Code", "Message"}, Columns: []*columnar.Column{
		stringColumn(levels), codes, stringColumn(messages)}, Rows: len(list)}
	return &StatementResult{Kind: KindRows, Result: res}
}

// limitWarnings is list's rows in SHOW WARNINGS' LIMIT window.
func limitWarnings(list []sql.Warning, offset, limit int64) []sql.Warning {
	list = list[min(offset, int64(len(list))):]
	if limit >= 0 && limit < int64(len(list)) {
		list = list[:limit]
	}
	return list
}

// errUnknownCode is MySQL's ER_UNKNOWN_ERROR, the code of a failed
// statement's error outside a server (which names codes: SessionOptions.ErrorCode).
const errUnknownCode = 1105

// noteError records the error a statement failed with in its warnings.
func (c *Conn) noteError(w *sql.Warnings, err error) {
	if code, msg := sql.MySQLCode(err); code != 0 {
		w.AddError(code, msg) // MySQL's number and text, here as in a server
		return
	}
	code := uint16(errUnknownCode)
	if c.opts.ErrorCode != nil {
		code = c.opts.ErrorCode(err)
	} else if mc := sql.MessageCode(err); mc != 0 {
		code = mc // the code the server's table gives the same text
	}
	w.AddError(code, err.Error())
}

// NoteError makes err, a statement's error found before it ran (a
// syntax error the server parsed), the connection's last statement's: SHOW
// WARNINGS and SHOW ERRORS list it.
func (c *Conn) NoteError(err error) {
	w := c.vars.BeginWarnings()
	c.noteError(w, err)
	c.vars.EndWarnings(false)
}
