package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// DATETIME and TIMESTAMP (columnar.Datetime, int64 microseconds since
// 1970-01-01 00:00:00 in the session zone, which is UTC) in the binder:
//
//   - Comparisons: DATETIME with DATETIME, DATE (the date as its midnight,
//     as MySQL does) or a string (parsed as a datetime) compare as
//     DATETIME(fsp) with the larger fsp of the two, so no value is rounded;
//     with a number, as numbers (the datetime as YYYYMMDDHHMMSS[.ffffff]).
//   - In arithmetic and numeric casts a DATETIME is the number
//     YYYYMMDDHHMMSS: BIGINT at fsp 0, DECIMAL(14+fsp, fsp) otherwise
//     (MySQL: NOW() + 0).
//   - Casts: DATETIME → DATE rounds the fraction to whole seconds and drops
//     the time (MySQL: '1999-12-31 23:59:59.5' becomes 2000-01-01; DATE(dt)
//     and the date functions read the date without rounding), → VARCHAR prints
//     'YYYY-MM-DD HH:MM:SS[.ffffff]' (fsp digits); DATE → DATETIME is
//     midnight; strings and numbers parse as MySQL reads them
//     (columnar.ParseDatetime, DatetimeFromNumber); DATETIME(n) → DATETIME(m)
//     rounds to m digits.

// widensFsp reports a non-constant DATETIME(n) cast to DATETIME(m >= n):
// the values stay as they are, so no Cast is needed (comparisons with a
// string constant are made at fsp 6 without touching the column).
func widensFsp(e Expr, t columnar.Type) bool {
	from := e.Type()
	if _, isConst := e.(*Const); isConst || from.ID != columnar.Datetime || t.ID != columnar.Datetime {
		return false
	}
	return t.Scale >= from.Scale
}

// datetimeNumeric is the number type a DATETIME(fsp) converts to.
func datetimeNumeric(t columnar.Type) columnar.Type {
	if t.Scale == 0 {
		return columnar.TInt64
	}
	return columnar.TDecimal(14+t.Scale, t.Scale)
}

// isTemporal reports DATE and DATETIME.
func isTemporal(t columnar.Type) bool { return t.ID == columnar.Date || t.ID == columnar.Datetime }

// datetimeCompareType is the type a comparison with a DATETIME side is
// made in; ok is false when neither side is a DATETIME.
func datetimeCompareType(a, b columnar.Type) (columnar.Type, bool) {
	if a.ID != columnar.Datetime && b.ID != columnar.Datetime {
		return columnar.Type{}, false
	}
	fsp := 0
	for _, t := range []columnar.Type{a, b} {
		switch t.ID {
		case columnar.Datetime:
			fsp = max(fsp, t.Scale)
		case columnar.String:
			fsp = columnar.MaxFsp // a string keeps every digit it has
		case columnar.Date:
		default:
			na, _ := numericType(a)
			nb, _ := numericType(b)
			return commonNumeric(na, nb), true
		}
	}
	return columnar.TDatetime(fsp), true
}

// datetimeUnionType is the type of a column holding DATETIME and other
// values; ok is false when neither is a DATETIME.
func datetimeUnionType(a, b columnar.Type) (columnar.Type, bool) {
	if a.ID != columnar.Datetime && b.ID != columnar.Datetime {
		return columnar.Type{}, false
	}
	if !isTemporal(a) || !isTemporal(b) {
		return columnar.TString, true
	}
	t := columnar.TDatetime(max(datetimeScale(a), datetimeScale(b)))
	t.Timestamp = a.Timestamp && b.Timestamp
	return t, true
}

func datetimeScale(t columnar.Type) int {
	if t.ID == columnar.Datetime {
		return t.Scale
	}
	return 0
}

// convertToDatetime folds a cast of a non-NULL constant to DATETIME(fsp).
func convertToDatetime(c *Const, t columnar.Type) (int64, bool) {
	var us int64
	var ok bool
	switch c.T.ID {
	case columnar.Datetime:
		us, ok = c.I, true
	case columnar.Date:
		us, ok = c.I*columnar.MicrosPerDay, true
	case columnar.String:
		return columnar.ParseDatetime(c.S, t.Scale)
	case columnar.Int32, columnar.Int64:
		us, ok = columnar.DatetimeFromNumber(c.I)
	case columnar.Decimal:
		ip := c.I / columnar.Pow10[c.T.Scale]
		frac := c.I % columnar.Pow10[c.T.Scale]
		if us, ok = columnar.DatetimeFromNumber(ip); ok && c.I >= 0 {
			us += frac * columnar.Pow10[columnar.MaxFsp] / columnar.Pow10[c.T.Scale]
		}
	case columnar.Float64:
		if c.F < 0 || c.F >= 1e15 || math.IsNaN(c.F) {
			return 0, false
		}
		ip := math.Floor(c.F)
		if us, ok = columnar.DatetimeFromNumber(int64(ip)); ok {
			us += int64(math.Round((c.F - ip) * 1e6))
		}
	}
	if !ok {
		return 0, false
	}
	return columnar.RoundDatetime(us, t.Scale), true
}

// convertFromDatetime folds a cast of a non-NULL DATETIME constant to a
// non-DATETIME type into out.
func convertFromDatetime(c *Const, out *Const) bool {
	t := out.T
	switch t.ID {
	case columnar.Date:
		// MySQL rounds the fraction before it drops the time.
		out.I = columnar.DatetimeDays(columnar.RoundDatetime(c.I, 0))
	case columnar.String:
		out.S = columnar.FormatDatetime(c.I, c.T.Scale)
	case columnar.Float64:
		out.F = datetimeFloat(c.I)
	case columnar.Int32, columnar.Int64, columnar.Bool:
		v := columnar.DatetimeToNumber(columnar.RoundDatetime(c.I, 0))
		if t.ID == columnar.Bool {
			v = min(v, 1)
		} else if t.ID == columnar.Int32 {
			return false
		}
		out.I = v
	case columnar.Decimal:
		v, ok := DatetimeDecimal(c.I, t.Scale)
		if !ok || !fitsPrecision(v, t.Precision) {
			return false
		}
		out.I = v
	default:
		return false
	}
	return true
}

// DatetimeDecimal is YYYYMMDDHHMMSS.ffffff scaled by 10^scale (rounded half
// up), false when it does not fit.
func DatetimeDecimal(us int64, scale int) (int64, bool) {
	r := columnar.RoundDatetime(us, min(scale, columnar.MaxFsp))
	n := columnar.DatetimeToNumber(r)
	_, _, _, _, _, _, micro := columnar.DatetimeParts(r)
	v, ok := mulPow10(n, scale)
	if !ok {
		return 0, false
	}
	if scale <= columnar.MaxFsp {
		return v + int64(micro)/columnar.Pow10[columnar.MaxFsp-scale], true
	}
	return v + int64(micro)*columnar.Pow10[scale-columnar.MaxFsp], true
}

func datetimeFloat(us int64) float64 {
	_, _, _, _, _, _, micro := columnar.DatetimeParts(us)
	return float64(columnar.DatetimeToNumber(us)) + float64(micro)/1e6
}

// stmtMicros is the statement's clock as a DATETIME(fsp) value, the digits
// past fsp dropped (MySQL's NOW(fsp)).
func (b *binder) stmtMicros(fsp int) int64 {
	us := b.zone().FromUTC(b.stmtNow().UnixMicro())
	unit := columnar.Pow10[columnar.MaxFsp-fsp]
	return us - (us%unit+unit)%unit
}

// incorrectDatetime is MySQL's strict-mode error text for a value a
// DATETIME or TIMESTAMP column cannot take.
func incorrectDatetime(c *Const, column string, row int) string {
	v := constString(c)
	if c.T.ID == columnar.String {
		v = c.S
	}
	return "Incorrect datetime value: '" + strings.ReplaceAll(v, "'", "''") + "' for column '" + column + "' at row " + strconv.Itoa(row)
}

// timestampLiteral binds TIMESTAMP '...' (and DATETIME '...', which the
// parser reads the same way): a DATETIME constant whose fsp is the number
// of fraction digits written.
func (b *binder) timestampLiteral(n *ast.FuncCallExpr, pos int) (Expr, error) {
	if len(n.Args) == 1 {
		if e, err := b.expr(n.Args[0], &scope{plan: &Values{}}); err == nil {
			if c, ok := e.(*Const); ok && c.T.ID == columnar.String {
				fsp := literalFsp(c.S)
				if us, ok := columnar.ParseDatetime(c.S, fsp); ok {
					return &Const{T: columnar.TDatetime(fsp), I: us}, nil
				}
				return nil, b.errf(pos, "Incorrect datetime value: '%s'", c.S)
			}
		}
	}
	return nil, b.errf(pos, "incorrect TIMESTAMP literal")
}

// ConvertDatetimeValue converts one non-NULL value to or from DATETIME
// exactly as the binder folds a constant (i is the value's integer form, f
// a DOUBLE's value); ok is false where the cast gives NULL.
func ConvertDatetimeValue(i int64, f float64, from, to columnar.Type) (ri int64, rf float64, ok bool) {
	out, ok := convertConst(&Const{T: from, I: i, F: f}, to)
	if !ok {
		return 0, 0, false
	}
	return out.I, out.F, true
}

// storeCast is castTo for a value stored into a column of type t, except
// that a string stays a string where t is DATETIME: the engine parses it
// as it stores it, so an invalid one is MySQL's strict-mode error
// ("Incorrect datetime value: 'x' for column 'c' at row n") rather than
// the NULL a cast gives.
func storeCast(e Expr, t columnar.Type) Expr {
	if _, isConst := e.(*Const); !isConst && StoresText(e.Type(), t) {
		return e // the engine reads the text, naming column and row (StoresText)
	}
	if _, isConst := e.(*Const); (t.Year || t.ID == columnar.Time) && !isConst {
		return e // the engine converts as it stores (year.go)
	}
	if t.ID == columnar.Datetime && e.Type().ID == columnar.String {
		if _, isConst := e.(*Const); !isConst {
			return e
		}
	}
	if s, ok := storeIntegerSource(e, t); ok {
		return s
	}
	if _, isConst := e.(*Const); t.IsWide() && !isConst {
		// The engine checks the precision as it stores, naming the
		// column and row (1264); the cast only brings the scale.
		return castTo(e, wideStoreType(e.Type(), t))
	}
	return castTo(e, t)
}

// storeSchema is the schema INSERT ... SELECT casts its rows to: the target
// columns' types, with storeCast's exception for strings into DATETIME.
func storeSchema(from, to Schema) Schema {
	out := append(Schema(nil), to...)
	for i := range out {
		if i < len(from) && StoresText(from[i].Type, out[i].Type) {
			out[i].Type = from[i].Type // the engine reads it (StoresText)
			continue
		}
		if i < len(from) && (out[i].Type.ID == columnar.Datetime && from[i].Type.ID == columnar.String || out[i].Type.Year || out[i].Type.ID == columnar.Time) {
			out[i].Type = from[i].Type
		}
		if i < len(from) && out[i].Type.Members != "" && numericEnumSource(from[i].Type) {
			out[i].Type = from[i].Type // a number is an index or bitmask to the store (LenientEnum)
		}
		if i < len(from) && storeNeedsRangeCheck(from[i].Type, out[i].Type) {
			out[i].Type = storeIntegerType(from[i].Type)
		}
		if i < len(from) && decimalNeedsRangeCheck(from[i].Type, out[i].Type) {
			out[i].Type = decimalStoreType(from[i].Type, out[i].Type)
		}
		if out[i].Type.IsWide() && i < len(from) {
			out[i].Type = wideStoreType(from[i].Type, out[i].Type)
		} else if out[i].Type.IsWide() {
			out[i].Type = wideStoreType(columnar.Type{}, out[i].Type)
		}
	}
	return out
}

// storeValuesSchema is the schema of INSERT ... VALUES rows: where a row
// gives a DATETIME column a computed string (storeCast left it a string),
// the column carries strings, so the engine parses every row's value as
// it stores it (constant rows print their already-checked value).
func storeValuesSchema(v *Values) Schema {
	out := append(Schema(nil), v.Out...)
	for i, c := range out {
		if c.Type.Year || c.Type.ID == columnar.Time {
			out[i].Type = valuesStoreType(v, i, c.Type)
			continue
		}
		if StoresText(columnar.TString, c.Type) && computesText(v, i) {
			out[i].Type = columnar.TString // every row as text: the engine reads it (StoresText)
			continue
		}
		if c.Type.ID != columnar.Datetime {
			continue
		}
		for _, row := range v.Rows {
			if i < len(row) && row[i] != nil && row[i].Type().ID == columnar.String {
				out[i].Type = columnar.TString
				break
			}
		}
	}
	return out
}

// valuesStoreType is the type INSERT ... VALUES carries column i of its
// rows in when the column is a YEAR or TIME (col): col when every row's
// value is a constant (already converted), else the first computed
// value's type, which the engine converts as it stores; the other rows
// are cast to that type.
func valuesStoreType(v *Values, i int, col columnar.Type) columnar.Type {
	for _, row := range v.Rows {
		if i < len(row) && row[i] != nil {
			if _, ok := row[i].(*Const); !ok {
				return row[i].Type()
			}
		}
	}
	return col
}

// numericEnumSource reports a number MySQL stores into an ENUM or SET as
// its index or bitmask (Field_enum::store(longlong)), not as its text.
func numericEnumSource(t columnar.Type) bool {
	switch t.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		return !t.Year && t.Bit == 0
	case columnar.Decimal, columnar.Float64:
		return !t.IsWide() // its integer part (engine enumSource)
	}
	return false
}
