package cpu

import (
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The string codecs and set functions of sql/functions_codec.go.

func init() {
	for name, body := range codecBodies {
		stringBodies[name] = body
	}
	for _, name := range []string{"quote", "make_set", "char_func"} {
		nullSafeRowFuncs[name] = true
	}
}

// nullSafeRowFuncs are the row functions whose bodies see NULL arguments
// (the others give NULL for any NULL argument without being called).
var nullSafeRowFuncs = map[string]bool{"concat_ws": true, "field": true}

var codecBodies = map[string]func(f *rowFunc, a []val) val{
	"unhex": func(f *rowFunc, a []val) val {
		s := a[0].s
		if len(s)%2 == 1 {
			s = "0" + s // MySQL reads an odd first digit alone
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return nullVal
		}
		return sv(string(b))
	},
	"ord": func(f *rowFunc, a []val) val {
		s := a[0].s
		_, n := utf8.DecodeRuneInString(s) // 1 for an invalid byte, 0 for ''
		var v int64
		for i := 0; i < n; i++ {
			v = v<<8 | int64(s[i])
		}
		return iv(v)
	},
	"bit_length": func(f *rowFunc, a []val) val { return iv(8 * int64(len(a[0].s))) },
	"quote": func(f *rowFunc, a []val) val {
		if a[0].null {
			return sv("NULL")
		}
		return sv(quote(a[0].s))
	},
	"soundex":     func(f *rowFunc, a []val) val { return sv(soundex(a[0].s)) },
	"find_in_set": func(f *rowFunc, a []val) val { return iv(findInSet(a[0].s, a[1].s)) },
	"make_set": func(f *rowFunc, a []val) val {
		if a[0].null {
			return nullVal
		}
		bits := uint64(a[0].i)
		var parts []string
		for i, s := range a[1:] {
			if i < 64 && bits&(1<<i) != 0 && !s.null {
				parts = append(parts, s.s)
			}
		}
		return sv(strings.Join(parts, ","))
	},
	"export_set": func(f *rowFunc, a []val) val {
		bits, n := uint64(a[0].i), uint64(a[4].i)
		if n > 64 {
			n = 64 // MySQL reads n unsigned and clips it to 64
		}
		parts := make([]string, n)
		for i := range parts {
			parts[i] = a[2].s
			if bits&(1<<i) != 0 {
				parts[i] = a[1].s
			}
		}
		return sv(strings.Join(parts, a[3].s))
	},
	"char_func": charFunc,
}

// quote is MySQL's QUOTE: the string in single quotes, with backslash,
// quote, NUL and Control+Z escaped.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case 0:
			b.WriteString(`\0`)
		case 26:
			b.WriteString(`\Z`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// soundexCodes maps A..Z to their Soundex digit ('0': vowel, H, W, Y).
const soundexCodes = "01230120022455012623010202"

func soundexCode(r rune) byte {
	r = unicode.ToUpper(r)
	if r < 'A' || r > 'Z' {
		return '0' // letters outside A-Z count as vowels
	}
	return soundexCodes[r-'A']
}

// soundex is MySQL's SOUNDEX (Item_func_soundex): the first letter,
// upper-cased, then the code of every later letter that is not a vowel
// and differs from the last code written (vowels do not separate equal
// codes: the original algorithm, not Knuth's), padded with '0' to 4
// characters and never cut. Non-letters are skipped; a string without
// letters gives the empty string.
func soundex(s string) string {
	var b strings.Builder
	var last byte
	n := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		if n == 0 {
			b.WriteRune(unicode.ToUpper(r))
			last, n = soundexCode(r), 1
			continue
		}
		if c := soundexCode(r); c != '0' && c != last {
			b.WriteByte(c)
			last = c
			n++
		}
	}
	if n == 0 {
		return ""
	}
	for ; n < 4; n++ {
		b.WriteByte('0')
	}
	return b.String()
}

// findInSet is FIND_IN_SET: s's 1-based position among list's
// comma-separated items; 0 when absent, when list is ” or when s holds a
// comma.
func findInSet(s, list string) int64 {
	if list == "" || strings.Contains(s, ",") {
		return 0
	}
	for i, item := range strings.Split(list, ",") {
		if item == s {
			return int64(i + 1)
		}
	}
	return 0
}

// charFunc is CHAR(n1, ..., charset): each non-NULL ni's low 32 bits as
// its 1 to 4 big-endian bytes (CHAR(256) = CHAR(1, 0)); a result in a
// UTF-8 charset that is not UTF-8 is NULL.
func charFunc(f *rowFunc, a []val) val {
	var b []byte
	for _, x := range a[:len(a)-1] {
		if x.null {
			continue
		}
		n := uint32(x.i)
		switch {
		case n&0xFF000000 != 0:
			b = append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
		case n&0xFF0000 != 0:
			b = append(b, byte(n>>16), byte(n>>8), byte(n))
		case n&0xFF00 != 0:
			b = append(b, byte(n>>8), byte(n))
		default:
			b = append(b, byte(n))
		}
	}
	if cs := a[len(a)-1].s; cs != "binary" && !utf8.Valid(b) {
		return nullVal
	}
	return sv(string(b))
}
