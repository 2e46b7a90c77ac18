package sql

import (
	"strings"
	"unicode/utf8"
)

// icuFlags are the ICU modes whose scope gpusql follows itself, because
// RE2 either lacks them (free-spacing, x) or gives them another meaning
// ('.' and '$' around line terminators). A flag group "(?s)" sets a mode
// up to the end of the group it stands in, "(?s:...)" inside itself, as
// in ICU and RE2 alike.
type icuFlags struct{ dotAll, freeSpacing, multiline bool }

// icuEndAnchor is ICU's '$' (and \Z) outside multiline mode: the end of
// the input or just before a line terminator that ends it ('abc\n'
// REGEXP 'abc$' is 1 in MySQL). RE2 has no lookahead, so the anchor
// consumes that terminator: right for a yes/no match when nothing after
// the '$' must consume it, wrong for the extent of a match, which is
// why only REGEXP_LIKE asks for it.
const icuEndAnchor = `(?:(?:\r\n|[\n\v\f\r\x{85}\x{2028}\x{2029}])?\z)`

// icuLineAnchor is ICU's '$' in multiline mode: the end of the input or
// just before any line terminator, where RE2's multiline '$' knows only
// '\n' (REGEXP_LIKE('a\r\nb', '^a$', 'm') is 1 in MySQL). RE2's own '$'
// stays for '\n', zero-width, so 'a\nb' REGEXP '(?m)a$\nb' still
// matches; the other terminators are consumed, as in icuEndAnchor.
const icuLineAnchor = `(?:$|[\v\f\r\x{85}\x{2028}\x{2029}])`

// icuRewrite rewrites what ICU reads differently from RE2 under the modes
// in force at each place: a '.' outside dot-all mode becomes a class
// without ICU's line terminators, whitespace and '#' comments go where
// free-spacing is on (and the x flag, which RE2 refuses, leaves the flag
// groups), and, when endAnchors, '$' outside multiline mode and \Z become
// icuEndAnchor, '$' in multiline mode icuLineAnchor. Bracket expressions and escapes keep their text.
func icuRewrite(pattern string, f icuFlags, endAnchors bool) string {
	var b strings.Builder
	var outer []icuFlags
	chars := 0
	for i := 0; i < len(pattern); {
		c, n := utf8.DecodeRuneInString(pattern[i:])
		end := i + n
		switch {
		case c == '\\':
			end = escapeEnd(pattern, i, &chars)
			// \Z ignores multiline mode in ICU (and RE2 has none).
			if endAnchors && pattern[i:end] == `\Z` {
				b.WriteString(icuEndAnchor)
				i = end
				continue
			}
		case c == '[':
			end = bracketEnd(pattern, i)
			if f.freeSpacing {
				b.WriteString(spacelessBracket(pattern[i:end]))
				i = end
				continue
			}
		case c == '(':
			var text string
			text, end, f, outer = openGroup(pattern, i, f, outer)
			b.WriteString(text)
			i = end
			continue
		case c == ')':
			if len(outer) > 0 {
				f, outer = outer[len(outer)-1], outer[:len(outer)-1]
			}
		case c == '.' && !f.dotAll:
			b.WriteString(icuLineEnd)
			i = end
			continue
		case c == '$' && endAnchors && !f.multiline:
			b.WriteString(icuEndAnchor)
			i = end
			continue
		case c == '$' && endAnchors:
			b.WriteString(icuLineAnchor)
			i = end
			continue
		case f.freeSpacing && isPatternWhiteSpace(c):
			i = end
			continue
		case f.freeSpacing && c == '#':
			i = commentEnd(pattern, i)
			continue
		}
		b.WriteString(pattern[i:end])
		i = end
	}
	return b.String()
}

// openGroup copies the group opener at i and enters its scope: a flag
// group "(?ims-x)" or "(?ims-x:" changes the modes (for the enclosing
// group or for its own), written without the x flag.
func openGroup(pattern string, i int, f icuFlags, outer []icuFlags) (string, int, icuFlags, []icuFlags) {
	if !strings.HasPrefix(pattern[i:], "(?") {
		return "(", i + 1, f, append(outer, f)
	}
	end := groupOpenerEnd(pattern, i)
	opener := pattern[i:end]
	if !strings.ContainsAny(opener[len(opener)-1:], ":)") ||
		strings.ContainsAny(opener[2:len(opener)-1], "=!<>") {
		return opener, end, f, append(outer, f)
	}
	body, closer := opener[2:len(opener)-1], opener[len(opener)-1:]
	on, off, _ := strings.Cut(body, "-")
	g := f
	for k, letters := range []string{on, off} {
		for _, l := range letters {
			switch l {
			case 's':
				g.dotAll = k == 0
			case 'x':
				g.freeSpacing = k == 0
			case 'm':
				g.multiline = k == 0
			}
		}
	}
	on, off = strings.ReplaceAll(on, "x", ""), strings.ReplaceAll(off, "x", "")
	flags := on
	if off != "" {
		flags += "-" + off
	}
	text := "(?" + flags + closer
	if closer == ")" {
		if flags == "" {
			text = ""
		}
		return text, end, g, outer // (?s) sets the enclosing group's modes
	}
	return text, end, g, append(outer, f)
}

// isPatternWhiteSpace is Unicode's Pattern_White_Space, what ICU's
// free-spacing mode skips.
func isPatternWhiteSpace(c rune) bool {
	return c == ' ' || c >= '\t' && c <= '\r' || c == 0x85 || c == 0x200e || c == 0x200f || c == 0x2028 || c == 0x2029
}

// commentEnd is the offset of the line end closing the free-spacing
// comment at i (the terminator stays, to be skipped as whitespace).
func commentEnd(pattern string, i int) int {
	k := strings.IndexAny(pattern[i:], "\n\r\u0085\u2028")
	if k < 0 {
		return len(pattern)
	}
	return i + k
}

// spacelessBracket drops the unescaped whitespace of a bracket
// expression, which ICU's free-spacing mode skips there too ('#' stays a
// literal in a set); a set left empty keeps its text, for RE2 to judge.
func spacelessBracket(set string) string {
	var b strings.Builder
	for i := 0; i < len(set); {
		c, n := utf8.DecodeRuneInString(set[i:])
		if c == '\\' && i+n < len(set) {
			_, m := utf8.DecodeRuneInString(set[i+n:])
			n += m
		} else if isPatternWhiteSpace(c) {
			i += n
			continue
		}
		b.WriteString(set[i : i+n])
		i += n
	}
	if s := b.String(); s != "[]" && s != "[^]" {
		return s
	}
	return set
}
