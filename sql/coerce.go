package sql

import (
	"errors"
	"fmt"
	"gpusql/internal/decimal"
	"math"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// Type rules (MySQL semantics, 64-bit engine):
//
//   - Integer literals are INT when they fit in 32 bits, else BIGINT; a
//     literal above 2^63-1 is BIGINT UNSIGNED (see unsigned.go). Decimal literals (1.25) are
//     DECIMAL(digits, fraction digits) — DOUBLE when more than 18 digits;
//     exponent literals (1e3) are DOUBLE; TRUE/FALSE are BOOLEAN.
//   - Arithmetic: either side DOUBLE (or a string, converted as MySQL does)
//     → DOUBLE. Else either side DECIMAL → DECIMAL (integers count as
//     DECIMAL(10,0) for INT and DECIMAL(18,0) for BIGINT). Else BIGINT: all
//     integer arithmetic is 64-bit. '/' is never integer: DECIMAL with scale
//     = left scale + 4 (div_precision_increment) unless DOUBLE. DIV → BIGINT.
//   - Decimal + - % align scales: both operands are cast to the result type.
//     Decimal * and / keep each operand's own scale (integers cast to
//     DECIMAL(p,0)); the executor rescales by the operand and result scales:
//     * → raw(L)*raw(R) at scale sL+sR; / → raw(L)*10^(s-sL+sR)/raw(R),
//     rounded half away from zero. A result scale above 18 falls back to
//     DOUBLE. Precision is capped at 18 (int64 storage).
//   - Comparisons cast both sides to a common type: numbers as above (no
//     cast between INT columns), DATE vs string → DATE (constant strings are
//     parsed at bind time), string vs number → DOUBLE, string vs string →
//     compared by value (binary collation). DATE vs number is an error.
//     DATETIME: see datetimes.go.
//   - NULL literals take the type their context asks for.

// maxDecimalPrecision is the largest DECIMAL precision a scaled int64 holds.
const maxDecimalPrecision = 18

// sameType reports whether values of type b are read as values of type a
// without a cast. Integer widths do not count (TINYINT and INT are both
// int32, TINYINT to INT UNSIGNED all exact int64), except BIGINT UNSIGNED's
// bit patterns; a store into a narrower integer is range-checked apart
// (narrowsInteger).
func sameType(a, b columnar.Type) bool {
	if a.ID != b.ID || a.JSON != b.JSON || a.Year != b.Year || a.Unsigned != b.Unsigned || a.Unsigned && (a.Width == 0) != (b.Width == 0) {
		return false
	}
	switch a.ID {
	case columnar.Decimal:
		return a.Scale == b.Scale && a.IsWide() == b.IsWide()
	case columnar.Datetime, columnar.Time:
		return a.Scale == b.Scale
	case columnar.Vector:
		// Into VECTOR(n) a vector of another dimension needs a check.
		return b.Dim == 0 || a.Dim == b.Dim
	}
	return true
}

// SameType reports whether values of types a and b compare as they are
// stored, without a cast (sameType).
func SameType(a, b columnar.Type) bool { return sameType(a, b) }

func isNullConst(e Expr) bool {
	c, ok := e.(*Const)
	return ok && c.Null
}

func nullConst(t columnar.Type) *Const { return &Const{T: t, Null: true} }

// asDecimal is the DECIMAL type that holds every value of an exact numeric type.
func asDecimal(t columnar.Type) columnar.Type {
	switch t.ID {
	case columnar.Int32:
		return columnar.TDecimal(10, 0)
	case columnar.Int64:
		return columnar.TDecimal(maxDecimalPrecision, 0)
	case columnar.Bool:
		return columnar.TDecimal(1, 0)
	}
	return t
}

// isNumberType reports a DATE or a type that is a number in itself.
func isNumberType(t columnar.Type) bool {
	switch t.ID {
	case columnar.Date, columnar.Int32, columnar.Int64, columnar.Float64, columnar.Decimal, columnar.Bool:
		return true
	}
	return false
}

// numericType maps a type to the numeric type arithmetic uses for it.
func numericType(t columnar.Type) (columnar.Type, bool) {
	switch t.ID {
	case columnar.Int32, columnar.Int64, columnar.Float64, columnar.Decimal:
		return t, true
	case columnar.Bool:
		return columnar.TInt32, true
	case columnar.String:
		return columnar.TFloat64, true
	case columnar.Datetime, columnar.Time:
		return datetimeNumeric(t), true
	case columnar.Date:
		return columnar.TInt64, true // YYYYMMDD, as MySQL reads a DATE in a numeric context
	}
	return t, false
}

// commonNumeric is the type two numeric types are compared or added in.
func commonNumeric(a, b columnar.Type) columnar.Type {
	switch {
	case a.ID == columnar.Float64 || b.ID == columnar.Float64:
		return columnar.TFloat64
	case a.IsWide() || b.IsWide():
		return commonWide(a, b)
	case a.ID == columnar.Decimal || b.ID == columnar.Decimal:
		da, db := asDecimal(a), asDecimal(b)
		s := max(da.Scale, db.Scale)
		intDigits := max(da.Precision-da.Scale, db.Precision-db.Scale)
		return columnar.TDecimal(min(maxDecimalPrecision, intDigits+s), s)
	case a.ID == columnar.Int64 || b.ID == columnar.Int64:
		return columnar.TInt64
	}
	return columnar.TInt32
}

// compareType is the type both sides of a comparison are cast to.
func compareType(l, r Expr) (columnar.Type, error) {
	a, b := l.Type(), r.Type()
	switch {
	case isNullConst(l):
		return b, nil
	case isNullConst(r):
		return a, nil
	case a.ID == columnar.Vector || b.ID == columnar.Vector:
		return vectorCompareType(a, b)
	}
	if t, ok := wideCommonType(a, b); ok {
		return t, nil
	}
	if t, ok, err := unsignedCompareType(l, r); ok {
		return t, err
	}
	if t, ok, err := timeCompareType(a, b); ok {
		return t, err
	}
	if t, ok := datetimeCompareType(a, b); ok {
		return t, nil
	}
	if t, ok := yearCompareType(l, r); ok {
		return t, nil
	}
	switch {
	case a.ID == b.ID && a.ID != columnar.Decimal:
		return widerInteger(a, b), nil
	case a.ID == columnar.Date && b.ID == columnar.String, a.ID == columnar.String && b.ID == columnar.Date:
		// A constant with a time of day makes it a DATETIME comparison,
		// the date as its midnight (MySQL): d = '2024-01-05 10:00' is false.
		for _, e := range []Expr{l, r} {
			if c, ok := e.(*Const); ok && hasTimePart(c) {
				return columnar.TDatetime(literalFsp(c.S)), nil
			}
		}
		return columnar.TDate, nil
	case (a.ID == columnar.Date) != (b.ID == columnar.Date) && isNumberType(a) && isNumberType(b):
		// A DATE with a number compares as the number YYYYMMDD (MySQL's
		// numeric context): d = 20240102, d < 20240200.5.
		na, _ := numericType(a)
		nb, _ := numericType(b)
		return commonNumeric(na, nb), nil
	case a.ID == columnar.Date || b.ID == columnar.Date:
		return a, fmt.Errorf("type mismatch: cannot compare %s with %s", a, b)
	case a.ID == columnar.String || b.ID == columnar.String:
		// A string constant that is exactly a value of the other side's type
		// compares as that type: the same result as MySQL's double
		// comparison, without casting the column.
		other, str := a, r
		if a.ID == columnar.String {
			other, str = b, l
		}
		if c, ok := str.(*Const); ok {
			if v, ok := convertConst(c, other); ok && !v.Null && constString(v) == strings.TrimSpace(c.S) {
				return other, nil
			}
		}
		return columnar.TFloat64, nil
	}
	na, _ := numericType(a)
	nb, _ := numericType(b)
	return compareNumeric(na, nb), nil
}

// compareNumeric is commonNumeric for a comparison, which MySQL makes
// exact: where a side's values scaled to the DECIMAL's fraction digits
// may leave the int64 (a BIGINT with any fraction: b * b = 1.50 where
// b * b is 4611686014132420609 does not fit DECIMAL(18,2)), both are
// compared as a wide DECIMAL. An INT's ten digits take up to 9 fraction
// digits (2^31 * 10^9 < 2^63).
func compareNumeric(a, b columnar.Type) columnar.Type {
	t := commonNumeric(a, b)
	if t.ID != columnar.Decimal || t.IsWide() {
		return t
	}
	fits := func(x columnar.Type) bool {
		switch {
		case x.ID == columnar.Int64 && !x.Unsigned:
			return t.Scale == 0
		case x.ID == columnar.Int32 || x.ID == columnar.Int64:
			return t.Scale <= 9
		case x.ID == columnar.Decimal:
			return x.Precision-x.Scale+t.Scale <= maxDecimalPrecision
		}
		return true
	}
	if fits(a) && fits(b) {
		return t
	}
	return commonWide(a, b)
}

// castTo converts e to t: constants are folded, other expressions get a Cast
// node unless the physical representation is already t's.
func castTo(e Expr, t columnar.Type) Expr {
	if t.JSON && !e.Type().JSON {
		return castToJSON(e)
	}
	if t.ID == columnar.String {
		e = textOfQuotient(e) // division_digits.go
	}
	if isEnum(e) && (t.IsNumeric() || t.ID == columnar.Bool) {
		e = enumNumber(e) // an ENUM's number is its index, a SET's its bitmask
	}
	if sameType(e.Type(), t) || widensFsp(e, t) {
		if c, ok := e.(*Const); ok && c.Null {
			return nullConst(t)
		}
		return e
	}
	if c, ok := e.(*Const); ok && !truncatingNumber(c, t) {
		if v, ok := convertConst(c, t); ok {
			return keepWritten(c, v)
		}
	}
	return &Cast{E: e, T: t}
}

// truncatingNumber reports a string constant that reads as a number of
// type t only in part ('1abc'), or whose cast reinterprets its sign: its
// cast is left to the executor, which notes MySQL's warning each time the
// statement runs (warnings.go).
func truncatingNumber(c *Const, t columnar.Type) bool {
	if c.Null || c.hex || c.T.ID != columnar.String || t.Year {
		return false
	}
	if t.IsBigUnsigned() && t.Bit == 0 && strings.HasPrefix(strings.TrimSpace(c.S), "-") {
		return true // CAST('-1' AS UNSIGNED) notes 1105 (exec/cpu/cast_integer_text.go)
	}
	switch t.ID {
	case columnar.Int32, columnar.Int64, columnar.Float64, columnar.Decimal:
		return TruncatesNumber(c.S, t.IsInteger())
	}
	return false
}

// resultType is the type of a CASE/COALESCE/UNION column over the given
// branch types (NULL literals ignored).
func resultType(es []Expr) (columnar.Type, error) {
	var t columnar.Type
	big := anyBigUnsigned(es)
	for _, e := range es {
		if isNullConst(e) {
			continue
		}
		et := e.Type()
		if big && isNonNegativeIntConst(e) {
			et = columnar.TUint64 // COALESCE(u, 0): 0 is a BIGINT UNSIGNED value too
		}
		if t.ID == 0 {
			t = et
			continue
		}
		nt, err := unionType(t, et)
		if err != nil {
			return t, err
		}
		t = nt
	}
	if t.ID == 0 {
		t = columnar.TInt32 // all NULL
	}
	return t, nil
}

// widerInteger is a where a and b are integers of one ID differing only in
// width (TINYINT, INT): the wider of the two, as MySQL types
// COALESCE(tinyint, int) and a UNION of both INT; a otherwise.
func widerInteger(a, b columnar.Type) columnar.Type {
	if a.ID != b.ID || a.Unsigned != b.Unsigned || a.ID != columnar.Int32 && !a.Unsigned || a.Width == b.Width || a.Year || b.Year {
		return a
	}
	if a.Width == 0 || b.Width != 0 && a.Width > b.Width {
		return a
	}
	return b
}

// unionType is the type a value of either type is converted to when both
// land in one column.
func unionType(a, b columnar.Type) (columnar.Type, error) {
	if t, ok := timeUnionType(a, b); ok {
		return t, nil
	}
	if t, ok := datetimeUnionType(a, b); ok {
		return t, nil
	}
	if t, ok := wideCommonType(a, b); ok {
		return t, nil
	}
	if t, ok, err := unsignedUnionType(a, b); ok {
		return t, err
	}
	switch {
	case a.ID == columnar.Vector || b.ID == columnar.Vector:
		return vectorUnionType(a, b)
	case a.ID == b.ID && a.ID != columnar.Decimal:
		if a.ID == columnar.String {
			if a.JSON && b.JSON {
				return columnar.TJSON, nil // JSON with text is text, as in MySQL
			}
			return columnar.Type{ID: columnar.String, Width: max(a.Width, b.Width)}, nil
		}
		if a.Year != b.Year {
			return columnar.TInt32, nil // YEAR with INT is INT, as in MySQL
		}
		return widerInteger(a, b), nil
	case a.ID == columnar.String || b.ID == columnar.String:
		return columnar.TString, nil
	case a.ID == columnar.Date || b.ID == columnar.Date:
		return columnar.TString, nil
	}
	na, _ := numericType(a)
	nb, _ := numericType(b)
	t := unionNumeric(na, nb)
	if t.ID == columnar.Int32 && (a.ID == columnar.Bool) != (b.ID == columnar.Bool) {
		return columnar.TInt32, nil
	}
	return t, nil
}

// unionNumeric is commonNumeric for values of either type in one column,
// which MySQL gives every integer digit and every fraction digit of both:
// a BIGINT with a DECIMAL(2,1) is DECIMAL(20,1), past the int64's 18
// digits (COALESCE(b, 0.5) of 9223372036854775807 is 9223372036854775807.0).
func unionNumeric(a, b columnar.Type) columnar.Type {
	t := commonNumeric(a, b)
	if w := commonWide(a, b); t.ID == columnar.Decimal && w.IsWide() {
		return w
	}
	return t
}

// convertConst folds a cast of a constant; ok is false when the value cannot
// be represented (the caller keeps a Cast or reports the error).
func convertConst(c *Const, t columnar.Type) (*Const, bool) {
	if c.Null {
		return nullConst(t), true
	}
	if t.ID == columnar.Vector || c.T.ID == columnar.Vector {
		return convertVectorConst(c, t)
	}
	if t.IsWide() || c.T.IsWide() {
		return convertWideConst(c, t)
	}
	out := &Const{T: t}
	switch {
	case t.Year:
		v, ok := convertToYear(c)
		out.I = v
		return out, ok
	case t.ID == columnar.Time:
		v, ok := convertToTime(c, t)
		out.I = v
		return out, ok
	case c.T.ID == columnar.Time:
		return out, convertFromTime(c, out)
	case t.ID == columnar.Datetime:
		v, ok := convertToDatetime(c, t)
		out.I = v
		return out, ok
	case c.T.ID == columnar.Datetime:
		return out, convertFromDatetime(c, out)
	}
	if v, ok, handled := convertUnsignedConst(c, t); handled {
		return v, ok
	}
	switch t.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		var v int64
		switch c.T.ID {
		case columnar.Int32, columnar.Int64, columnar.Bool:
			v = c.I
		case columnar.Decimal:
			v = roundScaled(c.I, c.T.Scale, 0)
		case columnar.Float64:
			if math.IsNaN(c.F) || math.Abs(c.F) >= 9.2e18 {
				return nil, false
			}
			v = DoubleToInt(c.F)
		case columnar.String:
			n, ok := parseIntPrefix(c.S)
			if c.hex {
				n, ok = hexInt(c.S)
			}
			if !ok {
				return nil, false
			}
			v = n
		case columnar.Date:
			y, m, d := DateParts(int32(c.I))
			v = int64(y*10000 + m*100 + d)
		default:
			return nil, false
		}
		if t.ID == columnar.Bool {
			if v != 0 {
				v = 1
			}
		} else if lo, hi, ok := t.IntBounds(); ok && (v < lo || v > hi) {
			return nil, false
		}
		out.I = v
	case columnar.Float64:
		switch c.T.ID {
		case columnar.Int32, columnar.Int64, columnar.Bool:
			out.F = float64(c.I)
		case columnar.Decimal:
			out.F = float64(c.I) / float64(columnar.Pow10[c.T.Scale])
		case columnar.Float64:
			out.F = c.F
		case columnar.String:
			f, ok := parseFloatPrefix(c.S)
			if c.hex {
				f, ok = hexFloat(c.S), true
			}
			if !ok {
				return nil, false
			}
			out.F = f
		default:
			return nil, false
		}
	case columnar.Decimal:
		switch c.T.ID {
		case columnar.Int32, columnar.Int64, columnar.Bool:
			v, ok := mulPow10(c.I, t.Scale)
			if !ok {
				return nil, false
			}
			out.I = v
		case columnar.Decimal:
			if t.Scale >= c.T.Scale {
				v, ok := mulPow10(c.I, t.Scale-c.T.Scale)
				if !ok {
					return nil, false
				}
				out.I = v
			} else {
				out.I = roundScaled(c.I, c.T.Scale, t.Scale)
			}
		case columnar.Float64:
			// From the double's shortest text, as MySQL's double2decimal
			// (1.005e0 is 1.01 in a DECIMAL(4,2), not the 1.00 of its bits).
			w, ok := decimal.FromFloat64(c.F, t.Scale)
			if !ok {
				return nil, false
			}
			v, ok := decimal.Int64(w)
			if !ok || v >= 9.2e18 || v <= -9.2e18 {
				return nil, false
			}
			out.I = v
		case columnar.String:
			v, ok := ParseDecimal(strings.TrimSpace(c.S), t.Scale)
			if c.hex {
				var n int64
				if n, ok = hexInt(c.S); ok {
					v, ok = mulPow10(n, t.Scale)
				}
			}
			if !ok {
				return nil, false
			}
			out.I = v
		default:
			return nil, false
		}
		if !fitsPrecision(out.I, t.Precision) {
			return nil, false
		}
	case columnar.Date:
		switch c.T.ID {
		case columnar.Date:
			out.I = c.I
		case columnar.String:
			d, ok := ParseDate(c.S)
			if !ok {
				return nil, false
			}
			out.I = int64(d)
		case columnar.Int32, columnar.Int64:
			// MySQL's numeric dates: YYYYMMDD, YYMMDD, YYYYMMDDHHMMSS.
			us, ok := columnar.DatetimeFromNumber(c.I)
			if !ok {
				return nil, false
			}
			out.I = columnar.DatetimeDays(us)
		default:
			return nil, false
		}
	case columnar.String:
		switch c.T.ID {
		case columnar.String:
			out.S = c.S
		case columnar.Date:
			out.S = FormatDate(int32(c.I))
		case columnar.Bool, columnar.Int32, columnar.Int64:
			out.S = strconv.FormatInt(c.I, 10)
		case columnar.Decimal:
			out.S = FormatDecimal(c.I, c.T.Scale)
		case columnar.Float64:
			out.S = columnar.FormatDouble(c.F)
			if c.T.Scale > 0 { // PI(): its 6 decimals
				out.S = strconv.FormatFloat(c.F, 'f', c.T.Scale, 64)
			}
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	return out, true
}

func fitsPrecision(v int64, p int) bool {
	if p <= 0 || p >= 19 {
		return true
	}
	if v < 0 {
		v = -v
	}
	return v < columnar.Pow10[p]
}

func mulPow10(v int64, k int) (int64, bool) {
	if k < 0 || k > maxDecimalPrecision {
		return 0, false
	}
	p := columnar.Pow10[k]
	if v != 0 && (v > math.MaxInt64/p || v < math.MinInt64/p) {
		return 0, false
	}
	return v * p, true
}

// roundScaled rescales v from scale from to a smaller scale to, rounding
// half away from zero (MySQL).
func roundScaled(v int64, from, to int) int64 {
	d := columnar.Pow10[from-to]
	q, r := v/d, v%d
	if r*2 >= d {
		q++
	} else if -r*2 >= d {
		q--
	}
	return q
}

// ParseDecimal parses a decimal string ("-12.345", "1e2" is not accepted)
// into an integer scaled by 10^scale, rounding extra digits half away from
// zero.
func ParseDecimal(s string, scale int) (int64, bool) {
	if s == "" || scale < 0 || scale > maxDecimalPrecision {
		return 0, false
	}
	neg := false
	switch s[0] {
	case '-':
		neg = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
	}
	if (intPart == "" && frac == "") || (intPart != "" && !allDigits(intPart)) || (frac != "" && !allDigits(frac)) {
		return 0, false
	}
	intPart = strings.TrimLeft(intPart, "0")
	roundUp := false
	if len(frac) > scale {
		roundUp = frac[scale] >= '5'
		frac = frac[:scale]
	}
	frac += strings.Repeat("0", scale-len(frac))
	digits := intPart + frac
	if digits == "" {
		digits = "0"
	}
	if len(strings.TrimLeft(digits, "0")) > maxDecimalPrecision {
		return 0, false
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	if roundUp {
		v++
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseIntPrefix converts a string to an integer as MySQL's CAST(s AS
// SIGNED) does: leading spaces skipped, the numeric prefix used, a
// fractional part rounded. ok is false when there is no numeric prefix.
func parseIntPrefix(s string) (int64, bool) {
	f, ok := parseFloatPrefix(s)
	if !ok {
		return 0, false
	}
	t := strings.TrimSpace(s)
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return n, true
	}
	if math.Abs(f) >= 9.2e18 {
		return 0, false
	}
	return int64(math.Round(f)), true
}

// parseFloatPrefix parses the longest numeric prefix of s (MySQL string to
// number conversion).
func parseFloatPrefix(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	end := 0
	seenDigit, seenDot, seenE := false, false, false
	for end < len(s) {
		c := s[end]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case (c == '+' || c == '-') && (end == 0 || s[end-1] == 'e' || s[end-1] == 'E'):
		case c == '.' && !seenDot && !seenE:
			seenDot = true
		case (c == 'e' || c == 'E') && seenDigit && !seenE:
			seenE = true
		default:
			goto done
		}
		end++
	}
done:
	for end > 0 {
		f, err := strconv.ParseFloat(s[:end], 64)
		if err == nil {
			return f, true
		}
		if errors.Is(err, strconv.ErrRange) {
			// Past DOUBLE's range: MySQL's strtod gives the largest
			// double ('1e400' is 1.7976931348623157e308), or 0.
			if math.IsInf(f, 0) {
				f = math.Copysign(math.MaxFloat64, f)
			}
			return f, true
		}
		end--
	}
	return 0, false
}
