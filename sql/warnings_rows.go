package sql

import (
	"strconv"
	"strings"
)

// RowWarning is a warning of a file's row that a statement notes apart
// from the rows' stores (LOAD DATA's 1261 / 1262 for a record's field
// count).
type RowWarning struct {
	Row  int
	Code uint16
	Msg  string
}

// MergeRows notes in w the warnings of stored rows, a's (each naming its
// row, as "... at row N"), and rows' own warnings extra, in row order, a
// row's stores first: MySQL's LOAD DATA converts a record's fields as it
// reads them and then notes the missing (1261) and extra (1262) ones.
// A warning of a that names no row keeps its place after the rows
// before it.
func (w *Warnings) MergeRows(a *Warnings, extra []RowWarning) {
	if w == nil {
		return
	}
	list := a.List()
	if n := a.Count() - int64(len(list)); n > 0 {
		w.count.Add(n) // past MaxWarnings: counted, not kept
	}
	k := 0
	for _, x := range list {
		if r, ok := warningRow(x.Message); ok {
			for ; k < len(extra) && extra[k].Row < r; k++ {
				w.Add(extra[k].Code, extra[k].Msg)
			}
		}
		w.add(x.Level, x.Code, x.Message)
	}
	for ; k < len(extra); k++ {
		w.Add(extra[k].Code, extra[k].Msg)
	}
}

// warningRow is the N of a message ending "at row N".
func warningRow(msg string) (int, bool) {
	i := strings.LastIndex(msg, " at row ")
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(msg[i+len(" at row "):])
	return n, err == nil
}
