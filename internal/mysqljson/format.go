package mysqljson

import (
	"math"
	"strconv"
	"strings"
)

// Format is v in MySQL's text form: `{"a": 1, "b": [1, 2]}`.
func Format(v Value) string {
	var sb strings.Builder
	write(&sb, v, "", "")
	return sb.String()
}

// Pretty is JSON_PRETTY: one member or element per line, indented by two
// spaces.
func Pretty(v Value) string {
	var sb strings.Builder
	write(&sb, v, "\n", "  ")
	return sb.String()
}

// write prints v; nl and indent are "" for the one-line form.
func write(sb *strings.Builder, v Value, nl, indent string) {
	switch x := v.(type) {
	case []Value:
		if len(x) == 0 {
			sb.WriteString("[]")
			return
		}
		sb.WriteByte('[')
		for i, e := range x {
			sep(sb, i, nl, indent)
			write(sb, e, nl+indent, indent)
		}
		closeWith(sb, ']', nl)
	case *Object:
		if len(x.Keys) == 0 {
			sb.WriteString("{}")
			return
		}
		sb.WriteByte('{')
		for i, k := range x.Keys {
			sep(sb, i, nl, indent)
			sb.WriteString(Quote(k))
			sb.WriteString(": ")
			write(sb, x.Vals[i], nl+indent, indent)
		}
		closeWith(sb, '}', nl)
	default:
		sb.WriteString(scalarText(v))
	}
}

func sep(sb *strings.Builder, i int, nl, indent string) {
	switch {
	case nl != "":
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(nl + indent)
	case i > 0:
		sb.WriteString(", ")
	}
}

func closeWith(sb *strings.Builder, c byte, nl string) {
	sb.WriteString(nl)
	sb.WriteByte(c)
}

func scalarText(v Value) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return FormatDouble(x)
	case string:
		return Quote(x)
	}
	return "null"
}

// FormatDouble prints a double as MySQL's JSON does: the shortest digits
// that read back the same, always with a fraction or an exponent (3.0,
// 1e20, 1.5e-7), plain notation for decimal exponents -5 to 14.
func FormatDouble(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	exp := int(math.Floor(math.Log10(math.Abs(f))))
	if exp < -5 || exp > 14 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, e, _ := strings.Cut(s, "e")
		n, _ := strconv.Atoi(e)
		return mant + "e" + strconv.Itoa(n)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return s
}

// Quote is JSON_QUOTE: s as a JSON string, with ", \ and control
// characters escaped (MySQL keeps other characters as they are).
func Quote(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if c < 0x20 {
				sb.WriteString(`\u00`)
				sb.WriteByte("0123456789abcdef"[c>>4])
				sb.WriteByte("0123456789abcdef"[c&15])
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// Unquote is the text JSON_UNQUOTE and ->> give for v: a string's
// characters, any other value's JSON text.
func Unquote(v Value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return Format(v)
}
