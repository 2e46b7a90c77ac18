package sql

import (
	"fmt"
	"regexp"
	"strings"
)

// POSIX collating elements ([.~.], [.tilde.]) and equivalence classes
// ([=a=]) inside bracket expressions: MySQL's regular expressions accept
// them ("Regular Expressions", REGEXP_LIKE('~', '[[.tilde.]]') is 1);
// RE2 does not, so posixBrackets rewrites each as the character it
// names, escaped, before compiling. Equivalence classes name the
// character itself (gpusql compares by bytes, so a class holds one).
var posixBracketElem = regexp.MustCompile(`\[\.([^.\]]+)\.\]|\[=([^=\]]+)=\]`)

// collatingNames are the POSIX names of the ASCII characters (the
// table of Henry Spencer's cname.h, which MySQL's manual points to).
var collatingNames = map[string]string{
	"NUL": "\x00", "tab": "\t", "newline": "\n", "vertical-tab": "\v", "form-feed": "\f",
	"carriage-return": "\r", "space": " ", "exclamation-mark": "!", "quotation-mark": `"`,
	"number-sign": "#", "dollar-sign": "$", "percent-sign": "%", "ampersand": "&",
	"apostrophe": "'", "left-parenthesis": "(", "right-parenthesis": ")", "asterisk": "*",
	"plus-sign": "+", "comma": ",", "hyphen": "-", "hyphen-minus": "-", "period": ".",
	"full-stop": ".", "slash": "/", "solidus": "/", "zero": "0", "one": "1", "two": "2",
	"three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
	"colon": ":", "semicolon": ";", "less-than-sign": "<", "equals-sign": "=",
	"greater-than-sign": ">", "question-mark": "?", "commercial-at": "@",
	"left-square-bracket": "[", "backslash": `\`, "reverse-solidus": `\`,
	"right-square-bracket": "]", "circumflex": "^", "circumflex-accent": "^",
	"underscore": "_", "low-line": "_", "grave-accent": "`", "left-brace": "{",
	"left-curly-bracket": "{", "vertical-line": "|", "right-brace": "}",
	"right-curly-bracket": "}", "tilde": "~", "DEL": "\x7f",
}

// posixBrackets rewrites the collating elements and equivalence classes
// of a pattern; an unknown name is left as it is, for RE2 to reject.
func posixBrackets(pattern string) string {
	if !strings.Contains(pattern, "[.") && !strings.Contains(pattern, "[=") {
		return pattern
	}
	return posixBracketElem.ReplaceAllStringFunc(pattern, func(m string) string {
		name := m[2 : len(m)-2]
		if c, ok := collatingNames[name]; ok {
			name = c
		}
		r := []rune(name)
		if len(r) != 1 {
			return m
		}
		return fmt.Sprintf(`\x{%x}`, r[0])
	})
}
