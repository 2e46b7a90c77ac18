package sql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// repeatWithoutOperand is MySQL's error for a pattern RE2 refused for
// a repeat (icuParseError), nil where ICU finds nothing wrong there: RE2
// also refuses `a*+`, which ICU reads as a possessive repeat.
func repeatWithoutOperand(pattern string) *RegexpError { return icuParseError(pattern) }

// icuParseError follows the states of ICU's pattern parser
// (regexcst.txt) that decide where a repeat may stand, and is MySQL's
// error for the first place ICU refuses one:
//
//   - a '*', '+', '?' or '{' with nothing to repeat (at the start, after
//     '(', '|' or an assertion such as \b, or after a repeat that took its
//     one lazy '?' or possessive '+' modifier), and any bare '}': 3688
//     (ER_REGEXP_RULE_SYNTAX) at that 1-based character. ICU's rule_char
//     set leaves out both braces, so neither is ever a literal outside a
//     bracket expression or an escape: SELECT 'a' REGEXP '{' is
//     "... character 1.", 'a}' "... character 2.";
//   - a '{' after an operand that does not open {n}, {n,} or {n,m}: 3692
//     (ER_REGEXP_BAD_INTERVAL), as for 'a{', 'a{1' or 'a{,2}'.
//
// RE2 reads such braces as literals, so CompileRegexp asks this first.
func icuParseError(pattern string) *RegexpError {
	const (
		noOperand = iota
		operand
		repeated
		modified
	)
	state, chars := noOperand, 0
	ruleSyntax := func() *RegexpError {
		return &RegexpError{3688, fmt.Sprintf("Syntax error in regular expression on line 1, character %d.", chars)}
	}
	for i := 0; i < len(pattern); {
		c, n := utf8.DecodeRuneInString(pattern[i:])
		chars++
		switch {
		case c == '\\':
			n, state = escapeEnd(pattern, i, &chars)-i, operand
			if strings.ContainsRune("ABGZbz", firstRune(pattern[i+1:])) {
				state = noOperand // an assertion leaves ICU in its term state
			}
		case c == '[':
			end := bracketEnd(pattern, i)
			chars += utf8.RuneCountInString(pattern[i+n : end])
			n, state = end-i, operand
		case c == '(' && strings.HasPrefix(pattern[i:], "(?"):
			n = groupOpenerEnd(pattern, i) - i
			chars += utf8.RuneCountInString(pattern[i+1 : i+n]) // a comment may hold any text
			state = noOperand
		case c == '(' || c == '|':
			state = noOperand
		case c == '}':
			return ruleSyntax()
		case c == '{':
			if state != operand {
				return ruleSyntax()
			}
			end, ok := intervalEnd(pattern, i)
			if !ok {
				return &RegexpError{3692, "Incorrect description of a {min,max} interval."}
			}
			chars += end - i - 1 // an interval is ASCII
			n, state = end-i, repeated
		case c == '*' || c == '+' || c == '?':
			switch {
			case state == noOperand || state == modified || (state == repeated && c == '*'):
				return ruleSyntax()
			case state == repeated:
				state = modified
			default:
				state = repeated
			}
		default:
			state = operand
		}
		i += n
	}
	return nil
}

// groupOpenerEnd is the offset just past the extended group opener at i
// ("(?" and what names the group: flags closed by ')' or ':', ':', '=',
// '!', '>', '<=', '<!' or '<name>'), or past a whole comment "(?#...)".
// ICU is in its term state after all of them, so a repeat there has
// nothing to repeat: '(?i)*', '(?:*a)' and 'a(?#c)*' are 3688 at the
// repeat. An opener ICU does not know ends after "(?", left to RE2's
// refusal.
func groupOpenerEnd(pattern string, i int) int {
	if strings.HasPrefix(pattern[i:], "(?#") {
		if k := strings.IndexByte(pattern[i:], ')'); k > 0 {
			return i + k + 1
		}
		return len(pattern)
	}
	j := i + 2
	for j < len(pattern) && (pattern[j] == '-' || isASCIILetter(pattern[j])) {
		j++
	}
	if j < len(pattern) && (pattern[j] == ')' || pattern[j] == ':') {
		return j + 1
	}
	rest := pattern[i+2:]
	switch {
	case strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, "<!"):
		return i + 4
	case strings.HasPrefix(rest, "<"):
		if k := strings.IndexByte(rest, '>'); k > 0 {
			return i + 2 + k + 1
		}
	case rest != "" && strings.ContainsRune("=!>", rune(rest[0])):
		return i + 3
	}
	return i + 2
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// stripComments removes ICU's comments "(?#...)" (outside bracket
// expressions and escapes), which RE2 does not know: SELECT 'ab' REGEXP
// '(?#x)a' is 1 in MySQL. A comment without its ')' is ICU's mismatched
// parenthesis (3691).
func stripComments(pattern string) (string, *RegexpError) {
	if !strings.Contains(pattern, "(?#") {
		return pattern, nil
	}
	var b strings.Builder
	chars := 0
	for i := 0; i < len(pattern); {
		end := i + 1
		switch {
		case pattern[i] == '\\':
			end = escapeEnd(pattern, i, &chars)
		case pattern[i] == '[':
			end = bracketEnd(pattern, i)
		case strings.HasPrefix(pattern[i:], "(?#"):
			k := strings.IndexByte(pattern[i:], ')')
			if k < 0 {
				return "", &RegexpError{3691, "Mismatched parenthesis in regular expression."}
			}
			i += k + 1
			continue
		}
		b.WriteString(pattern[i:end])
		i = end
	}
	return b.String(), nil
}

// icuLineEnd is ICU's '.' outside dot-all mode (match_type 'n', (?s)):
// anything but a line terminator, where RE2's '.' leaves out only '\n'
// (SELECT 'a\rb' REGEXP 'a.b' is 0 in MySQL); see icuRewrite.
const icuLineEnd = `[^\n\v\f\r\x{85}\x{2028}\x{2029}]`

// escapeEnd is the offset just past the escape at i, counting its
// characters into chars beyond the backslash: \Q quotes up to \E (or the
// end), which ICU reads as literals.
func escapeEnd(pattern string, i int, chars *int) int {
	rest := pattern[i+1:]
	if rest == "" {
		return len(pattern)
	}
	e, n := utf8.DecodeRuneInString(rest)
	*chars++
	if e != 'Q' {
		return i + 1 + n
	}
	quoted := rest[n:]
	end := strings.Index(quoted, `\E`)
	if end < 0 {
		*chars += utf8.RuneCountInString(quoted)
		return len(pattern)
	}
	*chars += utf8.RuneCountInString(quoted[:end]) + 2
	return i + 1 + n + end + 2
}

// intervalEnd is the offset just past the {n}, {n,} or {n,m} opening at
// i (ICU's interval-open, -lower and -upper states); ok is false where
// the text there is not one.
func intervalEnd(pattern string, i int) (end int, ok bool) {
	j := i + 1
	digits := func() int {
		k := j
		for j < len(pattern) && pattern[j] >= '0' && pattern[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		return 0, false
	}
	if j < len(pattern) && pattern[j] == ',' {
		j++
		digits()
	}
	if j < len(pattern) && pattern[j] == '}' {
		return j + 1, true
	}
	return 0, false
}

func firstRune(s string) rune {
	if s == "" {
		return utf8.RuneError
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// bracketEnd is the offset just past the bracket expression opening at
// i ("[]a]" and "[^]a]" hold a literal ']'), or len(pattern).
func bracketEnd(pattern string, i int) int {
	j := i + 1
	if j < len(pattern) && pattern[j] == '^' {
		j++
	}
	if j < len(pattern) && pattern[j] == ']' {
		j++
	}
	for j < len(pattern) {
		switch {
		case pattern[j] == '\\':
			j++
		case strings.HasPrefix(pattern[j:], "[:"):
			if k := strings.Index(pattern[j+2:], ":]"); k >= 0 {
				j += k + 3
			}
		case pattern[j] == ']':
			return j + 1
		}
		j++
	}
	return len(pattern)
}

// unknownPosixClass is MySQL's 3685 (ER_REGEXP_ILLEGAL_ARGUMENT) for a
// [:name:] ICU knows no property for: SELECT 'a' REGEXP '[[:<:]]a' (the
// word boundary MySQL 5.7's library had) or '[[:foo:]]'. ICU reads the
// name as a Unicode property ([[:Greek:]], [[:Lu:]]), which RE2 refuses
// though ICU accepts it, so a name Go's unicode tables or the long
// category names know gets nil, the generic refusal.
func unknownPosixClass(class string) *RegexpError {
	name, ok := strings.CutPrefix(class, "[:")
	name, ok2 := strings.CutSuffix(name, ":]")
	if !ok || !ok2 || isUnicodeProperty(name) {
		return nil
	}
	return &RegexpError{3685, "Illegal argument to a regular expression."}
}

// longCategories are the long names of the general categories ICU
// accepts beside the short ones in unicode.Categories (UCD
// PropertyValueAliases.txt), loosely spelled.
var longCategories = strings.Fields(`letter casedletter uppercaseletter lowercaseletter
	titlecaseletter modifierletter otherletter mark nonspacingmark spacingmark
	enclosingmark number decimalnumber letternumber othernumber punctuation
	connectorpunctuation dashpunctuation openpunctuation closepunctuation
	initialpunctuation finalpunctuation otherpunctuation symbol mathsymbol
	currencysymbol modifiersymbol othersymbol separator spaceseparator
	lineseparator paragraphseparator other control format surrogate privateuse
	unassigned any assigned ascii`)

// isUnicodeProperty reports whether name, matched loosely as ICU does
// (case, spaces, '_' and '-' ignored; "name=value" forms left to ICU),
// may name a property ICU knows.
func isUnicodeProperty(name string) bool {
	if strings.ContainsAny(name, "=^") {
		return true
	}
	loose := looseName(name)
	for _, table := range []map[string]*unicode.RangeTable{unicode.Categories, unicode.Scripts, unicode.Properties} {
		for k := range table {
			if looseName(k) == loose {
				return true
			}
		}
	}
	for _, k := range longCategories {
		if k == loose {
			return true
		}
	}
	return false
}

func looseName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}
