package sql

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// LIKE ... ESCAPE 'é': MySQL takes any one character of the connection's
// character set as the escape, so 'a%' LIKE 'aé%' ESCAPE 'é' is 1. TiDB's
// parser takes one byte only and refuses the rest with "Incorrect
// arguments to ESCAPE" (MySQL's error for an escape of two or more
// characters, which it keeps). So before parsing, each ESCAPE literal of
// one multibyte character has that character replaced by a control byte
// the text does not hold, padded with spaces to keep every offset; the
// binder reads the byte back as the character (likeEscape). The text
// statements keep (column names, errors) is the one before the marking.

// markLikeEscapes marks the ESCAPE literals of one multibyte character in
// text; escapes maps each placeholder byte to its character (nil: none).
func markLikeEscapes(text string) (string, map[byte]string) {
	var escapes map[byte]string
	var b []byte
	sc := wordScanner{s: text}
	next := byte(1)
	for {
		_, w := sc.next()
		if w == "" {
			return string(orBytes(b, text)), escapes
		}
		if !strings.EqualFold(w, "ESCAPE") {
			continue
		}
		start, lit := sc.next()
		if len(lit) < 2 || (lit[0] != '\'' && lit[0] != '"') || lit[len(lit)-1] != lit[0] {
			continue
		}
		ch := lit[1 : len(lit)-1]
		if len(ch) < 2 || utf8.RuneCountInString(ch) != 1 || !utf8.ValidString(ch) {
			continue
		}
		for next < 9 && strings.IndexByte(text, next) >= 0 {
			next++
		}
		if next >= 9 {
			continue // no free placeholder: the parser's error stands
		}
		if b == nil {
			b = []byte(text)
			escapes = map[byte]string{}
		}
		b[start+1] = next
		for i := start + 2; i < start+len(lit)-1; i++ {
			b[i] = ' '
		}
		b[start+len(lit)-1] = ' '
		b[start+2] = lit[0] // the closing quote right after the byte
		escapes[next] = ch
		next++
	}
}

func orBytes(b []byte, s string) []byte {
	if b == nil {
		return []byte(s)
	}
	return b
}

// withLikeEscapes gives the statements of a marked text its escapes, and
// the text as written (unmarked) for names and messages.
func withLikeEscapes(stmts []Parsed, text, unmarked string, escapes map[byte]string) []Parsed {
	if escapes == nil {
		return stmts
	}
	for i := range stmts {
		p := &stmts[i]
		p.likeEscapes = escapes
		p.src = unmarked
		p.retext(text)
	}
	return stmts
}

// likeEscape is the escape character of a LIKE's ESCAPE byte: itself, or
// the multibyte character a placeholder stands for; "" for none (an empty ESCAPE literal).
func (b *binder) likeEscape(esc byte) string {
	if c, ok := b.likeEscapes[esc]; ok {
		return c
	}
	if esc == 0 {
		return ""
	}
	return string([]byte{esc})
}

// unmarkedEscapes is text of the parsed statement with each marked ESCAPE
// literal as written, in the three forms it takes: the placeholder, the
// closing quote and the padding (the source); the parser's Text of a
// node, which writes a literal of a control byte in hex (0x01 and the
// padding); and a restored statement ('\x01', a view's stored SQL).
func (b *binder) unmarkedEscapes(t string) string {
	for p, ch := range b.likeEscapes {
		pad := strings.Repeat(" ", len(ch)-1)
		for _, q := range []string{"'", `"`} {
			t = strings.ReplaceAll(t, string([]byte{p})+q+pad, ch+q)
		}
		hex := regexp.MustCompile(fmt.Sprintf(`(?i)(ESCAPE\s+)0x%02X(?:%s)?`, p, pad))
		t = hex.ReplaceAllString(t, "${1}'"+ch+"'")

		t = strings.ReplaceAll(t, "'"+string([]byte{p})+"'", "'"+ch+"'")
	}
	return t
}
