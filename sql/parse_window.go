package sql

import (
	"strings"
	"unicode"
)

// errDistinctWindow is MySQL's error for an aggregate with DISTINCT used
// as a window function (its parser takes the syntax; sql_yacc.yy then
// refuses it).
const errDistinctWindow = "This version of MySQL doesn't yet support '<window function>(DISTINCT ..)'"

// distinctWindowCall says whether the parser stopped (at off) on the OVER
// of a call whose arguments start with DISTINCT: COUNT(DISTINCT a) OVER
// (), which TiDB's grammar has no rule for, where MySQL's reports 1235.
func distinctWindowCall(src string, off int) bool {
	rest := src[off:]
	if len(rest) < 4 || !strings.EqualFold(rest[:4], "over") || len(rest) > 4 && isIdentByte(rest[4]) {
		return false
	}
	before := strings.TrimRightFunc(src[:off], unicode.IsSpace)
	if !strings.HasSuffix(before, ")") {
		return false
	}
	depth := 0
	for i := len(before) - 1; i >= 0; i-- {
		switch before[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				args := strings.TrimLeftFunc(before[i+1:], unicode.IsSpace)
				return len(args) > 8 && strings.EqualFold(args[:8], "distinct") && !isIdentByte(args[8])
			}
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
