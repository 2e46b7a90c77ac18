package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// Writes outside strict mode (sql_mode without STRICT_TRANS_TABLES and
// STRICT_ALL_TABLES) and INSERT IGNORE store a value a column cannot take
// as written adjusted, with a warning, where strict mode fails the
// statement (the manual's "Out-of-Range and Overflow Handling" and "Strict
// SQL Mode"):
//
//	300 into TINYINT        127, Warning 1264 Out of range value for column 'c' at row 1
//	12345.6 into DECIMAL(5,2) 999.99, Warning 1264
//	'abc' into INT          0, Warning 1366 Incorrect integer value: 'abc' for column 'c' at row 1
//	'12abc' into INT        12, Warning 1265 Data truncated for column 'c' at row 1
//	'abcdefg' into VARCHAR(5) 'abcde', Warning 1265 Data truncated for column 'c' at row 1
//	NULL into NOT NULL      the type's implicit default (0, ''), Warning 1048 Column 'c' cannot be null
//	                        (a single-row INSERT without IGNORE stays error 1048)
//
// Dates a column cannot take stay errors: MySQL stores '0000-00-00' there,
// a value gpusql's DATE columns do not hold.

// MySQL's codes for the adjusted stores.
const (
	WarnOutOfRange     uint16 = 1264 // ER_WARN_DATA_OUT_OF_RANGE
	WarnDataTruncated  uint16 = 1265 // WARN_DATA_TRUNCATED
	WarnBadNull        uint16 = 1048 // ER_BAD_NULL_ERROR
	WarnIncorrectValue uint16 = 1366 // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
)

// lenientWrites reports whether this INSERT stores adjusted values with
// warnings rather than failing.
func (b *binder) lenientWrites(ignore bool) bool {
	return ignore || b.session != nil && !b.session.Strict()
}

// adjustConst is adjustConst with the warning of a BIT value past its
// width as Field_bit::store notes it: 1406 Data too long in strict mode
// (is_strict_mode, which an IGNORE write leaves on), else 1264.
func (b *binder) adjustConst(c *Const, col Column, row string) (*Const, Warning, bool) {
	v, w, ok := adjustConst(c, col, row)
	if w.Code == WarnOutOfRange && col.Type.Bit > 0 && b.session != nil && b.session.Strict() {
		w.Code, w.Message = ErDataTooLong, strings.Replace(w.Message, "Out of range value", "Data too long", 1)
	}
	return v, w, ok
}

// adjustConst is the value a lenient write stores for constant c in col
// at row (its 1-based number, as text), and the warning it notes; ok is false where gpusql keeps
// the error (no adjusted value MySQL would store that gpusql can hold).
func adjustConst(c *Const, col Column, row string) (*Const, Warning, bool) {
	t := col.Type
	warn := func(code uint16, format string, args ...any) Warning {
		return Warning{Level: "Warning", Code: code, Message: fmt.Sprintf(format, args...)}
	}
	outOfRange := warn(WarnOutOfRange, "Out of range value for column '%s' at row %s", col.Name, row)
	truncated := warn(WarnDataTruncated, "Data truncated for column '%s' at row %s", col.Name, row)
	switch {
	case c.Null:
		return implicitDefault(t), warn(WarnBadNull, "Column '%s' cannot be null", col.Name), implicitDefault(t) != nil
	case t.ID == columnar.String && t.Members == "" && !t.JSON && c.T.ID == columnar.String:
		cut, ok := cutString(c.S, t)
		return &Const{T: t, S: cut}, truncated, ok
	case t.Set && c.T.ID == columnar.String && !c.hex:
		return &Const{T: t, S: knownMembers(c.S, t)}, truncated, true
	case t.Members != "" && c.T.ID == columnar.String && !c.hex:
		return &Const{T: t, S: ""}, truncated, true // ENUM's error value, index 0
	case t.Members != "":
		u, ok, _ := constUint(c)
		return &Const{T: t, S: enumFromNumber(t, u, ok)}, truncated, true
	case t.IsWide() || c.T.IsWide():
		v, ok := clipWideConst(c, t)
		return v, outOfRange, ok
	case t.Year:
		return adjustYear(c, t, outOfRange, truncated, warn(WarnIncorrectValue, "Incorrect integer value: '%s' for column '%s' at row %s", c.S, col.Name, row))
	case c.hex && t.Bit > 0:
		u, ok, _ := constUint(c)
		if !ok {
			u = math.MaxUint64 // more than 8 bytes
		}
		u, _ = ClipBit(t, false, u)
		return &Const{T: t, I: int64(u)}, outOfRange, true
	}
	f, clean, isString := constNumber(c)
	if isString && !clean && f == 0 && !hasNumberPrefix(c.S) {
		kind := map[columnar.TypeID]string{columnar.Int32: "integer", columnar.Int64: "integer", columnar.Decimal: "decimal"}[t.ID]
		if kind == "" {
			return &Const{T: t}, truncated, t.ID == columnar.Float64
		}
		return &Const{T: t}, warn(WarnIncorrectValue, "Incorrect %s value: '%s' for column '%s' at row %s", kind, c.S, col.Name, row), true
	}
	w := truncated
	if !isString || clean {
		w = outOfRange
	}
	switch t.ID {
	case columnar.Int32, columnar.Int64:
		if t.IsBigUnsigned() {
			v, clipped := bigUnsignedAdjusted(f)
			if u, bitClipped := ClipBit(t, f < 0, uint64(v)); bitClipped {
				return &Const{T: t, I: int64(u)}, outOfRange, true
			}
			if clipped {
				w = outOfRange
			}
			return &Const{T: t, I: v}, w, true
		}
		lo, hi, ok := t.IntBounds()
		if !ok {
			if t.ID != columnar.Int64 || t.Unsigned {
				return nil, Warning{}, false
			}
			lo, hi = math.MinInt64, math.MaxInt64
		}
		v := math.Round(f)
		switch {
		case v <= float64(lo):
			return &Const{T: t, I: lo}, outOfRange, true
		case v >= float64(hi):
			return &Const{T: t, I: hi}, outOfRange, true
		}
		return &Const{T: t, I: int64(v)}, w, true
	case columnar.Decimal:
		hi := int64(math.Pow10(t.Precision)) - 1
		scaled := math.Round(f * math.Pow10(t.Scale))
		switch {
		case scaled >= float64(hi):
			return &Const{T: t, I: hi}, outOfRange, true
		case scaled <= float64(-hi):
			return &Const{T: t, I: -hi}, outOfRange, true
		}
		from := c
		if isString {
			from = &Const{T: columnar.TString, S: numberPrefix(c)}
		}
		if v, ok := convertConst(from, t); ok {
			return v, w, true
		}
	case columnar.Float64:
		if v, out := clipFloatStore(c, t); out {
			return &Const{T: t, F: v}, outOfRange, true
		}
		return &Const{T: t, F: f}, w, true
	}
	return nil, Warning{}, false
}

// implicitDefault is MySQL's "implicit default value for the column data
// type" (0, the empty string), nil for types whose zero gpusql does not store.
func implicitDefault(t columnar.Type) *Const {
	switch {
	case t.ID == columnar.String && t.Members == "" && !t.JSON:
		return &Const{T: t}
	case t.ID == columnar.Int32 && !t.Year, t.ID == columnar.Int64, t.ID == columnar.Decimal && !t.IsWide(),
		t.ID == columnar.Float64, t.ID == columnar.Bool:
		return &Const{T: t}
	}
	return nil
}

// cutString cuts s to the characters (bytes for a binary type) t holds;
// ok is false for text FitString refuses for another reason (invalid
// UTF-8).
func cutString(s string, t columnar.Type) (string, bool) {
	if !t.Binary {
		if r := []rune(s); t.Width > 0 && len(r) > t.Width {
			s = string(r[:t.Width])
		}
	} else if t.Width > 0 && len(s) > t.Width {
		s = s[:t.Width]
	}
	_, err := t.FitString(s)
	return s, err == nil
}

// constNumber is c's value as a number: a string's longest numeric prefix
// (clean when that is the whole string, spaces aside).
func constNumber(c *Const) (f float64, clean, isString bool) {
	switch c.T.ID {
	case columnar.String:
		s := strings.TrimSpace(c.S)
		f, _ = parseFloatPrefix(s)
		return f, numberPrefix(c) == s && s != "", true
	case columnar.Decimal:
		return float64(c.I) / math.Pow10(c.T.Scale), true, false
	case columnar.Float64:
		return c.F, true, false
	}
	return float64(c.I), true, false
}

func hasNumberPrefix(s string) bool { return numberPrefix(&Const{S: s, T: columnar.TString}) != "" }

// numberPrefix is the longest prefix of a string constant that reads as a
// number without an exponent ("12.5" of "12.5abc"), for an exact DECIMAL.
func numberPrefix(c *Const) string {
	s := strings.TrimSpace(c.S)
	end, digits := 0, false
	for end < len(s) {
		ch := s[end]
		switch {
		case ch >= '0' && ch <= '9':
			digits = true
		case (ch == '+' || ch == '-') && end == 0:
		case ch == '.' && !strings.Contains(s[:end], "."):
		default:
			if !digits {
				return ""
			}
			return strings.TrimSuffix(s[:end], ".")
		}
		end++
	}
	if !digits {
		return ""
	}
	return s
}

// stringStoreError is strict mode's error for a string a column cannot
// take: MySQL's 1406 "Data too long for column 'c' at row 1" for one too
// long (gpusql adds the column's type and the value's length); gpusql's
// wording, which names the value, for the others.
func (b *binder) stringStoreError(pos int, e *columnar.StringError, table, col string, row int) *Error {
	text := e.At(table, col, row).Error()
	if mysqlText, detail, ok := strings.Cut(text, " ("); ok && e.TooLong && e.JSONError == "" && !e.Truncated {
		err := b.errCode(pos, ErDataTooLong, "%s", mysqlText)
		err.Detail = strings.TrimSuffix(detail, ")")
		return err
	}
	if mysqlText, detail, ok := strings.Cut(text, " ("); ok && e.Truncated {
		err := b.errCode(pos, WarnDataTruncated, "%s", mysqlText) // no member of the ENUM or SET
		err.Detail = strings.TrimSuffix(detail, ")")
		return err
	}
	return b.errf(pos, "%s", text)
}

// bigUnsignedAdjusted is f stored into BIGINT UNSIGNED, clipped to 0 ..
// 18446744073709551615: the bits of the uint64 in an int64, and whether
// it was clipped.
func bigUnsignedAdjusted(f float64) (int64, bool) {
	switch v := math.Round(f); {
	case v < 0:
		return 0, true
	case v >= math.MaxUint64:
		return -1, true
	default:
		return int64(uint64(v)), false
	}
}

// ClipBit is u (negative if neg) stored into type t outside strict mode:
// a BIT(M) value past M bits, or a negative one (its two's complement
// bits, Field_bit::store), becomes 2^M-1, MySQL's 1264 Out of range; true
// when clipped. Other types keep u.
func ClipBit(t columnar.Type, neg bool, u uint64) (uint64, bool) {
	if t.Bit <= 0 || t.Bit >= 64 {
		return u, false
	}
	if max := t.UnsignedMax(); neg || u > max {
		return max, true
	}
	return u, false
}

// adjustYear is c stored into YEAR t outside strict mode, as
// Field_year::store does: a number past 1901..2155 (and 0..99) is 0000
// with 1264, text that is no number 0000 with 1366, a number followed by
// more the number's year with 1265.
func adjustYear(c *Const, t columnar.Type, outOfRange, truncated, incorrect Warning) (*Const, Warning, bool) {
	if c.T.ID == columnar.String && !c.hex {
		y, code := YearTextStore(c.S)
		w := map[uint16]Warning{WarnOutOfRange: outOfRange, WarnDataTruncated: truncated, WarnIncorrectValue: incorrect}[code]
		return &Const{T: t, I: int64(y)}, w, code != 0
	}
	_, clean, isString := constNumber(c)
	from, w := c, outOfRange
	if isString && !clean {
		if !hasNumberPrefix(c.S) {
			return &Const{T: t}, incorrect, true
		}
		from, w = &Const{T: columnar.TString, S: numberPrefix(c)}, truncated
	}
	y, ok := convertToYear(from)
	if !ok {
		return &Const{T: t}, outOfRange, true
	}
	return &Const{T: t, I: y}, w, true
}

// knownMembers is SET text s without the parts that name no member of t,
// as Field_set::store keeps them outside strict mode ('a,d' is 'a', with
// 1265).
func knownMembers(s string, t columnar.Type) string {
	var kept []string
	for _, part := range strings.Split(s, ",") {
		if m, ok := t.EnumMember(part); ok {
			kept = append(kept, m)
		}
	}
	out, err := t.FitString(strings.Join(kept, ","))
	if err != nil {
		return ""
	}
	return out
}

// enumFromNumber is number u stored outside strict mode into ENUM or SET
// t, as Field_enum::store and Field_set::store (longlong) do: an ENUM
// index past the members is the error value ” (index 0), a SET bitmask
// keeps only the bits that name members (a negative integer its two's
// complement bits). ok false: no unsigned number.
func enumFromNumber(t columnar.Type, u uint64, ok bool) string {
	ms := t.EnumMembers()
	if !t.Set {
		if !ok || u == 0 || u > uint64(len(ms)) {
			return ""
		}
		return ms[u-1]
	}
	var out []string
	for i, m := range ms {
		if i < 64 && u&(1<<uint(i)) != 0 {
			out = append(out, m)
		}
	}
	return strings.Join(out, ",")
}

// LenientEnum is text s (number: a number's text) that ENUM or SET t does
// not take, stored outside strict mode: a SET's known members, an ENUM's
// error value ”, a number as enumFromNumber has it.
func LenientEnum(t columnar.Type, s string, number bool) string {
	if number {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return enumFromNumber(t, uint64(n), n >= 0)
		}
		u, err := strconv.ParseUint(s, 10, 64)
		return enumFromNumber(t, u, err == nil)
	}
	if t.Set {
		return knownMembers(s, t)
	}
	return ""
}
