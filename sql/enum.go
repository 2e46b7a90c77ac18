package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/types"

	"gpusql/storage/columnar"
)

// ENUM and SET columns hold their members' text (storage/columnar/enum.go);
// the binder gives MySQL's numbers where MySQL uses them: ORDER BY sorts an
// ENUM by its index (declaration order) and a SET by its bitmask, and
// arithmetic, and comparison with a number, read the index or bitmask
// (e + 0, e = 2). Elsewhere the value is its text: comparison with a
// string, LIKE, CONCAT, MIN / MAX (MySQL compares those by text too).

// enumType is the column type of ENUM(...) or SET(...), or why not.
func enumType(tp *types.FieldType, set bool) (columnar.Type, string) {
	elems := tp.GetElems()
	kind := "ENUM"
	if set {
		kind = "SET"
	}
	switch {
	case len(elems) == 0:
		return columnar.Type{}, kind + " without members"
	case set && len(elems) > 64:
		return columnar.Type{}, "SET of more than 64 members"
	}
	seen := map[string]bool{}
	for _, m := range elems {
		k := strings.ToLower(strings.TrimRight(m, " "))
		if seen[k] {
			return columnar.Type{}, "duplicated value '" + m + "' in " + kind
		}
		if set && strings.Contains(m, ",") {
			return columnar.Type{}, "SET member '" + m + "' with a comma"
		}
		seen[k] = true
	}
	return columnar.Type{ID: columnar.String, Members: columnar.MembersOf(elems), Set: set}, ""
}

// isEnum reports an ENUM or SET value.
func isEnum(e Expr) bool { return e.Type().ID == columnar.String && e.Type().Members != "" }

// enumNumber is an ENUM's index (1-based; 0 for the empty error value) or
// a SET's bitmask, as a BIGINT; NULL stays NULL. Other expressions are
// returned unchanged.
func enumNumber(e Expr) Expr {
	if !isEnum(e) {
		return e
	}
	t := e.Type()
	ms := t.EnumMembers()
	var n Expr
	if !t.Set {
		args := []Expr{e}
		for _, m := range ms {
			args = append(args, &Const{T: columnar.TString, S: m})
		}
		n = &Func{Name: "field", Args: args, T: columnar.TInt64}
	} else {
		for i, m := range ms {
			has := &Binary{Op: OpGT, L: &Func{Name: "find_in_set", Args: []Expr{&Const{T: columnar.TString, S: m}, e}, T: columnar.TInt64},
				R: &Const{T: columnar.TInt64, I: 0}, T: columnar.TBool}
			bit := &Case{Whens: []When{{Cond: has, Result: &Const{T: columnar.TInt64, I: 1 << uint(i)}}}, Else: &Const{T: columnar.TInt64, I: 0}, T: columnar.TInt64}
			if n == nil {
				n = bit
			} else {
				n = &Binary{Op: OpAdd, L: n, R: bit, T: columnar.TInt64}
			}
		}
	}
	return &Case{Whens: []When{{Cond: &IsNull{E: e}, Result: &Const{T: columnar.TInt64, Null: true}}}, Else: n, T: columnar.TInt64}
}

// enumCompare gives an ENUM or SET compared with a number its number,
// and a string constant naming a member in another case that member's
// text (MySQL compares ENUM text in its case-insensitive collation).
func enumCompare(l, r Expr) (Expr, Expr) {
	member := func(e, c Expr) Expr {
		if k, ok := c.(*Const); ok && !k.Null && k.T.ID == columnar.String && !e.Type().Set {
			if m, ok := e.Type().EnumMember(k.S); ok {
				return &Const{T: columnar.TString, S: m}
			}
		}
		return c
	}
	if isEnum(l) {
		r = member(l, r)
	} else if isEnum(r) {
		l = member(r, l)
	}
	number := func(e Expr) bool {
		t := e.Type()
		return t.ID != columnar.String && t.ID != columnar.Date && t.ID != columnar.Datetime && t.ID != columnar.Time && !isNullConst(e)
	}
	switch {
	case isEnum(l) && number(r):
		return enumNumber(l), r
	case isEnum(r) && number(l):
		return l, enumNumber(r)
	}
	return l, r
}

// SQLTypeName is a column type as DESCRIBE, SHOW CREATE TABLE and
// information_schema.COLUMNS.COLUMN_TYPE write it: in lower case, but an
// ENUM's or SET's members as declared; BOOLEAN is MySQL's tinyint(1) and
// a string without a length its TEXT or BLOB of the column's size class
// (tinytext ... longblob).
func SQLTypeName(t columnar.Type) string {
	switch {
	case t.Members != "":
		return t.EnumName("enum", "set")
	case t.ID == columnar.Bool:
		return "tinyint(1)"
	case t.ID == columnar.String && !t.JSON && t.Width <= 0 && (t.Binary || !t.Char):
		return strings.ToLower(t.LobName())
	}
	return strings.ToLower(t.String())
}

// enumDataType is information_schema.COLUMNS' DATA_TYPE and
// CHARACTER_MAXIMUM_LENGTH of an ENUM (its longest member) or SET (all
// members and the commas between them).
func enumDataType(t columnar.Type) (string, Expr) {
	n, total := 0, 0
	ms := t.EnumMembers()
	for _, m := range ms {
		l := len([]rune(m))
		n, total = max(n, l), total+l
	}
	if t.Set {
		return "set", &Const{T: columnar.TInt64, I: int64(total + len(ms) - 1)}
	}
	return "enum", &Const{T: columnar.TInt64, I: int64(n)}
}
