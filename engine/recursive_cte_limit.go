package engine

import (
	"gpusql/exec"
	"gpusql/sql"
)

// cteLimit applies a recursive definition's LIMIT while its rows are
// generated (sql.RecursiveCTE's Offset and Count): the first skip rows
// are generated but not kept, then left more are kept, and the recursion
// stops there.
type cteLimit struct {
	skip, left int64 // left < 0: no LIMIT
}

func newCTELimit(rc *sql.RecursiveCTE) *cteLimit {
	return &cteLimit{skip: rc.Offset, left: rc.Count}
}

// take is the part of a round's new rows res the result keeps, and
// whether the LIMIT is reached (no further round).
func (l *cteLimit) take(res *exec.Result) (*exec.Result, bool) {
	if l.left < 0 {
		return res, false
	}
	n := int64(res.Rows)
	from := min(l.skip, n)
	l.skip -= from
	to := from + min(n-from, l.left)
	l.left -= to - from
	if from == 0 && to == n {
		return res, l.left == 0
	}
	rows := make([]int, 0, to-from)
	for r := from; r < to; r++ {
		rows = append(rows, int(r))
	}
	out := &exec.Result{Names: res.Names, Rows: len(rows)}
	for _, c := range res.Columns {
		out.Columns = append(out.Columns, gatherRows(c, rows))
	}
	return out, l.left == 0
}
