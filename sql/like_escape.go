package sql

import "strings"

// backslashEscaped rewrites a LIKE pattern written with escape character
// esc (LIKE ... ESCAPE '|'; 0 for an empty ESCAPE: no escape at all) into the
// backslash-escaped form the matchers read: esc followed by a character
// makes that character literal; a backslash that is not the escape is a
// literal backslash.
func backslashEscaped(p string, esc byte) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case esc != 0 && c == esc && i+1 < len(p):
			i++
			b.WriteByte('\\')
			b.WriteByte(p[i])
		case c == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
