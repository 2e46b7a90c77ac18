package sql

import (
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// MySQL's operators over unsigned integers:
//
//   - + - * DIV of two integers of which one is unsigned give BIGINT
//     UNSIGNED; a result below 0 or past 2^64-1 is "BIGINT UNSIGNED value
//     is out of range in '(a - b)'" — so 1 - CAST(2 AS UNSIGNED) is an
//     error — except that under sql_mode NO_UNSIGNED_SUBTRACTION a
//     difference is a signed BIGINT. % is unsigned when its left operand
//     is. The binder types them so (Binary with T unsigned); the executor
//     computes them exactly with the operands' signedness
//     (exec/cpu/expr_unsigned.go).
//   - A comparison with a BIGINT UNSIGNED side compares values, not bit
//     patterns: -1 < 18446744073709551615. Against another integer it binds
//     as ucompare(l, r) op 0, which the executor evaluates by both
//     operands' types; against a DOUBLE, DECIMAL or string it compares as
//     DOUBLE.
//   - '/' and DECIMAL arithmetic with a BIGINT UNSIGNED operand are refused:
//     gpusql's DECIMAL holds 18 digits, and MySQL's answer needs 20.

// UnsignedCompare is the function a comparison with a BIGINT UNSIGNED side
// binds to: -1, 0 or 1 as l is below, equal to or above r.
const UnsignedCompare = "ucompare"

func init() { moreFuncs[UnsignedCompare] = true }

// isIntegerOperand reports a type unsigned arithmetic takes as it is:
// the integers and BOOLEAN.
func isIntegerOperand(t columnar.Type) bool {
	return t.ID == columnar.Int32 || t.ID == columnar.Int64 || t.ID == columnar.Bool
}

// signedOrUnsigned brings an integer operand to 64 bits, keeping its
// signedness: INT and BOOLEAN become BIGINT, unsigned types stay.
func signedOrUnsigned(e Expr) Expr {
	if e.Type().Unsigned {
		return e
	}
	return castTo(e, columnar.TInt64)
}

// unsignedCompare binds l op r where a side is BIGINT UNSIGNED; handled is
// false where neither is (or one is NULL), for the ordinary rules.
func (b *binder) unsignedCompare(op BinOp, l, r Expr) (e Expr, handled bool) {
	lt, rt := l.Type(), r.Type()
	if !lt.IsBigUnsigned() && !rt.IsBigUnsigned() || isNullConst(l) || isNullConst(r) {
		return nil, false
	}
	l, r = integerConstOperand(l), integerConstOperand(r)
	if op == OpEQ || op == OpNE {
		// Two unsigned sides are equal exactly when their bits are: an
		// ordinary comparison, which hash joins and zone maps can use.
		lu, lok := unsignedOperand(l)
		ru, rok := unsignedOperand(r)
		if lok && rok {
			return &Binary{Op: op, L: castTo(lu, columnar.TUint64), R: castTo(ru, columnar.TUint64), T: columnar.TBool}, true
		}
	}
	lt, rt = l.Type(), r.Type()
	if isIntegerOperand(lt) && isIntegerOperand(rt) {
		cmp := &Func{Name: UnsignedCompare, Args: []Expr{signedOrUnsigned(l), signedOrUnsigned(r)}, T: columnar.TInt32}
		return &Binary{Op: op, L: cmp, R: &Const{T: columnar.TInt32}, T: columnar.TBool}, true
	}
	if _, lok := numericType(lt); !lok {
		return nil, false
	}
	if _, rok := numericType(rt); !rok {
		return nil, false
	}
	return &Binary{Op: op, L: castTo(l, columnar.TFloat64), R: castTo(r, columnar.TFloat64), T: columnar.TBool}, true
}

// integerConstOperand turns a string or DOUBLE constant that is exactly an
// integer ('18446744073709551615', 5e0) into that integer, so that it
// compares with a BIGINT UNSIGNED column exactly; other expressions are
// returned as they are.
func integerConstOperand(e Expr) Expr {
	c, ok := e.(*Const)
	if !ok || c.Null || c.T.ID != columnar.String && c.T.ID != columnar.Float64 {
		return e
	}
	for _, t := range []columnar.Type{columnar.TInt64, columnar.TUint64} {
		v, ok := convertConst(c, t)
		if !ok || v.Null {
			continue
		}
		back, ok := convertConst(v, c.T)
		if ok && (c.T.ID == columnar.Float64 && back.F == c.F || c.T.ID == columnar.String && constString(v) == strings.TrimSpace(c.S)) {
			return v
		}
	}
	return e
}

// unsignedArith binds l op r where an integer operand is unsigned;
// handled is false for the ordinary rules (no unsigned operand, or a
// DOUBLE one, which makes the operation DOUBLE).
func (b *binder) unsignedArith(op BinOp, l, r Expr, lt, rt columnar.Type, pos int) (e Expr, handled bool, err error) {
	if !lt.Unsigned && !rt.Unsigned || lt.ID == columnar.Float64 || rt.ID == columnar.Float64 {
		return nil, false, nil
	}
	big := lt.IsBigUnsigned() || rt.IsBigUnsigned()
	if op == OpDiv || lt.ID == columnar.Decimal || rt.ID == columnar.Decimal {
		if big {
			return nil, true, b.errf(pos, "unsupported: BIGINT UNSIGNED with %s (gpusql's DECIMAL holds 18 digits; CAST the operand AS DOUBLE or AS SIGNED)", opWord(op))
		}
		return nil, false, nil // INT UNSIGNED values are exact as DECIMAL(18)
	}
	if !isIntegerOperand(lt) || !isIntegerOperand(rt) {
		return nil, false, nil
	}
	t := columnar.TUint64
	switch {
	case op == OpSub && b.session != nil && b.session.hasMode("NO_UNSIGNED_SUBTRACTION"):
		t = columnar.TInt64
	case op == OpMod && !lt.Unsigned:
		t = columnar.TInt64
	}
	return &Binary{Op: op, L: signedOrUnsigned(l), R: signedOrUnsigned(r), T: t}, true, nil
}

// opWord names what made unsignedArith refuse.
func opWord(op BinOp) string {
	if op == OpDiv {
		return "'/'"
	}
	return "DECIMAL"
}

// negateUnsigned binds -e for an unsigned e: a signed BIGINT, computed as
// 0 - e with BIGINT's range check (-x of x above 2^63 is out of range).
func negateUnsigned(e Expr) Expr {
	if c, ok := e.(*Const); ok && !c.Null && c.T.IsBigUnsigned() {
		u := uint64(c.I)
		switch {
		case u <= 1<<63:
			return intConst(int64(-u))
		default: // MySQL's Item_func_neg makes it a DECIMAL (resolve_type)
			return decimalLiteral("-" + strconv.FormatUint(u, 10))
		}
	}
	return &Binary{Op: OpSub, L: &Const{T: columnar.TInt64}, R: e, T: columnar.TInt64}
}

// unsignedInList binds e [NOT] IN (items) where a side is BIGINT UNSIGNED
// as the OR of the comparisons e = item (unsignedCompare), which is what
// IN means in three-valued logic too: one common type would turn -1 into
// 18446744073709551615 or the other way round.
func (b *binder) unsignedInList(e Expr, items []Expr, negated bool) (Expr, bool) {
	big := e.Type().IsBigUnsigned()
	for _, it := range items {
		big = big || it.Type().IsBigUnsigned()
	}
	if !big {
		return nil, false
	}
	var or Expr
	for _, it := range items {
		eq, ok := b.unsignedCompare(OpEQ, e, it)
		if !ok { // a NULL item (or a side of no numeric type)
			t, err := compareType(e, it)
			if err != nil {
				return nil, false
			}
			eq = &Binary{Op: OpEQ, L: castTo(e, t), R: castTo(it, t), T: columnar.TBool}
		}
		if or == nil {
			or = eq
		} else {
			or = &Binary{Op: OpOr, L: or, R: eq, T: columnar.TBool}
		}
	}
	if negated {
		return &Not{E: or}, true
	}
	return or, true
}

// anyBigUnsigned reports whether an expression of es is BIGINT UNSIGNED.
func anyBigUnsigned(es []Expr) bool {
	for _, e := range es {
		if e.Type().IsBigUnsigned() {
			return true
		}
	}
	return false
}

// isNonNegativeIntConst reports a signed integer constant of 0 or more.
func isNonNegativeIntConst(e Expr) bool {
	c, ok := e.(*Const)
	return ok && !c.Null && (c.T.ID == columnar.Int32 || c.T.ID == columnar.Int64) && !c.T.Unsigned && c.I >= 0
}

// unsignedUnionType is unionType where a side is unsigned: two unsigned
// integers give the wider; INT UNSIGNED with a signed integer BIGINT (its
// values are exact there); BIGINT UNSIGNED with a signed integer or a
// DECIMAL has no common type in gpusql (MySQL's is DECIMAL(20)) and is an
// error. ok is false where neither side is unsigned, or the other side is
// not an integer or DECIMAL (DOUBLE, strings and dates follow the
// ordinary rules).
func unsignedUnionType(a, b columnar.Type) (t columnar.Type, ok bool, err error) {
	if !a.Unsigned && !b.Unsigned {
		return t, false, nil
	}
	exact := func(x columnar.Type) bool { return isIntegerOperand(x) || x.ID == columnar.Decimal }
	if !exact(a) || !exact(b) {
		return t, false, nil
	}
	switch {
	case a.Unsigned && b.Unsigned:
		if a.IsBigUnsigned() {
			return a, true, nil
		}
		return widerInteger(a, b), true, nil
	case a.IsBigUnsigned() || b.IsBigUnsigned():
		return commonWide(a, b), true, nil // MySQL: DECIMAL(20,0) with a signed integer
	case a.ID == columnar.Decimal || b.ID == columnar.Decimal:
		return t, false, nil // INT UNSIGNED fits DECIMAL(18,0)
	}
	return columnar.TInt64, true, nil
}

// wholeUnsigned binds ROUND / TRUNCATE of a BIGINT UNSIGNED x to d digits:
// a whole number keeps itself for d ≥ 0; to tens or more it is computed
// as MySQL's DECIMAL(21,0) (ROUND(18446744073709551615, -1) is
// 18446744073709551620, past 2^64-1), a wide DECIMAL.
func (b *binder) wholeUnsigned(name string, x Expr, d int64, pos int) (Expr, error) {
	if d >= 0 {
		return x, nil
	}
	t := wideResult(21, 0)
	return &Func{Name: name, Args: []Expr{castTo(x, t), &Const{T: columnar.TInt64, I: d}}, T: t}, nil
}

// unsignedOperand is e as an unsigned operand: an unsigned expression, or
// a non-negative integer constant retyped BIGINT UNSIGNED; ok is false
// for anything else.
func unsignedOperand(e Expr) (Expr, bool) {
	if e.Type().Unsigned {
		return e, true
	}
	if isNonNegativeIntConst(e) {
		c := e.(*Const)
		return &Const{T: columnar.TUint64, I: c.I}, true
	}
	return nil, false
}

// unsignedCompareType is compareType where a side is BIGINT UNSIGNED and
// the comparison reaches it without unsignedCompare (IN and ANY/ALL
// subqueries, which compare in one type): with another unsigned side, or
// a non-negative integer constant, the type is BIGINT UNSIGNED; with a
// signed integer it is DECIMAL(20,0), which holds both exactly, so -1
// never meets 18446744073709551615 and a value past 2^63-1 is greater
// than every signed one (MySQL compares the two by value). ok is false
// otherwise.
func unsignedCompareType(l, r Expr) (t columnar.Type, ok bool, err error) {
	a, b := l.Type(), r.Type()
	if !a.IsBigUnsigned() && !b.IsBigUnsigned() {
		return t, false, nil
	}
	_, lok := unsignedOperand(l)
	_, rok := unsignedOperand(r)
	switch {
	case lok && rok:
		return columnar.TUint64, true, nil
	case isIntegerOperand(a) && isIntegerOperand(b):
		return commonWide(a, b), true, nil
	}
	return t, false, nil
}
