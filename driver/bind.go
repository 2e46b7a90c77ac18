package driver

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// bind substitutes '?' placeholders outside quotes and comments by the
// arguments written as SQL literals (the engine has no server-side
// parameters).
func bind(query string, args []driver.NamedValue) (string, error) {
	if len(args) == 0 {
		return query, nil
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for ; j < len(query); j++ {
				if query[j] == '\\' && c != '`' {
					j++
					continue
				}
				if query[j] == c {
					if j+1 < len(query) && query[j+1] == c {
						j++
						continue
					}
					break
				}
			}
			end := min(j+1, len(query))
			b.WriteString(query[i:end])
			i = end - 1
		case c == '-' && strings.HasPrefix(query[i:], "-- "):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				end = len(query) - i
			}
			b.WriteString(query[i : i+end])
			i += end - 1
		case c == '?':
			if n >= len(args) {
				return "", fmt.Errorf("gpusql: query has more '?' than the %d arguments", len(args))
			}
			lit, err := literal(args[n].Value)
			if err != nil {
				return "", fmt.Errorf("gpusql: argument %d: %w", n+1, err)
			}
			b.WriteString(lit)
			n++
		default:
			b.WriteByte(c)
		}
	}
	if n != len(args) {
		return "", fmt.Errorf("gpusql: %d arguments for %d '?' placeholders", len(args), n)
	}
	return b.String(), nil
}

// literal writes a Go value as a SQL literal.
func literal(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "NULL", nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		// An exponent makes the literal a DOUBLE rather than a DECIMAL.
		s := strconv.FormatFloat(v, 'e', -1, 64)
		return s, nil
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
		return "DATE '" + v.Format("2006-01-02") + "'", nil
	}
	return "", fmt.Errorf("unsupported type %T", v)
}

func quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
