package sql

import (
	"strconv"

	"gpusql/storage/columnar"
)

// numberWidth is the character length MySQL gives an integer column or
// literal as a string (its max_length): the column type's display width
// (INT 11, as '-2147483648'; INT UNSIGNED 10; BIGINT 20), a literal's own
// digits, so CAST(a AS CHAR) of an INT is VARCHAR(11) and CONCAT(b, 5)
// one longer than b. 0 for anything else: a computed integer's width
// (a + 1 is 12 in MySQL) is not its type's.
func numberWidth(e Expr) int {
	t := e.Type()
	if !t.IsInteger() || t.Year || t.Bit > 0 {
		return 0
	}
	switch x := e.(type) {
	case *Const:
		if x.Null {
			return 0
		}
		if t.Unsigned {
			return len(strconv.FormatUint(uint64(x.I), 10))
		}
		return len(strconv.FormatInt(x.I, 10))
	case *ColRef:
		return intDisplayWidth(t)
	case *Binary:
		if w := negWidth(x); w > 0 {
			return w
		}
		if x.Op == OpIntDiv {
			return intDivWidth(x)
		}
		return arithWidth(x)
	case *Cast:
		// The binder's own widening (INT to BIGINT for a + 1) is no
		// cast in MySQL: the operand keeps its display width.
		if !x.Written && x.E.Type().IsInteger() && x.E.Type().Unsigned == t.Unsigned {
			return numberWidth(x.E)
		}
	}
	return 0
}

// arithWidth is MySQL's display width of an integer +, - or * (its
// result_precision): the digits are the larger operand's plus one for a
// sum or difference, both operands' for a product, and a sign where the
// result is signed. CONCAT(a + 1) of an INT a is VARCHAR(12): 10 digits,
// one more, the sign. 0 where an operand's width is unknown.
func arithWidth(x *Binary) int {
	l, r := intPrecision(x.L), intPrecision(x.R)
	if l == 0 || r == 0 {
		return 0
	}
	var digits int
	switch x.Op {
	case OpAdd, OpSub:
		digits = max(l, r) + 1
	case OpMul:
		digits = l + r
	default:
		return 0
	}
	if x.Type().Unsigned {
		return digits
	}
	return digits + 1
}

// intPrecision is the digits of an integer expression (decimal_precision):
// a literal's own, others' display width less the sign.
func intPrecision(e Expr) int {
	if c, ok := e.(*Const); ok && !c.Null && c.T.IsInteger() && !c.T.Unsigned && c.I < 0 {
		return len(strconv.FormatInt(c.I, 10)) - 1
	}
	w := numberWidth(e)
	if _, ok := e.(*Const); ok || w == 0 || e.Type().Unsigned {
		return w
	}
	return w - 1
}

// intDisplayWidth is MySQL's display width of an integer type: the
// length of its longest value, with the sign where it has one.
func intDisplayWidth(t columnar.Type) int {
	signed := map[int]int{8: 4, 16: 6, 24: 9, 0: 11}
	unsigned := map[int]int{8: 3, 16: 5, 24: 8, 32: 10, 0: 20}
	switch {
	case t.Unsigned:
		return unsigned[t.Width]
	case t.ID == columnar.Int64:
		return 20
	}
	return signed[t.Width]
}

// textChars bounds a TEXT column's characters past CTAS's VARCHAR limit
// (MySQL's LONGTEXT is 4G bytes): only a cut shorter than that is used.
const textChars = 1 << 30

// cutWidth is the length MySQL gives LEFT, RIGHT and SUBSTRING of a
// string of known length with constant counts (Item_func_left's and
// Item_func_substr's resolve_type): LEFT(b, 2) of a VARCHAR(10) is
// VARCHAR(2), SUBSTRING(b, 3) VARCHAR(8). ok false where f is none of
// those, the string's length is unknown or a count is not a constant; a
// result of no characters (LEFT(b, 0)) is also left to TEXT, as gpusql's
// VARCHAR has no length 0.
func cutWidth(f *Func) (int, bool) {
	count := func(i int) (int64, bool) {
		c, ok := f.Args[i].(*Const)
		if !ok || c.Null || !c.T.IsInteger() {
			return 0, false
		}
		return c.I, true
	}
	if f.Name == CastChar && len(f.Args) == 3 {
		n, ok := count(1) // CAST(a AS CHAR(4)) is VARCHAR(4)
		return int(n), ok && n > 0
	}
	switch {
	case (f.Name == "left" || f.Name == "right") && len(f.Args) == 2:
	case f.Name == "substring" && (len(f.Args) == 2 || len(f.Args) == 3):
	default:
		return 0, false
	}
	w := int64(anchorWidth(f.Args[0]))
	if c, ok := f.Args[0].(*ColRef); ok && w == 0 && c.Type().ID == columnar.String {
		w = textChars // LEFT(textcol, 3) is VARCHAR(3)
	}
	if w == 0 {
		return 0, false
	}
	if f.Name != "substring" {
		n, ok := count(1)
		if !ok || n <= 0 {
			return 0, false
		}
		return int(min(w, n)), true
	}
	start, ok := count(1)
	switch {
	case !ok:
		return 0, false
	case start < 0:
		w = min(w, -start)
	case start > 0:
		w -= min(start-1, w)
	}
	if len(f.Args) == 3 {
		n, ok := count(2)
		if !ok {
			return 0, false
		}
		w = min(w, n)
	}
	if w <= 0 {
		return 0, false
	}
	return int(w), true
}
