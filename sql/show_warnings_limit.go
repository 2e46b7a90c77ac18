package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// SHOW WARNINGS | ERRORS LIMIT [offset,] row_count (or LIMIT row_count
// OFFSET offset) is MySQL 8's syntax ("SHOW WARNINGS Statement"); TiDB's
// parser has no LIMIT there (1064). blankShowLimits blanks the clause
// before parsing, offsets and lines kept, and withShowLimits puts it back
// on the parsed ShowStmt's Limit, which the binder reads.

// showLimit is one LIMIT cut out of a SHOW WARNINGS | ERRORS: the byte
// offset of its LIMIT and its numbers.
type showLimit struct {
	at            int
	offset, count uint64
}

// blankShowLimits blanks the LIMIT clause of every SHOW WARNINGS | ERRORS
// in text.
func blankShowLimits(text string) (string, []showLimit) {
	sc := wordScanner{s: text}
	var found []showLimit
	var spans [][2]int
	step := 0 // words of ; SHOW WARNINGS | ERRORS matched so far
	for {
		start, w := sc.next()
		u := strings.ToUpper(w)
		switch {
		case w == "":
			if len(found) == 0 {
				return text, nil
			}
			return blankSpans(text, spans), found
		case w == ";":
			step = 0
			continue
		case step == 0 && u == "SHOW":
			step = 1
			continue
		case step == 1 && (u == "WARNINGS" || u == "ERRORS"):
			step = 2
			continue
		case step == 2 && u == "LIMIT":
			if l, end, ok := scanShowLimit(&sc); ok {
				l.at = start
				found = append(found, l)
				spans = append(spans, [2]int{start, end})
			}
		}
		step = 3 // anything else ends the statement's chance
	}
}

// scanShowLimit reads what follows LIMIT: n, n ',' m or n OFFSET m. On
// anything else it leaves the scanner where it was and reports false, so
// the parser answers 1064 at the LIMIT.
func scanShowLimit(sc *wordScanner) (l showLimit, end int, ok bool) {
	saved := sc.pos
	defer func() {
		if !ok {
			sc.pos = saved
		}
	}()
	first, ok := scanLimitNumber(sc)
	if !ok {
		return l, 0, false
	}
	l.count, end = first, sc.pos
	after := sc.pos
	_, w := sc.next()
	switch {
	case w == ",":
		l.offset = first
		l.count, ok = scanLimitNumber(sc)
		end = sc.pos
	case strings.EqualFold(w, "OFFSET"):
		l.offset, ok = scanLimitNumber(sc)
		end = sc.pos
	default:
		sc.pos = after
	}
	return l, end, ok
}

func scanLimitNumber(sc *wordScanner) (uint64, bool) {
	_, w := sc.next()
	n, err := strconv.ParseUint(w, 10, 64)
	return n, err == nil
}

// withShowLimits gives each SHOW WARNINGS | ERRORS its LIMIT back, and its
// text as written.
func withShowLimits(stmts []Parsed, text string, found []showLimit) []Parsed {
	for _, f := range found {
		for i := range stmts {
			p := &stmts[i]
			show, ok := p.Node.(*ast.ShowStmt)
			if !ok || f.at < p.start || f.at >= p.end {
				continue
			}
			show.Limit = &ast.Limit{Count: ast.NewValueExpr(f.count, "", ""), Offset: ast.NewValueExpr(f.offset, "", "")}
			p.retext(text)
		}
	}
	return stmts
}

// showWarningsLimit is the [offset, offset+count) window of n's LIMIT; all
// rows without one.
func showWarningsLimit(n *ast.ShowStmt) (offset, count int64) {
	if n.Limit == nil {
		return 0, -1
	}
	num := func(e ast.ExprNode) int64 {
		v, _ := e.(ast.ValueExpr).GetValue().(uint64)
		return int64(min(v, 1<<62))
	}
	return num(n.Limit.Offset), num(n.Limit.Count)
}
