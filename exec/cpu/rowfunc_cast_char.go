package cpu

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"gpusql/sql"
)

// castChar is CAST(x AS CHAR(n)) and CAST(x AS BINARY(n))
// (sql.CastChar(x, n, binary)), as MySQL's Item_typecast_char: the first
// n characters of x (BINARY: bytes), with warning 1292 "Truncated
// incorrect CHAR(n) value: 'x'" when x is longer; a shorter BINARY(n) is
// padded with 0x00 bytes to n.
func castChar(f *rowFunc, a []val) val {
	s, n, binary := a[0].s, int(a[1].i), a[2].i != 0
	kind := "CHAR"
	if binary {
		kind = "BINARY"
	}
	cut := s
	if binary {
		if len(s) < n {
			return sv(s + strings.Repeat("\x00", n-len(s)))
		}
		cut = s[:n]
	} else if utf8.RuneCountInString(s) > n {
		cut = string([]rune(s)[:n])
	}
	if len(cut) < len(s) {
		f.warn.Add(sql.WarnTruncatedValue, fmt.Sprintf("Truncated incorrect %s(%d) value: '%s'", kind, n, s))
	}
	return sv(cut)
}
