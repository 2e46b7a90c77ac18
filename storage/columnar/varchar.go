package columnar

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"gpusql/internal/mysqljson"
)

// Storing a string into a VARCHAR(n) / CHAR(n) column follows MySQL 8 in
// strict mode (STRICT_TRANS_TABLES, the default sql_mode), with utf8mb4 as
// the character set of every text column:
//
//   - the value must be valid UTF-8 ("Incorrect string value");
//   - it may hold at most n characters (runes, not bytes) — except that
//     excess trailing spaces are cut silently, as MySQL does for CHAR and
//     (with a note) for VARCHAR in every sql_mode ("Data too long" only when
//     a character other than a space would be lost);
//   - a CHAR(n) value loses its trailing spaces: MySQL pads it to n on disk
//     and strips the padding when reading it (PAD_CHAR_TO_FULL_LENGTH off),
//     so no space at the end survives.
//
// Binary columns (BINARY, VARBINARY, BLOB) hold bytes: no UTF-8 check, and
// n counts bytes. Width 0 (TEXT, BLOB) is no length limit.
//
// Loaders call FitString once per distinct string (per dictionary entry),
// not per row, and look for the first row holding the value only when it
// fails, so the check costs a load almost nothing: utf8.ValidString runs
// eight ASCII bytes per step and a value of at most n bytes cannot have
// more than n characters, so the rune count is skipped for nearly all.

// StringError says why a string cannot be stored in a column. FitString
// leaves the place empty: At adds it.
type StringError struct {
	TooLong bool // else invalid UTF-8 or (JSONError set) invalid JSON
	// Truncated: not a member of an ENUM or SET column (enum.go).
	Truncated bool
	// JSONError is why the value is not JSON text, as MySQL words it:
	// "Invalid value." at position 3.
	JSONError string
	Value     string // the offending value
	Type      Type   // the column's
	Table     string // set by At
	Column    string
	Row       int // 1-based
}

// At is the error for the value at 1-based row of table.col, worded as
// MySQL's ER_DATA_TOO_LONG (1406) and ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
// (1366), "Data too long for column 'c' at row 2", followed by the table,
// the column type and the value's length.
func (e *StringError) At(table, col string, row int) error {
	at := *e
	at.Table, at.Column, at.Row = table, col, row
	return &at
}

func (e *StringError) Error() string {
	where, col := "", "the column"
	if e.Column != "" {
		where = fmt.Sprintf(" for column '%s' at row %d", e.Column, e.Row)
		col = e.Column
		if e.Table != "" {
			col = e.Table + "." + e.Column
		}
	}
	if e.Truncated {
		where := " for column 'the column'"
		if e.Column != "" {
			where = fmt.Sprintf(" for column '%s' at row %d", e.Column, e.Row)
		}
		return fmt.Sprintf("Data truncated%s ('%s' is not a value of %s)", where, e.Value, e.Type)
	}
	if e.JSONError != "" {
		return fmt.Sprintf("Invalid JSON text: %s in value for column '%s'%s", e.JSONError, col, strings.Replace(where, " for column '"+e.Column+"'", "", 1))
	}
	if e.TooLong {
		n, unit := utf8.RuneCountInString(e.Value), "characters"
		if e.Type.Binary {
			n, unit = len(e.Value), "bytes"
		}
		return fmt.Sprintf("Data too long%s (%s is %s, the value has %d %s)", where, col, e.Type, n, unit)
	}
	return fmt.Sprintf("Incorrect string value: '%s'%s (not valid UTF-8; %s is %s)", printableBytes(e.Value), where, col, e.Type)
}

// FitString returns s as it is stored in a String column of type t: s
// itself, or s without the trailing spaces past the width (CHAR: without
// any trailing spaces; BINARY: padded with 0x00 to the width); for a JSON column, s parsed and printed in MySQL's
// normalized form. It returns a *StringError when s is not valid UTF-8,
// would lose other characters, or is not JSON text.
func (t Type) FitString(s string) (string, error) {
	if t.JSON {
		norm, err := mysqljson.Normalize(s)
		if err != nil {
			return "", &StringError{JSONError: err.Error(), Value: s, Type: t}
		}
		return norm, nil
	}
	if !t.Binary && !utf8.ValidString(s) {
		return "", &StringError{Value: s, Type: t}
	}
	if t.Members != "" {
		return t.fitEnum(s)
	}
	orig := s
	if t.Char && !t.Binary {
		s = strings.TrimRight(s, " ")
	}
	w := t.Width
	if t.Char && t.Binary && len(s) < w {
		// "The BINARY and VARBINARY Types": BINARY(n) pads with 0x00
		// bytes, kept on retrieval ('a' is stored as 'a\0\0' in BINARY(3)).
		return s + strings.Repeat("\x00", w-len(s)), nil
	}
	if w <= 0 || len(s) <= w {
		return s, nil // a rune is at least one byte
	}
	cut := len(s) // byte offset of the rune after the first w
	if !t.Binary {
		n := 0
		for i := range s {
			if n == w {
				cut = i
				break
			}
			n++
		}
	} else {
		cut = w
	}
	if cut == len(s) {
		return s, nil
	}
	if strings.TrimRight(s[cut:], " ") == "" {
		return s[:cut], nil
	}
	return "", &StringError{TooLong: true, Value: orig, Type: t}
}

// printableBytes renders s from its first invalid UTF-8 byte as MySQL does
// in "Incorrect string value": at most 6 bytes, printable ASCII as is and
// other bytes as \xHH, then "..." when more follow.
func printableBytes(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	var sb strings.Builder
	rest := s[i:]
	for k := 0; k < len(rest) && k < 6; k++ {
		if c := rest[k]; c >= 0x20 && c < 0x7f {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, "\\x%02X", c)
		}
	}
	if len(rest) > 6 {
		sb.WriteString("...")
	}
	return sb.String()
}
