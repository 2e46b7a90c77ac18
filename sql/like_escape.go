package sql

import (
	"strings"
	"unicode/utf8"
)

// backslashEscaped rewrites a LIKE pattern written with escape character
// esc (LIKE ... ESCAPE '|', one character, maybe of several bytes: 'é'; ""
// for an empty ESCAPE: no escape at all) into the backslash-escaped form the
// matchers read: esc followed by a character makes that character literal;
// a backslash that is not the escape is a literal backslash.
func backslashEscaped(p string, esc string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case esc != "" && strings.HasPrefix(p[i:], esc) && i+len(esc) < len(p):
			i += len(esc)
			_, size := utf8.DecodeRuneInString(p[i:])
			b.WriteByte('\\')
			b.WriteString(p[i : i+size])
			i += size - 1
		case c == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
