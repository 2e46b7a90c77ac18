package sql

import "strings"

// MySQL 8 writes EXPLAIN FORMAT=TREE; TiDB's parser knows no TREE format
// (1064). markExplainTree rewrites the word TREE after EXPLAIN / DESCRIBE /
// DESC [ANALYZE] FORMAT = into "ROW ", a format the parser takes, of the
// same length so offsets stay those of the text as written. gpusql prints
// its one plan form whatever the format, so the rewrite changes nothing
// else; the statements get their text as written back (withExplainTree).
func markExplainTree(text string) (string, bool) {
	sc := wordScanner{s: text}
	var spans []int
	step := 0 // words of EXPLAIN [ANALYZE] FORMAT = matched so far
	for {
		start, w := sc.next()
		if w == "" {
			break
		}
		u := strings.ToUpper(w)
		switch {
		case u == "EXPLAIN" || u == "DESCRIBE" || u == "DESC":
			step = 1
		case step == 1 && u == "ANALYZE":
		case step == 1 && u == "FORMAT":
			step = 2
		case step == 2 && w == "=":
			step = 3
		case step == 3 && u == "TREE":
			spans = append(spans, start)
			step = 0
		default:
			step = 0
		}
	}
	if len(spans) == 0 {
		return text, false
	}
	b := []byte(text)
	for _, at := range spans {
		copy(b[at:], "ROW ")
	}
	return string(b), true
}

// withExplainTree gives the statements of a text markExplainTree rewrote
// their text as written.
func withExplainTree(stmts []Parsed, text string, marked bool) []Parsed {
	if marked {
		for i := range stmts {
			stmts[i].retext(text)
		}
	}
	return stmts
}
