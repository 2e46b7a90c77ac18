package sql

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Parameters of prepared statements ('?' placeholders). The binder has no
// parameter values of its own: the database/sql driver and the server's
// prepared statements substitute each argument as an SQL literal before
// parsing, which gives the argument the type its literal has (a Go string
// is a VARCHAR literal, an int64 an integer one).

// Placeholders counts the '?' placeholders of query, leaving out those in
// strings, quoted identifiers and comments.
func Placeholders(query string) int {
	n := 0
	for i := 0; i < len(query); {
		if end := skipText(query, i); end > i {
			i = end
			continue
		}
		if query[i] == '?' {
			n++
		}
		i++
	}
	return n
}

// SubstituteParams replaces the '?' placeholders of query by args written
// as SQL literals. A '?' inside a string or quoted identifier ('…', "…",
// `…`) or a comment (-- and # to the end of the line, /* … */) is text,
// neither counted nor replaced. The counts must match.
func SubstituteParams(query string, args []any) (string, error) {
	if len(args) == 0 {
		return query, nil
	}
	limits := limitPlaceholders(query)
	return substitute(query, len(args), func(i int) (string, error) {
		if limits[i] {
			return limitLiteral(args[i], "mysqld_stmt_execute")
		}
		lit, err := Literal(args[i])
		if err != nil {
			return "", fmt.Errorf("argument %d: %w", i+1, err)
		}
		return lit, nil
	})
}

// substitute replaces the n placeholders of query by literal(0..n-1),
// checking that query has exactly n.
func substitute(query string, n int, literal func(i int) (string, error)) (string, error) {
	var b strings.Builder
	k := 0
	for i := 0; i < len(query); {
		if end := skipText(query, i); end > i {
			b.WriteString(query[i:end])
			i = end
			continue
		}
		if query[i] != '?' {
			b.WriteByte(query[i])
			i++
			continue
		}
		if k >= n {
			return "", fmt.Errorf("query has more '?' placeholders than the %d arguments", n)
		}
		lit, err := literal(k)
		if err != nil {
			return "", err
		}
		b.WriteString(lit)
		k++
		i++
	}
	if k != n {
		return "", fmt.Errorf("%d arguments for %d '?' placeholders", n, k)
	}
	return b.String(), nil
}

// skipText returns the end of the quoted string, quoted identifier or
// comment starting at query[i], or i when none starts there. Unterminated
// ones run to the end of the query (the parser then reports them).
func skipText(query string, i int) int {
	rest := query[i:]
	switch c := query[i]; {
	case c == '\'' || c == '"' || c == '`':
		j := i + 1
		for ; j < len(query); j++ {
			if query[j] == '\\' && c != '`' {
				j++ // MySQL's backslash escapes (not in identifiers)
				continue
			}
			if query[j] == c {
				if j+1 < len(query) && query[j+1] == c {
					j++ // a doubled quote is the quote itself
					continue
				}
				return j + 1
			}
		}
		return len(query)
	case c == '#', isDashComment(rest):
		if k := strings.IndexByte(rest, '\n'); k >= 0 {
			return i + k
		}
		return len(query)
	case strings.HasPrefix(rest, "/*"):
		if k := strings.Index(rest[2:], "*/"); k >= 0 {
			return i + 2 + k + 2
		}
		return len(query)
	}
	return i
}

// isDashComment reports whether s starts a -- comment: MySQL wants the
// dashes followed by a space or control character (or the end), so that
// 1--1 stays arithmetic.
func isDashComment(s string) bool {
	return strings.HasPrefix(s, "--") && (len(s) == 2 || s[2] <= ' ')
}

// Literal writes a Go value as an SQL literal: nil, integers, floats,
// bool, string, []byte (a string) and time.Time (a DATE at UTC midnight,
// else a TIMESTAMP literal of its UTC wall-clock time to the microsecond).
func Literal(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "NULL", nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int8, int16, int32, int:
		return fmt.Sprint(v), nil
	case uint8, uint16, uint32, uint:
		return fmt.Sprint(v), nil
	case uint64: // past 2^63-1 the literal is BIGINT UNSIGNED
		return strconv.FormatUint(v, 10), nil
	case float32:
		return strconv.FormatFloat(float64(v), 'e', -1, 32), nil
	case float64:
		// An exponent makes the literal a DOUBLE rather than a DECIMAL.
		return strconv.FormatFloat(v, 'e', -1, 64), nil
	case bool:
		if v {
			return "TRUE", nil
		}
		return "FALSE", nil
	case []byte:
		return quote(string(v)), nil
	case string:
		return quote(v), nil
	case time.Time:
		v = v.UTC()
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 && v.Nanosecond() == 0 {
			return "DATE '" + v.Format("2006-01-02") + "'", nil
		}
		return "TIMESTAMP '" + v.Format("2006-01-02 15:04:05.999999") + "'", nil
	}
	return "", fmt.Errorf("unsupported type %T", v)
}

func quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
