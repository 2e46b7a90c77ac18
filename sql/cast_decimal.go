package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/types"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// DecimalClip is the function CAST(x AS DECIMAL(M,D)) binds to where x may
// need more than M-D integer digits: MySQL's Item_typecast_decimal rounds
// x to D digits (half away from zero) and, where the result still does not
// fit, gives the largest value of the type (±99.99 for DECIMAL(4,2)) with
// warning 1264 "Out of range value for column 'CAST(x AS DECIMAL(4,2))' at
// row 1". Args: x already cast to a DECIMAL of scale D wide enough for
// its values, and the CAST's text (a string constant) the warning quotes.
// A plain Cast would keep every digit: it is also how columns and
// operands are brought to a common type, where nothing is clipped.
const DecimalClip = "decimal_clip"

// clipHeadroom is the precision a value travels to DecimalClip in when it
// is wide: the 76 digits a 256-bit word holds, past MySQL's 65, so that
// CAST(1e35 AS DECIMAL(65,30)) (66 digits) reaches the clip, not NULL.
const clipHeadroom = 76

// castDecimal binds CAST(e AS DECIMAL(t.Precision, t.Scale)). A value of
// e that always fits is a plain cast (which the GPU computes); otherwise
// the rounded value travels in a DECIMAL(18,D), or where e is a wide
// DECIMAL, or the statement is rebound after such a value overflowed the
// int64 (exactDecimals), in a DECIMAL(76,D), and DecimalClip clips it.
func (b *binder) castDecimal(e Expr, t columnar.Type, pos int) Expr {
	if isNullConst(e) || intDigits(e.Type(), t.Scale) <= t.Precision-t.Scale {
		x := castTo(e, t)
		switch c := x.(type) {
		case *Cast:
			x = &Cast{E: c.E, T: c.T, Written: true}
		case *Const:
			// A folded CAST shows every digit of its type, not the
			// literal's (keepWritten is for the binder's own casts):
			// CAST(1 AS DECIMAL(18,2)) / 3 is 0.333333, scale 2 + 4.
			shown := *c
			shown.written = 0
			x = &shown
		}
		return x
	}
	mid := columnar.TDecimal(decimal.NarrowPrecision, t.Scale)
	if b.exactDecimals || e.Type().IsWide() || t.IsWide() {
		mid = columnar.TDecimal(clipHeadroom, t.Scale)
	}
	// MySQL's warning quotes the item's name, which only a select item
	// has (clipNamed gives it): a CAST inside an expression or a clause
	// prints as my_vsnprintf prints a NULL string.
	name := &Const{T: columnar.TString, S: unnamedItem}
	return &Func{Name: DecimalClip, Args: []Expr{castTo(e, mid), name}, T: t}
}

// intDigits is the most integer digits a value of type t has once rounded
// to scale digits, 66 where any number may come (strings, doubles, dates).
func intDigits(t columnar.Type, scale int) int {
	switch {
	case t.ID == columnar.Bool:
		return 1
	case t.ID == columnar.Decimal:
		carry := 0
		if t.Scale > scale {
			carry = 1 // 9.995 rounds to 10.00
		}
		return t.Precision - t.Scale + carry
	case t.Year:
		return 4
	case t.IsBigUnsigned():
		return 20
	case t.ID == columnar.Int64:
		if _, hi, ok := t.IntBounds(); ok {
			return len(fmt.Sprint(hi))
		}
		return 19
	case t.ID == columnar.Int32:
		lo, _, _ := t.IntBounds()
		return len(fmt.Sprint(-lo)) // -2147483648 has as many digits as its magnitude
	}
	return decimal.MaxPrecision + 1
}

// callText is the text of the function call that starts at pos (up to its
// closing parenthesis, quoted strings skipped), as MySQL names a select
// item by what was written.
func (b *binder) callText(pos int) string {
	if pos < b.start || pos >= b.end {
		return ""
	}
	src := b.src[pos:b.end]
	depth := 0
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return src[:i+1]
			}
		}
	}
	return strings.TrimSpace(src)
}

// castDecimalSpecError is MySQL's error for CAST(x AS DECIMAL(M,D)) of a
// type it cannot take, in MySQL's order (validate_cast_type_and_extract_length):
// D > M first (1427, naming no column), then M > 65 (1426) and D > 30 (1425),
// which name the CAST as written.
func (b *binder) castDecimalSpecError(tp *types.FieldType, pos int) error {
	m, d := tp.GetFlen(), tp.GetDecimal()
	switch {
	case m > 0 && d > m:
		return b.errCode(pos, ErMBiggerThanD, "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '%s').", "")
	case m > decimal.MaxPrecision:
		return b.errCode(pos, ErTooBigPrecision, "Too-big precision %d specified for '%s'. Maximum is %d.", m, b.callText(pos), decimal.MaxPrecision)
	case d > decimal.MaxScale:
		return b.errCode(pos, ErTooBigScale, "Too big scale %d specified for column '%s'. Maximum is %d.", d, b.callText(pos), decimal.MaxScale)
	}
	return nil
}

// unnamedItem is the name MySQL's warning 1264 gives a CAST that is no
// select item: Item_typecast_decimal quotes its item_name, which is NULL
// there ("Out of range value for column '(null)' at row 1").
const unnamedItem = "(null)"

// clipNamed is e, a select item, with a DecimalClip at its top naming the
// item in its warning: its alias or its text as written, MySQL's item
// name (Out of range value for column 'x' at row 1).
func clipNamed(e Expr, alias string) Expr {
	f, ok := e.(*Func)
	if !ok || f.Name != DecimalClip || len(f.Args) != 2 {
		return e
	}
	named := *f
	named.Args = []Expr{f.Args[0], &Const{T: columnar.TString, S: alias}}
	return &named
}
