package mysqljson

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A Path is a parsed JSON path expression: `$` followed by legs, as MySQL
// writes them: .key, ."quoted key", .*, [n], [last], [last-n], [m to n],
// [*] and ** (any depth, never last).
type Path struct {
	Text string
	legs []leg
}

type legKind uint8

const (
	legMember legKind = iota + 1
	legMemberWild
	legIndex
	legRange
	legIndexWild
	legEllipsis
)

type leg struct {
	kind legKind
	key  string
	from arrayIndex
	to   arrayIndex
}

// arrayIndex is n, or last-n when fromEnd.
type arrayIndex struct {
	n       int
	fromEnd bool
}

// at is the 0-based position the index names in an array of n elements
// (negative when last-k runs before the start).
func (x arrayIndex) at(n int) int {
	if x.fromEnd {
		return n - 1 - x.n
	}
	return x.n
}

// PathError is an invalid path expression, worded as MySQL's
// ER_INVALID_JSON_PATH.
type PathError struct{ Pos int }

func (e *PathError) Error() string {
	return fmt.Sprintf("Invalid JSON path expression. The error is around character position %d.", e.Pos)
}

// ParsePath reads a path expression.
func ParsePath(s string) (Path, error) {
	p := pathParser{s: s}
	p.space()
	if !p.eat("$") {
		return Path{}, p.fail()
	}
	var legs []leg
	for {
		p.space()
		if p.i == len(s) {
			break
		}
		l, err := p.leg()
		if err != nil {
			return Path{}, err
		}
		legs = append(legs, l)
	}
	if len(legs) > 0 && legs[len(legs)-1].kind == legEllipsis {
		return Path{}, &PathError{Pos: len(s)}
	}
	return Path{Text: s, legs: legs}, nil
}

type pathParser struct {
	s string
	i int
}

func (p *pathParser) fail() error { return &PathError{Pos: p.i} }

func (p *pathParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *pathParser) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *pathParser) leg() (leg, error) {
	switch {
	case p.eat("**"):
		return leg{kind: legEllipsis}, nil
	case p.eat("."):
		p.space()
		return p.member()
	case p.eat("["):
		return p.arrayLeg()
	}
	return leg{}, p.fail()
}

func (p *pathParser) member() (leg, error) {
	if p.eat("*") {
		return leg{kind: legMemberWild}, nil
	}
	if p.i < len(p.s) && p.s[p.i] == '"' {
		start := p.i
		for p.i++; p.i < len(p.s) && p.s[p.i] != '"'; p.i++ {
			if p.s[p.i] == '\\' {
				p.i++
			}
		}
		if p.i >= len(p.s) {
			return leg{}, p.fail()
		}
		p.i++
		k, err := Parse(p.s[start:p.i])
		if err != nil {
			return leg{}, &PathError{Pos: start}
		}
		return leg{kind: legMember, key: k.(string)}, nil
	}
	start := p.i
	for p.i < len(p.s) {
		r := rune(p.s[p.i])
		if r >= 0x80 || r == '_' || r == '$' || unicode.IsLetter(r) || (p.i > start && unicode.IsDigit(r)) {
			p.i++
			continue
		}
		break
	}
	if p.i == start {
		return leg{}, p.fail()
	}
	return leg{kind: legMember, key: p.s[start:p.i]}, nil
}

func (p *pathParser) arrayLeg() (leg, error) {
	p.space()
	if p.eat("*") {
		p.space()
		if !p.eat("]") {
			return leg{}, p.fail()
		}
		return leg{kind: legIndexWild}, nil
	}
	from, err := p.index()
	if err != nil {
		return leg{}, err
	}
	l := leg{kind: legIndex, from: from}
	p.space()
	if p.eat("to") {
		p.space()
		if l.to, err = p.index(); err != nil {
			return leg{}, err
		}
		l.kind = legRange
		p.space()
	}
	if !p.eat("]") {
		return leg{}, p.fail()
	}
	return l, nil
}

func (p *pathParser) index() (arrayIndex, error) {
	if p.eat("last") {
		p.space()
		if !p.eat("-") {
			return arrayIndex{fromEnd: true}, nil
		}
		p.space()
		n, err := p.number()
		return arrayIndex{n: n, fromEnd: true}, err
	}
	n, err := p.number()
	return arrayIndex{n: n}, err
}

func (p *pathParser) number() (int, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n, err := strconv.Atoi(p.s[start:p.i])
	if err != nil || n > 1<<31 {
		p.i = start
		return 0, p.fail()
	}
	return n, nil
}

// HasWildcard reports legs that can match more than one value (*, **,
// ranges): JSON_EXTRACT then wraps its answer in an array, and the
// modifying functions refuse the path.
func (pt Path) HasWildcard() bool {
	for _, l := range pt.legs {
		if l.kind != legMember && l.kind != legIndex {
			return true
		}
	}
	return false
}

// IsRoot reports the path `$`.
func (pt Path) IsRoot() bool { return len(pt.legs) == 0 }

// Match is one value a path reaches and the path that names it alone.
type Match struct {
	Val  Value
	Path string
}

// Seek is every value the path reaches in doc, in document order, each
// once. An index leg on a value that is not an array sees the value as a
// one-element array ([0] and [last] reach it), as MySQL does.
func (pt Path) Seek(doc Value) []Match {
	seen := map[string]bool{}
	var out []Match
	seek(doc, "$", pt.legs, func(m Match) {
		if !seen[m.Path] {
			seen[m.Path] = true
			out = append(out, m)
		}
	})
	return out
}

func seek(v Value, at string, legs []leg, emit func(Match)) {
	if len(legs) == 0 {
		emit(Match{Val: v, Path: at})
		return
	}
	l, rest := legs[0], legs[1:]
	switch l.kind {
	case legMember:
		if o, ok := v.(*Object); ok {
			if c, ok := o.Get(l.key); ok {
				seek(c, at+memberText(l.key), rest, emit)
			}
		}
	case legMemberWild:
		if o, ok := v.(*Object); ok {
			for i, k := range o.Keys {
				seek(o.Vals[i], at+memberText(k), rest, emit)
			}
		}
	case legIndexWild:
		if a, ok := v.([]Value); ok {
			for i, e := range a {
				seek(e, at+indexText(i), rest, emit)
			}
		}
	case legIndex, legRange:
		a, isArr := v.([]Value)
		if !isArr {
			a = []Value{v}
		}
		lo, hi := l.from.at(len(a)), l.from.at(len(a))
		if l.kind == legRange {
			hi = min(l.to.at(len(a)), len(a)-1)
			lo = max(lo, 0)
		}
		for i := lo; i <= hi && i >= 0 && i < len(a); i++ {
			next := at + indexText(i)
			if !isArr {
				next = at
			}
			seek(a[i], next, rest, emit)
		}
	case legEllipsis:
		seek(v, at, rest, emit)
		walkChildren(v, at, func(c Value, cat string) { seek(c, cat, legs, emit) })
	}
}

// walkChildren calls f on each element or member of v with its path.
func walkChildren(v Value, at string, f func(Value, string)) {
	switch x := v.(type) {
	case []Value:
		for i, e := range x {
			f(e, at+indexText(i))
		}
	case *Object:
		for i, k := range x.Keys {
			f(x.Vals[i], at+memberText(k))
		}
	}
}

func indexText(i int) string { return "[" + strconv.Itoa(i) + "]" }

// memberText is .key, or ."key" when key is not an identifier.
func memberText(k string) string {
	ok := k != ""
	for i, r := range k {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			ok = false
			break
		}
	}
	if ok {
		return "." + k
	}
	return "." + Quote(k)
}
