package main

import (
	"strings"

	"gpusql/sql"
)

// complete reports whether buf holds whole statements: at least one ';'
// outside quotes and comments, and nothing but blanks and comments after the
// last one. The REPL keeps reading lines (with the continuation prompt)
// until it does, so a statement may span lines and a ';' inside a string or
// comment does not end it; nor does one inside the BEGIN ... END body of
// a CREATE TRIGGER / PROCEDURE / FUNCTION.
func complete(buf string) bool {
	return statementsEnded(buf) && !sql.InStoredProgram(buf)
}

func statementsEnded(buf string) bool {
	ended := false // a top-level ';' seen with only blanks/comments since
	for i := 0; i < len(buf); i++ {
		c := buf[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := skipQuoted(buf, i)
			if j < 0 {
				return false // unterminated string: keep reading
			}
			i = j
			ended = false
		case c == '-' && strings.HasPrefix(buf[i:], "--") && (i+2 == len(buf) || buf[i+2] == ' ' || buf[i+2] == '\t' || buf[i+2] == '\n'),
			c == '#':
			nl := strings.IndexByte(buf[i:], '\n')
			if nl < 0 {
				return ended
			}
			i += nl
		case c == '/' && strings.HasPrefix(buf[i:], "/*"):
			end := strings.Index(buf[i+2:], "*/")
			if end < 0 {
				return false
			}
			i += end + 3
		case c == ';':
			ended = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			ended = false
		}
	}
	return ended
}

// skipQuoted returns the index of the quote closing the string opened at i,
// or -1. A doubled quote escapes, and so does a backslash except in
// backquoted names.
func skipQuoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return -1
}
