package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// Unsigned integers (MySQL semantics). INT UNSIGNED (TINYINT to INT
// UNSIGNED) holds 0..2^32-1 in an int64, where signed arithmetic is exact;
// BIGINT UNSIGNED holds 0..2^64-1 as uint64 bit patterns in an int64, so
// every operation that orders, adds or prints its values reads them by
// the type (see columnar.Type.Unsigned):
//
//   - A literal above 2^63-1 (18446744073709551615) is BIGINT UNSIGNED.
//   - CAST(x AS UNSIGNED) and CAST(x AS SIGNED) keep the 64 bits:
//     CAST(-1 AS UNSIGNED) is 18446744073709551615, and back is -1.
//   - Storing a value outside the column's range (a negative number into
//     an unsigned column, 2^63 or more into BIGINT) is MySQL's strict-mode
//     error "Out of range value for column 'c' at row n".

// unsignedLiteral types an integer literal above 2^63-1.
func unsignedLiteral(u uint64) *Const {
	return &Const{T: columnar.TUint64, I: int64(u)}
}

// constUint is a constant's value as a non-negative whole number (rounded
// as a store rounds), ok false for NULL, a negative value or one past
// 2^64-1; fromNeg reports a value below zero.
func constUint(c *Const) (u uint64, ok, neg bool) {
	switch c.T.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		if c.T.IsBigUnsigned() {
			return uint64(c.I), true, false
		}
		return uint64(c.I), c.I >= 0, c.I < 0
	case columnar.Decimal:
		v := roundScaled(c.I, c.T.Scale, 0)
		return uint64(v), v >= 0, v < 0
	case columnar.Float64:
		f := math.RoundToEven(c.F) // DoubleToInt's rounding
		if math.IsNaN(f) || f < 0 || f >= 18446744073709551616.0 {
			return 0, false, f < 0
		}
		return uint64(f), true, false
	case columnar.String:
		s := strings.TrimSpace(c.S)
		if c.hex {
			if v, ok := hexUint(c.S); ok {
				return v, true, false
			}
			return 0, false, false
		}
		if u, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64); err == nil {
			return u, true, false
		}
		if v, ok := parseIntPrefix(s); ok {
			return uint64(v), v >= 0, v < 0
		}
	}
	return 0, false, false
}

// hexUint is a hex literal's value as an unsigned 64-bit number.
func hexUint(s string) (uint64, bool) {
	if len(strings.TrimLeft(s, "\x00")) > 8 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		v = v<<8 | uint64(s[i])
	}
	return v, true
}

// storeOutOfRange reports a constant an integer column of type t cannot
// hold: a negative or too large value for an unsigned column, a BIGINT
// UNSIGNED value above 2^63-1 for a signed one. (Other range checks are
// convertConst's.)
func storeOutOfRange(c *Const, t columnar.Type) bool {
	if wide, handled := wideStoreOutOfRange(c, t); handled {
		return wide
	}
	if t.ID == columnar.Float64 && !c.Null {
		_, out := clipFloatStore(c, t)
		return out
	}
	if c.Null || t.ID != columnar.Int64 && t.ID != columnar.Int32 {
		return false
	}
	if t.Unsigned {
		if c.T.ID == columnar.String && !c.hex && !strictOK(c, &Const{T: columnar.TInt64}) {
			return false // not a number: convertConst's error
		}
		u, ok, _ := constUint(c)
		return !ok || u > t.UnsignedMax()
	}
	if c.T.IsBigUnsigned() && c.I < 0 {
		return true
	}
	return narrowOutOfRange(c, t)
}

// narrowOutOfRange reports a number constant past a TINYINT, SMALLINT or
// MEDIUMINT column's range (INT's own overflow keeps convertConst's error).
func narrowOutOfRange(c *Const, t columnar.Type) bool {
	if !t.IsNarrowInt() || c.T.ID == columnar.String && !c.hex && !strictOK(c, &Const{T: columnar.TInt64}) {
		return false
	}
	v, ok := convertConst(c, columnar.TInt64)
	lo, hi, _ := t.IntBounds()
	return ok && (v.I < lo || v.I > hi)
}

// convertUnsignedConst is convertConst where t is unsigned or c is a
// BIGINT UNSIGNED value of 2^63 or more; handled is false where the
// ordinary conversion is right (an in-range value to a signed type).
func convertUnsignedConst(c *Const, t columnar.Type) (out *Const, ok, handled bool) {
	if t.Unsigned {
		u, fits, neg := constUint(c)
		if c.T.ID == columnar.Float64 && neg && !math.IsNaN(c.F) && c.F > -9.2e18 {
			u, fits = uint64(DoubleToInt(c.F)), true // the bits, as CAST does
		}
		if !fits && !neg || u > t.UnsignedMax() {
			return nil, false, true
		}
		return &Const{T: t, I: int64(u)}, true, true
	}
	if !c.T.IsBigUnsigned() || c.I >= 0 {
		return nil, false, false
	}
	u := uint64(c.I)
	switch t.ID {
	case columnar.Int64: // CAST(... AS SIGNED): the same bits
		return &Const{T: t, I: c.I}, true, true
	case columnar.Float64:
		return &Const{T: t, F: float64(u)}, true, true
	case columnar.Bool:
		return &Const{T: t, I: 1}, true, true
	case columnar.String:
		return &Const{T: t, S: strconv.FormatUint(u, 10)}, true, true
	}
	return nil, false, true // past INT, DECIMAL(18) and DATE
}

// crossesSignedness reports a store of a from value into an integer
// column of type to that needs the engine's range check rather than a
// cast (which keeps the bits: CAST(-1 AS UNSIGNED)): into an unsigned
// column from anything but the same type, or a BIGINT UNSIGNED value into
// a signed integer column.
func crossesSignedness(from, to columnar.Type) bool {
	switch {
	case to.Unsigned:
		return !sameType(from, to) && from.ID != columnar.Vector && from.ID != columnar.Date && from.ID != columnar.Datetime
	case to.ID == columnar.Int32 || to.ID == columnar.Int64:
		return from.IsBigUnsigned()
	}
	return false
}

// storeIntegerType is the type a value crossing signedness reaches the
// engine as: unsigned values as they are, everything else as BIGINT
// (decimals and doubles rounded, strings parsed), which the engine
// range-checks against the column.
func storeIntegerType(from columnar.Type) columnar.Type {
	if from.Unsigned || from.IsWide() || from.ID == columnar.Float64 {
		// A DECIMAL of more than 18 digits or a DOUBLE stays one: its cast
		// to BIGINT is NULL (or -2^63 for 1e300) past 2^63, which would
		// store NULL where MySQL stores 18446744073709551608 into BIGINT
		// UNSIGNED, or -128 where non-strict MySQL clips 1e300 to 127.
		return from
	}
	return columnar.TInt64
}

// narrowsInteger reports a store of a from value into an integer column
// of type to whose range is narrower than from's: INT into TINYINT, BIGINT
// into INT, a DOUBLE or DECIMAL into either, a string into TINYINT. Such a
// value reaches the engine as BIGINT (storeIntegerType) for its range
// check, as a crossing of signedness does: a cast to the column's int32
// would wrap 5000000000 to 705032704 and keep 300 in a TINYINT.
func narrowsInteger(from, to columnar.Type) bool {
	lo, hi, ok := to.IntBounds()
	if !ok {
		return false
	}
	switch {
	case from.Year:
		return hi < 2155
	case from.ID == columnar.Int32, from.ID == columnar.Int64:
		flo, fhi, fok := from.IntBounds()
		return !fok || flo < lo || fhi > hi
	case from.ID == columnar.Decimal, from.ID == columnar.Float64:
		return true
	case from.ID == columnar.Bool, from.ID == columnar.Vector:
		return false
	}
	return to.Width != 0 && to.Width < 32 // strings, dates: INT keeps its cast
}

// storeNeedsRangeCheck reports a store the engine range-checks, the value
// reaching it as storeIntegerType.
func storeNeedsRangeCheck(from, to columnar.Type) bool {
	return crossesSignedness(from, to) || narrowsInteger(from, to)
}

// storeIntegerSource is storeCast's rule for such a store.
func storeIntegerSource(e Expr, t columnar.Type) (Expr, bool) {
	if !storeNeedsRangeCheck(e.Type(), t) {
		return nil, false
	}
	return castTo(e, storeIntegerType(e.Type())), true
}

// unsignedValuesSchema types the VALUES columns whose rows reach an
// integer column as BIGINT for the engine's range check (storeIntegerSource)
// alongside constants already checked and converted to the column type:
// those constants are retyped to the expressions' type. Expressions of
// both signednesses, or a constant whose bits read differently in the
// other, have no common type and are refused.
func unsignedValuesSchema(v *Values, cols []Column) error {
	for i, c := range cols {
		if !v.Out[i].Type.Unsigned && !(c.Type.ID == columnar.Int64 || c.Type.ID == columnar.Int32) {
			continue
		}
		var first columnar.Type
		mixed := false
		for _, row := range v.Rows {
			if i >= len(row) || row[i] == nil {
				continue
			}
			if _, isConst := row[i].(*Const); isConst {
				continue
			}
			t := row[i].Type()
			if first.ID == 0 {
				first = t
			} else if !sameType(first, t) {
				mixed = true
			}
		}
		if first.ID == 0 || first.ID == columnar.String || sameType(first, c.Type) && !narrowsInteger(first, c.Type) {
			continue // (text: the engine reads every row's, StoresText)
		}
		refuse := fmt.Errorf("unsupported: VALUES rows of different signedness for column '%s' %s (insert them in separate statements)", c.Name, c.Type)
		if mixed {
			return refuse
		}
		for _, row := range v.Rows {
			k, ok := row[i].(*Const)
			if !ok || k.Null {
				continue
			}
			if k.T.Unsigned != first.Unsigned && k.I < 0 {
				return refuse // -1 or 2^63 and more: not the same bits in both
			}
			row[i] = &Const{T: first, I: k.I}
		}
		v.Out[i].Type = first
	}
	return nil
}

// OutOfRangeStore is strict mode's error for number value that column col
// of type t cannot hold at row (1-based): 1264 Out of range value, or for
// a BIT(M) column 1406 Data too long, which Field_bit::store reports in
// strict mode (outside it 1264, with 2^M-1 stored).
func OutOfRangeStore(t columnar.Type, col string, row int, value string) *Error {
	err := Errorf(ErWarnDataOutOfRange, "Out of range value for column '%s' at row %d", col, row)
	if t.Bit > 0 {
		err = Errorf(ErDataTooLong, "Data too long for column '%s' at row %d", col, row)
	}
	err.Detail = fmt.Sprintf("%s does not hold %s", t, value)
	return err
}

// clipFloatStore is number constant c as FLOAT, FLOAT(M,D) or DOUBLE(M,D)
// t stores it outside strict mode, and whether it was past t's range
// (Field_real::truncate): FLT_MAX for FLOAT, 10^(M-D) - 10^-D for (M,D),
// compared after rounding to D decimals; past it is the bound, 1264 (a
// store into FLOAT was +-Inf).
func clipFloatStore(c *Const, t columnar.Type) (float64, bool) {
	if c.T.ID == columnar.String || !t.RoundsStore() {
		return 0, false
	}
	f, _, _ := constNumber(c)
	return ClipFloat(t, f)
}

// ClipFloat is f as FLOAT / (M,D) type t stores it outside strict mode, and
// whether it was past t's range (clipFloatStore).
func ClipFloat(t columnar.Type, f float64) (float64, bool) {
	max := math.Inf(1)
	if t.Single {
		max = math.MaxFloat32
	}
	if t.Precision > 0 {
		max = math.Min(max, math.Pow10(t.Precision-t.Scale)-math.Pow10(-t.Scale))
	}
	r := f
	if t.Precision > 0 {
		p := math.Pow10(t.Scale)
		r = math.Round(f*p) / p
	}
	switch {
	case r > max:
		return max, true
	case r < -max:
		return -max, true
	}
	return f, false
}
