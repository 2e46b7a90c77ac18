package cpu

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// maxStringResult bounds the strings REPEAT, LPAD, RPAD and SPACE build
// (MySQL's max_allowed_packet default, 64 MiB): past it MySQL returns NULL.
const maxStringResult = 64 << 20

// warnPacketOverflow is MySQL's ER_WARN_ALLOWED_PACKET_OVERFLOWED.
const warnPacketOverflow uint16 = 1301

// tooLong is the NULL MySQL gives a string function whose result would
// pass max_allowed_packet, with the warning it notes.
func tooLong(f *rowFunc, name string) val {
	f.warn.Add(warnPacketOverflow, fmt.Sprintf("Result of %s() was larger than max_allowed_packet (%d) - truncated", name, maxStringResult))
	return nullVal
}

func errUnsupportedFunc(name string) error { return fmt.Errorf("cpu: unsupported function %s()", name) }

func sv(s string) val { return val{s: s} }
func iv(i int64) val  { return val{i: i} }

// stringBodies are the string functions of sql/functions_more.go.
var stringBodies = map[string]func(f *rowFunc, a []val) val{
	sql.CastChar: castChar, // rowfunc_cast_char.go
	"concat_ws": func(f *rowFunc, a []val) val {
		if a[0].null {
			return nullVal
		}
		var parts []string
		for _, x := range a[1:] {
			if !x.null {
				parts = append(parts, x.s)
			}
		}
		return sv(strings.Join(parts, a[0].s))
	},
	"lpad": func(f *rowFunc, a []val) val { return padAs(f, a, true) },
	"rpad": func(f *rowFunc, a []val) val { return padAs(f, a, false) },
	"reverse": func(f *rowFunc, a []val) val {
		if f.types[0].Binary { // a binary string's characters are its bytes
			return sv(string(reversed([]byte(a[0].s))))
		}
		return sv(string(reversed([]rune(a[0].s))))
	},
	"left": func(f *rowFunc, a []val) val {
		if f.types[0].Binary {
			return sv(a[0].s[:clampLen(a[1].i, len(a[0].s))])
		}
		r := []rune(a[0].s)
		return sv(string(r[:clampLen(a[1].i, len(r))]))
	},
	"right": func(f *rowFunc, a []val) val {
		if f.types[0].Binary {
			return sv(a[0].s[len(a[0].s)-clampLen(a[1].i, len(a[0].s)):])
		}
		r := []rune(a[0].s)
		return sv(string(r[len(r)-clampLen(a[1].i, len(r)):]))
	},
	"repeat": func(f *rowFunc, a []val) val {
		if a[1].i <= 0 || a[0].s == "" {
			return sv("")
		}
		if a[1].i > maxStringResult/int64(len(a[0].s)) {
			return tooLong(f, "repeat")
		}
		return sv(strings.Repeat(a[0].s, int(a[1].i)))
	},
	"space": func(f *rowFunc, a []val) val {
		if a[0].i > maxStringResult {
			return tooLong(f, "space")
		}
		return sv(strings.Repeat(" ", int(max(a[0].i, 0))))
	},
	"locate": func(f *rowFunc, a []val) val {
		start := int64(1)
		if len(a) > 2 {
			start = a[2].i
		}
		return iv(locate(a[0].s, a[1].s, start))
	},
	"locate_collated": func(f *rowFunc, a []val) val { return iv(locateCollated(a[0].s, a[1].s, a[2].i, a[3].s)) },
	"ascii": func(f *rowFunc, a []val) val {
		if a[0].s == "" {
			return iv(0)
		}
		return iv(int64(a[0].s[0]))
	},
	"strcmp": func(f *rowFunc, a []val) val { return iv(int64(strings.Compare(a[0].s, a[1].s))) },
	"elt": func(f *rowFunc, a []val) val {
		if a[0].i < 1 || a[0].i >= int64(len(a)) {
			return nullVal
		}
		return a[a[0].i]
	},
	"field": func(f *rowFunc, a []val) val {
		if a[0].null {
			return iv(0)
		}
		for i, x := range a[1:] {
			if !x.null && x == a[0] {
				return iv(int64(i + 1))
			}
		}
		return iv(0)
	},
	"greatest": func(f *rowFunc, a []val) val { return extreme(f, a, 1) },
	"least":    func(f *rowFunc, a []val) val { return extreme(f, a, -1) },
}

func clampLen(n int64, l int) int {
	if n < 0 {
		return 0
	}
	return int(min(n, int64(l)))
}

// padAs is LPAD or RPAD by the result's type: MySQL's Item_func_lpad
// aggregates the charsets of the string and the padding, and a binary
// result pads and cuts by bytes (LPAD(BINARY 'é', 4, 'x') is 'xxé', two
// bytes of 'é' and two of padding), a text one by characters.
func padAs(f *rowFunc, a []val, left bool) val {
	if n := a[1].i; n > 0 && !padFits(f, a[0].s, n) {
		return tooLong(f, f.name)
	}
	if f.t.Binary {
		return padBytes(a[0].s, a[1].i, a[2].s, left)
	}
	return pad(a[0].s, a[1].i, a[2].s, left)
}

// padFits is Item_func_lpad's size check: a result longer than s is
// refused when n characters of the charset's widest (4 bytes in utf8mb4)
// could pass max_allowed_packet, however short the padding really is.
func padFits(f *rowFunc, s string, n int64) bool {
	width, have := int64(4), int64(utf8.RuneCountInString(s))
	if f.t.Binary {
		width, have = 1, int64(len(s))
	}
	return n <= have || n <= maxStringResult/width
}

// padBytes is pad counting bytes.
func padBytes(s string, n int64, p string, left bool) val {
	if n < 0 || n > maxStringResult {
		return nullVal
	}
	if int64(len(s)) >= n {
		return sv(s[:n])
	}
	if p == "" {
		return nullVal
	}
	need := int(n) - len(s)
	pb := strings.Repeat(p, need/len(p)+1)[:need]
	if left {
		return sv(pb + s)
	}
	return sv(s + pb)
}

// pad is LPAD/RPAD: s cut or padded with repetitions of p to n characters.
func pad(s string, n int64, p string, left bool) val {
	if n < 0 || n > maxStringResult {
		return nullVal
	}
	r := []rune(s)
	if int64(len(r)) >= n {
		return sv(string(r[:n]))
	}
	if p == "" {
		return nullVal
	}
	need := int(n) - len(r)
	pr := []rune(strings.Repeat(p, need/utf8.RuneCountInString(p)+1))[:need]
	if left {
		return sv(string(pr) + s)
	}
	return sv(s + string(pr))
}

// locate is the 1-based character position of sub in s at or after
// character start, 0 if none (MySQL: start < 1 finds nothing).
func locate(sub, s string, start int64) int64 {
	r := []rune(s)
	if start < 1 || start > int64(len(r))+1 {
		return 0
	}
	i := strings.Index(string(r[start-1:]), sub)
	if i < 0 {
		return 0
	}
	return start + int64(utf8.RuneCountInString(string(r[start-1:])[:i]))
}

// locateCollated is LOCATE(sub, s, start) under the case-insensitive
// collation name, found as MySQL's my_instr_mb finds it: at each character
// of s from start on, the next len(sub) bytes are compared with sub by the
// collation, so a match must be as long in bytes as sub (INSTR('Hello'
// COLLATE utf8mb4_0900_ai_ci, 'L') is 3, INSTR('café' COLLATE
// utf8mb4_0900_ai_ci, 'e') is 0: 'é' is two bytes).
func locateCollated(sub, s string, start int64, name string) int64 {
	if sub == "" {
		return locate(sub, s, start)
	}
	key := columnar.CollationMatchKey(name, sub)
	pos := int64(0)
	for i := range s {
		pos++
		if pos < start {
			continue
		}
		if i+len(sub) > len(s) {
			break
		}
		if columnar.CollationMatchKey(name, s[i:i+len(sub)]) == key {
			return pos
		}
	}
	return 0
}

// extreme is GREATEST (dir 1) or LEAST (dir -1) of values of one type.
func extreme(f *rowFunc, a []val, dir int) val {
	best := a[0]
	for _, x := range a[1:] {
		var c int
		switch f.t.ID {
		case columnar.String:
			c = strings.Compare(x.s, best.s)
		case columnar.Float64:
			c = cmpOrdered(x.f, best.f)
		default:
			c = cmpOrdered(orderedInt64(f.t, x.i), orderedInt64(f.t, best.i))
		}
		if c*dir > 0 {
			best = x
		}
	}
	return best
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// reversed reverses r in place and returns it.
func reversed[T byte | rune](r []T) []T {
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return r
}
