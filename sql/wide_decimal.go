package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Wide DECIMAL: MySQL's DECIMAL(M,D) for 19 <= M <= 65, D <= 30, whose
// values are 256-bit words (internal/decimal) rather than a scaled int64.
// Narrow decimals keep the engine's int64 rules (coerce.go: results capped
// at 18 digits, so plans over them stay on the GPU) until a value leaves
// them: the engine then rebinds the statement with ExactDecimals (CPU).
// As soon as one operand is wide, or under ExactDecimals one is a DECIMAL,
// types follow MySQL's "Precision Math" chapter, capped at 65 digits and
// 30 fraction digits:
//
//	a + b, a - b   DECIMAL(max(p1-s1, p2-s2) + max(s1, s2) + 1, max(s1, s2))
//	a * b          DECIMAL(p1 + p2, s1 + s2)
//	a / b          DECIMAL(p1 - s1 + s2 + s1 + 4, s1 + 4)  (div_precision_increment 4)
//	a % b          DECIMAL(max(p1-s1, p2-s2) + max(s1, s2), max(s1, s2))
//	a DIV b        BIGINT (1690 when out of range)
//
// Integers count as DECIMAL(10,0) (INT), DECIMAL(19,0) (BIGINT) and
// DECIMAL(20,0) (BIGINT UNSIGNED). A result of more than 65 digits that
// does not fit is MySQL's error 1690 "DECIMAL value is out of range".

// decimalSpecError is MySQL's error for a DECIMAL(M,D) that cannot be
// declared as a column's type (name: the column; a CAST's are
// castDecimalSpecError's): 1426 for
// M > 65, 1425 for D > 30, 1427 for D > M. "" when the type is fine. A
// BIT(M) past 64 bits is 1439 (its M is a display width to MySQL).
func decimalSpecError(tp *types.FieldType, name string) (uint16, string) {
	if tp.GetType() == mysql.TypeBit && tp.GetFlen() > columnar.MaxBitWidth {
		return 1439, fmt.Sprintf("Display width out of range for column '%s' (max = %d)", name, columnar.MaxBitWidth)
	}
	if tp.GetType() != mysql.TypeNewDecimal {
		return 0, ""
	}
	p, s := tp.GetFlen(), tp.GetDecimal()
	switch {
	case p > decimal.MaxPrecision:
		return ErTooBigPrecision, fmt.Sprintf("Too-big precision %d specified for '%s'. Maximum is %d.", p, name, decimal.MaxPrecision)
	case s > decimal.MaxScale:
		return ErTooBigScale, fmt.Sprintf("Too big scale %d specified for column '%s'. Maximum is %d.", s, name, decimal.MaxScale)
	case p > 0 && s > p:
		return ErMBiggerThanD, fmt.Sprintf("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '%s').", name)
	}
	return 0, ""
}

// wideOperand is the DECIMAL type that holds every value of an exact
// numeric operand of wide arithmetic (integers as MySQL counts them).
func wideOperand(t columnar.Type) columnar.Type {
	switch {
	case t.IsBigUnsigned():
		return columnar.TDecimal(20, 0)
	case t.ID == columnar.Int64 && t.Unsigned:
		return columnar.TDecimal(10, 0)
	case t.ID == columnar.Int64:
		return columnar.TDecimal(19, 0)
	}
	return asDecimal(t)
}

// wideResult is DECIMAL(p,s) capped at MySQL's limits.
func wideResult(p, s int) columnar.Type {
	s = min(s, decimal.MaxScale)
	return columnar.TDecimal(min(max(p, s, 1), decimal.MaxPrecision), s)
}

// wideArith binds l op r where an operand is a wide DECIMAL, or with
// exact set a DECIMAL (handled false otherwise). Operands keep their own
// types; the executor reads each as a wide value at its own scale.
func wideArith(op BinOp, l, r Expr, lt, rt columnar.Type, exact bool) (Expr, bool) {
	if lt.ID == columnar.Float64 || rt.ID == columnar.Float64 {
		return nil, false
	}
	// BIGINT UNSIGNED with a DECIMAL, or divided, needs 20 integer digits:
	// wide too.
	bigUnsigned := (lt.IsBigUnsigned() || rt.IsBigUnsigned()) &&
		(lt.ID == columnar.Decimal || rt.ID == columnar.Decimal || op == OpDiv)
	// A quotient of integers is a DECIMAL too: of 9 fraction digits
	// (division_digits.go), past the int64 for a BIGINT's values.
	exactDecimal := exact && (lt.ID == columnar.Decimal || rt.ID == columnar.Decimal || op == OpDiv) && op != OpIntDiv
	if !lt.IsWide() && !rt.IsWide() && !bigUnsigned && !exactDecimal {
		return nil, false
	}
	dl, dr := wideOperand(lt), wideOperand(rt)
	il, ir := dl.Precision-dl.Scale, dr.Precision-dr.Scale
	var t columnar.Type
	switch op {
	case OpAdd, OpSub:
		t = wideResult(max(il, ir)+max(dl.Scale, dr.Scale)+1, max(dl.Scale, dr.Scale))
	case OpMul:
		t = wideResult(dl.Precision+dr.Precision, dl.Scale+dr.Scale)
	case OpDiv:
		s := DivisionScale(dl.Scale, dr.Scale) // division_digits.go
		t = wideResult(il+dr.Scale+s, s)
	case OpMod:
		t = wideResult(max(il, ir)+max(dl.Scale, dr.Scale), max(dl.Scale, dr.Scale))
	case OpIntDiv:
		t = columnar.TInt64
	default:
		return nil, false
	}
	if !lt.IsWide() && !rt.IsWide() && !bigUnsigned && !t.IsWide() {
		return nil, false // 18 digits or fewer: the int64 rules hold it
	}
	return &Binary{Op: op, L: castTo(l, lt), R: castTo(r, rt), T: t}, true
}

// commonWide is the type two numeric types compare or unite in when one is
// a wide DECIMAL: every integer digit and every fraction digit of both.
func commonWide(a, b columnar.Type) columnar.Type {
	da, db := wideOperand(a), wideOperand(b)
	s := max(da.Scale, db.Scale)
	return wideResult(max(da.Precision-da.Scale, db.Precision-db.Scale)+s, s)
}

// wideLiteral types a decimal literal of more than 18 digits (or an
// integer literal past 2^64-1) as MySQL does: DECIMAL(digits, fraction
// digits), exact up to 65 digits; ok is false past that (MySQL makes it a
// DOUBLE).
func wideLiteral(s string, prec, scale int) (*Const, bool) {
	if prec > decimal.MaxPrecision || scale > decimal.MaxScale {
		return nil, false
	}
	v, _, err := decimal.Parse(s, scale)
	if err != nil {
		return nil, false
	}
	return &Const{T: columnar.TDecimal(max(prec, decimal.NarrowPrecision+1), scale), W: v}, true
}

// constWide reads a numeric constant as an unscaled wide value at its own
// scale; ok is false for other types.
func constWide(c *Const) (decimal.Num, int, bool) {
	switch {
	case c.T.IsWide():
		return c.W, c.T.Scale, true
	case c.T.IsBigUnsigned():
		return decimal.FromUint64(uint64(c.I)), 0, true
	case c.T.ID == columnar.Decimal:
		return decimal.FromInt64(c.I), c.T.Scale, true
	case c.T.ID == columnar.Int32, c.T.ID == columnar.Int64, c.T.ID == columnar.Bool:
		return decimal.FromInt64(c.I), 0, true
	}
	return decimal.Num{}, 0, false
}

// convertWideConst is convertConst where t or c's type is a wide DECIMAL.
func convertWideConst(c *Const, t columnar.Type) (*Const, bool) {
	out := &Const{T: t}
	if t.IsWide() {
		v, ok := constToWide(c, t.Scale)
		if !ok || !decimal.Fits(v, t.Precision) {
			return nil, false
		}
		out.W = v
		return out, true
	}
	v, s := c.W, c.T.Scale
	switch {
	case t.ID == columnar.String:
		out.S = decimal.Format(v, s)
	case t.ID == columnar.Float64:
		out.F = decimal.Float64(v, s)
	case t.IsBigUnsigned():
		r, _ := decimal.Rescale(v, s, 0)
		u, ok := decimal.Uint64(r)
		out.I = int64(u)
		return out, ok
	case t.ID == columnar.Int32, t.ID == columnar.Int64, t.ID == columnar.Bool:
		r, _ := decimal.Rescale(v, s, 0)
		n, ok := decimal.Int64(r)
		if t.ID == columnar.Bool {
			n, ok = int64(b2i(v.Sign() != 0)), true
		} else if lo, hi, bounded := t.IntBounds(); bounded && (n < lo || n > hi) {
			ok = false
		}
		out.I = n
		return out, ok
	case t.ID == columnar.Decimal:
		r, _ := decimal.Rescale(v, s, t.Scale)
		n, ok := decimal.Int64(r)
		out.I = n
		return out, ok && fitsPrecision(n, t.Precision)
	default:
		return nil, false
	}
	return out, true
}

// constToWide converts a constant to an unscaled wide value at scale s.
func constToWide(c *Const, s int) (decimal.Num, bool) {
	if v, from, ok := constWide(c); ok {
		return decimal.Rescale(v, from, s)
	}
	switch c.T.ID {
	case columnar.Float64:
		return decimal.FromFloat64(c.F, s)
	case columnar.String:
		if c.hex {
			n, ok := hexInt(c.S)
			if !ok {
				return decimal.Num{}, false
			}
			return decimal.Rescale(decimal.FromInt64(n), 0, s)
		}
		v, _, err := decimal.Parse(strings.TrimSpace(c.S), s)
		return v, err == nil
	}
	return decimal.Num{}, false
}

// wideSumType is MySQL's type of SUM or AVG of t where it is a wide
// DECIMAL: SUM(DECIMAL(M,D)) is DECIMAL(min(M+22, 65), D), SUM of an
// integer DECIMAL(41,0), AVG adds div_precision_increment (4) to the
// scale and 4 digits. A wide argument and BIGINT UNSIGNED always get it.
// Other integer and narrow DECIMAL arguments keep the engine's int64
// sums (BIGINT, DECIMAL(18,s): the GPU computes them, and values agree
// with MySQL's) unless exact is set: the engine rebinds a statement so
// when such a sum overflowed (Parsed.ExactDecimals), and the CPU then sums in
// 256 bits.
func wideSumType(f AggFunc, t columnar.Type, exact bool) (columnar.Type, bool) {
	if !t.IsWide() && !t.IsBigUnsigned() && !exact {
		return columnar.Type{}, false
	}
	digits, scale, ok := exactDigits(t)
	if !ok {
		return columnar.Type{}, false
	}
	if f == AggSum {
		return wideResult(digits+22, scale), true
	}
	return wideResult(digits+4, DivisionScale(scale, 0)), true
}

// wideCommonType is the type a wide DECIMAL and another number compare or
// unite in (ok false unless one side is wide and both are exact numbers).
func wideCommonType(a, b columnar.Type) (columnar.Type, bool) {
	if !a.IsWide() && !b.IsWide() {
		return columnar.Type{}, false
	}
	exact := func(t columnar.Type) bool { return t.ID == columnar.Decimal || t.IsInteger() || t.ID == columnar.Bool }
	if !exact(a) || !exact(b) {
		return columnar.Type{}, false
	}
	return commonWide(a, b), true
}

// wideStoreType is what a computed value of type from stored into a
// wide DECIMAL column t is cast to: the column's scale at full precision,
// so that the engine's store names the column and row of a value that
// does not fit; a DOUBLE's at 76 digits, for one past 65 (1e70, which a
// cast to DECIMAL(65,2) would make NULL).
func wideStoreType(from, t columnar.Type) columnar.Type {
	if from.ID == columnar.Float64 {
		return columnar.TDecimal(decimal.CarryPrecision, t.Scale)
	}
	return columnar.TDecimal(decimal.MaxPrecision, t.Scale)
}

// wideStoreOutOfRange is storeOutOfRange where the column or the constant
// is a wide DECIMAL (handled false otherwise): a number with more integer
// digits than the column holds is MySQL's 1264.
func wideStoreOutOfRange(c *Const, t columnar.Type) (outOfRange, handled bool) {
	if c.Null || !t.IsWide() && !c.T.IsWide() {
		return false, false
	}
	if c.T.ID == columnar.String && !c.hex {
		if _, _, err := decimal.Parse(strings.TrimSpace(c.S), 0); err != nil {
			return false, true // not a number: convertConst's error
		}
	}
	if t.IsWide() {
		v, ok := constToWide(c, t.Scale)
		return ok && !decimal.Fits(v, t.Precision), true
	}
	if t.IsInteger() || t.ID == columnar.Decimal {
		_, ok := convertWideConst(c, t)
		return !ok, true
	}
	return false, true
}

// decimalRounded reports a constant stored into a DECIMAL column (as v)
// whose fraction digits the column's scale dropped: MySQL notes 1265
// then ("a note is generated", Precision Math). Both are compared at the
// largest scale.
func decimalRounded(c, v *Const) bool {
	if c.Null || v.Null || v.T.ID != columnar.Decimal || c.T.ID == columnar.Decimal && c.T.Scale <= v.T.Scale {
		return false
	}
	if c.T.IsInteger() || c.T.ID == columnar.Bool {
		return false
	}
	x, ok := constToWide(c, decimal.MaxScale)
	y, ok2 := constToWide(v, decimal.MaxScale)
	return ok && ok2 && decimal.Cmp(x, y) != 0
}

// dataTruncated is MySQL's note 1265 for column name at row (1-based).
func dataTruncated(name string, row int) Warning {
	return Warning{Level: "Note", Code: NoteDataTruncated, Message: fmt.Sprintf("Data truncated for column '%s' at row %d", name, row)}
}
