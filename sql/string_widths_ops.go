package sql

import "strings"

// negWidth is MySQL's display width of -u for an unsigned integer u
// (Item_func_neg::fix_num_length_and_dec): u's width and one for the
// sign, so CONCAT(-u) of an INT UNSIGNED is VARCHAR(11). The binder
// writes -u as 0 - u with a signed result (negateUnsigned); its text,
// from the SQL as written, starts with the minus, where 0 - u written
// so is a subtraction (result_precision: 11 digits, unsigned). 0 where x
// is no such negation. The width of -a for a signed a differs between
// MySQL releases (8.0 adds one for the sign, later ones do not), so it
// is left unknown.
func negWidth(x *Binary) int {
	c, ok := x.L.(*Const)
	if x.Op != OpSub || !ok || c.Null || c.I != 0 || x.T.Unsigned || !strings.HasPrefix(x.Text, "-") {
		return 0
	}
	r := bareInt(x.R)
	if !r.Type().Unsigned {
		return 0
	}
	if w := numberWidth(r); w > 0 {
		return w + 1
	}
	return 0
}

// intDivWidth is MySQL's display width of a DIV b for integers: the
// dividend's (Item_func_int_div: a DIV 2 of an INT is 11 characters, of
// an INT UNSIGNED 10). 0 where MySQL releases disagree: a constant
// dividend (8.0 counts 7 DIV 2 as 1 character, later releases as 2) or
// a signed dividend over an unsigned divisor (11 and 10).
func intDivWidth(x *Binary) int {
	l, r := bareInt(x.L), bareInt(x.R)
	if _, ok := l.(*Const); ok || !l.Type().IsInteger() || !r.Type().IsInteger() {
		return 0
	}
	if !l.Type().Unsigned && r.Type().Unsigned {
		return 0
	}
	return numberWidth(l)
}

// bareInt is e without the binder's own integer widenings (INT to
// BIGINT), which MySQL does not make: the operand keeps its width and
// sign.
func bareInt(e Expr) Expr {
	for {
		c, ok := e.(*Cast)
		if !ok || c.Written || !c.E.Type().IsInteger() || !c.T.IsInteger() {
			return e
		}
		e = c.E
	}
}
