package sql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// repeatWithoutOperand is MySQL's 3688 (ER_REGEXP_RULE_SYNTAX) for a
// pattern whose repetition operator has nothing to repeat, at the
// operator's 1-based character: SELECT 'a' REGEXP '*a' is "... line 1,
// character 1.", 'a**' is "... character 3." (ICU's U_REGEX_RULE_SYNTAX
// with its parse position). nil where the scan finds no such operator:
// RE2 also refuses `a*+`, which ICU reads as a possessive repeat.
func repeatWithoutOperand(pattern string) *RegexpError {
	at := badRepeatAt(pattern)
	if at == 0 {
		return nil
	}
	return &RegexpError{3688, fmt.Sprintf("Syntax error in regular expression on line 1, character %d.", at)}
}

// badRepeatAt is the 1-based character of the first '*', '+' or '?'
// with no operand: at the start, after '(' or '|', or after a repeat
// that already took its one lazy ('?') or possessive ('+') modifier
// slot; 0 when there is none. Escapes and bracket expressions are
// operands, skipped whole.
func badRepeatAt(pattern string) int {
	const (
		noOperand = iota
		operand
		repeated
		modified
	)
	state, chars := noOperand, 0
	for i := 0; i < len(pattern); {
		c, n := utf8.DecodeRuneInString(pattern[i:])
		chars++
		switch {
		case c == '\\':
			n += utf8.RuneLen(firstRune(pattern[i+n:]))
			state = operand
		case c == '[':
			end := bracketEnd(pattern, i)
			chars += utf8.RuneCountInString(pattern[i+n : end])
			n, state = end-i, operand
		case c == '(' && strings.HasPrefix(pattern[i:], "(?"):
			n, state = n+1, noOperand // a group's flags, not a repeat
			chars++
		case c == '(' || c == '|':
			state = noOperand
		case c == '*' || c == '+' || c == '?':
			switch {
			case state == noOperand || state == modified || (state == repeated && c == '*'):
				return chars
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
	return 0
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
