package columnar

import (
	"strconv"
	"strings"
)

// ENUM and SET columns are String columns whose type lists the members
// (Type.Members). A value is stored as its member's text, so every string
// path (dictionary, loaders, results, persistence) carries it unchanged;
// what makes it an ENUM is what FitString lets in: a member, matched
// without regard to case or trailing spaces and stored as declared, or a
// member's 1-based index written as a number (INSERT ... VALUES (2)). A
// SET value is a comma list of members (or the bitmask as a number),
// stored in declaration order without repeats. Anything else is MySQL's
// strict-mode error 1265, "Data truncated for column 'c' at row 1". The
// binder gives the index (ENUM) or bitmask (SET) where MySQL does: ORDER
// BY and numeric contexts (sql/enum.go).

// MembersOf packs members for Type.Members.
func MembersOf(members []string) string {
	var b strings.Builder
	for _, m := range members {
		b.WriteString(m)
		b.WriteByte(0)
	}
	return b.String()
}

// EnumMembers are the members of an ENUM or SET type, in declaration
// order.
func (t Type) EnumMembers() []string {
	if t.Members == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(t.Members, "\x00"), "\x00")
}

// EnumName is the type as SQL writes it, with the given keyword for ENUM
// and SET: enum('a','b') in SHOW CREATE TABLE, ENUM('a','b') in DESCRIBE.
func (t Type) EnumName(enum, set string) string {
	name := enum
	if t.Set {
		name = set
	}
	ms := t.EnumMembers()
	q := make([]string, len(ms))
	for i, m := range ms {
		q[i] = "'" + strings.ReplaceAll(m, "'", "''") + "'"
	}
	return name + "(" + strings.Join(q, ",") + ")"
}

// EnumMember is the member of an ENUM or SET type that s names, matched as
// MySQL's default collation does (case and trailing spaces aside).
func (t Type) EnumMember(s string) (string, bool) {
	s = strings.TrimRight(s, " ")
	for _, m := range t.EnumMembers() {
		if strings.EqualFold(strings.TrimRight(m, " "), s) {
			return m, true
		}
	}
	return "", false
}

// fitEnum is FitString for an ENUM or SET column.
func (t Type) fitEnum(s string) (string, error) {
	ms := t.EnumMembers()
	find := func(v string) int {
		v = strings.TrimRight(v, " ")
		for i, m := range ms {
			if strings.EqualFold(strings.TrimRight(m, " "), v) {
				return i
			}
		}
		return -1
	}
	bad := &StringError{Truncated: true, Value: s, Type: t}
	if !t.Set {
		if i := find(s); i >= 0 {
			return ms[i], nil
		}
		if n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32); err == nil && n >= 1 && int(n) <= len(ms) {
			return ms[n-1], nil
		}
		return "", bad
	}
	in := make([]bool, len(ms))
	if n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64); err == nil && s != "" {
		if len(ms) < 64 && n>>uint(len(ms)) != 0 {
			return "", bad
		}
		for i := range ms {
			in[i] = n&(1<<uint(i)) != 0
		}
	} else if s != "" {
		for _, part := range strings.Split(s, ",") {
			i := find(part)
			if i < 0 {
				return "", bad
			}
			in[i] = true
		}
	}
	var out []string
	for i, m := range ms {
		if in[i] {
			out = append(out, m)
		}
	}
	return strings.Join(out, ","), nil
}
