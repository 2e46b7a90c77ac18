package mysqljson

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError is why a text is not JSON, worded as MySQL's (RapidJSON's)
// messages, at a 0-based byte position.
type SyntaxError struct {
	Msg string
	Pos int
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%q at position %d", e.Msg, e.Pos) }

// maxDepth is MySQL's limit on nesting (ER_JSON_DOCUMENT_TOO_DEEP).
const maxDepth = 100

type parser struct {
	s     string
	i     int
	depth int
}

// Parse reads one JSON document.
func Parse(s string) (Value, error) {
	p := &parser{s: s}
	p.space()
	if p.i == len(s) {
		return nil, p.fail("The document is empty.")
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(s) {
		return nil, p.fail("The document root must not be followed by other values.")
	}
	return v, nil
}

// Normalize is s parsed and printed in MySQL's form.
func Normalize(s string) (string, error) {
	v, err := Parse(s)
	if err != nil {
		return "", err
	}
	return Format(v), nil
}

// Valid is JSON_VALID.
func Valid(s string) bool { _, err := Parse(s); return err == nil }

func (p *parser) fail(msg string) error { return &SyntaxError{Msg: msg, Pos: p.i} }

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (Value, error) {
	if p.i >= len(p.s) {
		return nil, p.fail("Invalid value.")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil, nil
	}
	return nil, p.fail("Invalid value.")
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.fail(fmt.Sprintf("The JSON document exceeds the maximum depth of %d.", maxDepth))
	}
	p.i++
	p.space()
	return nil
}

func (p *parser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	o := &Object{}
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		p.depth--
		return o, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("Missing a name for object member.")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail("Missing a colon after a name of object member.")
		}
		p.i++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		o.Set(k.(string), v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			p.depth--
			return o, nil
		}
		return nil, p.fail("Missing a comma or '}' after an object member.")
	}
}

func (p *parser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	a := []Value{}
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		p.depth--
		return a, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			p.depth--
			return a, nil
		}
		return nil, p.fail("Missing a comma or ']' after an array element.")
	}
}

func (p *parser) str() (Value, error) {
	p.i++ // the opening quote
	var sb strings.Builder
	for {
		if p.i >= len(p.s) {
			return nil, p.fail("Missing a closing quotation mark in string.")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return sb.String(), nil
		case c == '\\':
			if err := p.escape(&sb); err != nil {
				return nil, err
			}
		case c < 0x20:
			return nil, p.fail("Invalid encoding in string.")
		case c < utf8.RuneSelf:
			sb.WriteByte(c)
			p.i++
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && n <= 1 {
				return nil, p.fail("Invalid encoding in string.")
			}
			sb.WriteString(p.s[p.i : p.i+n])
			p.i += n
		}
	}
}

var escapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (p *parser) escape(sb *strings.Builder) error {
	p.i++
	if p.i >= len(p.s) {
		return p.fail("Invalid escape character in string.")
	}
	if c, ok := escapes[p.s[p.i]]; ok {
		sb.WriteByte(c)
		p.i++
		return nil
	}
	if p.s[p.i] != 'u' {
		return p.fail("Invalid escape character in string.")
	}
	r, err := p.hex4()
	if err != nil {
		return err
	}
	if utf16.IsSurrogate(r) {
		if r >= 0xDC00 || !strings.HasPrefix(p.s[p.i:], "\\u") {
			return p.fail("The surrogate pair in string is invalid.")
		}
		p.i++
		lo, err := p.hex4()
		if err != nil {
			return err
		}
		if r = utf16.DecodeRune(r, lo); r == utf8.RuneError {
			return p.fail("The surrogate pair in string is invalid.")
		}
	}
	sb.WriteRune(r)
	return nil
}

// hex4 reads the four hex digits after \u (p.i at the u).
func (p *parser) hex4() (rune, error) {
	p.i++
	if p.i+4 > len(p.s) {
		return 0, p.fail("Incorrect hex digit after \\u escape in string.")
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, p.fail("Incorrect hex digit after \\u escape in string.")
	}
	p.i += 4
	return rune(n), nil
}

// number reads an integer as int64 (uint64 above its range, a double
// beyond that) and anything with a fraction or exponent as a double.
func (p *parser) number() (Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := p.digits()
	if digits == 0 {
		return nil, p.fail("Invalid value.")
	}
	isInt := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		isInt = false
		if p.digits() == 0 {
			return nil, p.fail("Miss fraction part in number.")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		isInt = false
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return nil, p.fail("Miss exponent in number.")
		}
	}
	text := p.s[start:p.i]
	if isInt {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
		if n, err := strconv.ParseUint(text, 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		p.i = start
		return nil, p.fail("Number too big to be stored in double.")
	}
	return f, nil
}

func (p *parser) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}
