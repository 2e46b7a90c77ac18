package cpu

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

func sameType(a, b columnar.Type) bool {
	if a.ID != b.ID || a.Unsigned != b.Unsigned {
		return false
	}
	if a.ID == columnar.Vector {
		return b.Dim == 0 || a.Dim == b.Dim
	}
	if a.Year != b.Year {
		return false
	}
	if a.IsWide() != b.IsWide() {
		return false
	}
	return (a.ID != columnar.Decimal && a.ID != columnar.Datetime && a.ID != columnar.Time) || a.Scale == b.Scale
}

// castTo converts ev's values from type from to type to (MySQL semantics);
// literals are converted once, here. Strings read as numbers only in part
// note MySQL's warning 1292 in the statement's warnings (sql/warnings.go):
// once for a literal, once a row otherwise.
func (c *compiler) castTo(ev evaluator, from, to columnar.Type) evaluator {
	var warn *sql.Warnings
	if c != nil && c.x != nil {
		warn = c.x.warn
	}
	return castWarning(ev, from, to, warn)
}

// castTo is compiler.castTo where no statement collects warnings.
func castTo(ev evaluator, from, to columnar.Type) evaluator { return castWarning(ev, from, to, nil) }

func castWarning(ev evaluator, from, to columnar.Type, warn *sql.Warnings) evaluator {
	return castEvaluator(ev, from, to, warn, false)
}

// castEvaluator is castWarning; written marks a CAST the statement wrote.
func castEvaluator(ev evaluator, from, to columnar.Type, warn *sql.Warnings, written bool) evaluator {
	return castEvaluatorNamed(ev, from, to, warn, written, "")
}

// castNamed is castTo for a CAST whose 1690 names it as MySQL prints it
// (sql.Cast.Text: 'cast(-(3.5e38) as float)').
func (c *compiler) castNamed(ev evaluator, from, to columnar.Type, text string) evaluator {
	var warn *sql.Warnings
	if c != nil && c.x != nil {
		warn = c.x.warn
	}
	return castEvaluatorNamed(ev, from, to, warn, false, text)
}

// castEvaluatorNamed is castEvaluator; text, when set, is the cast as
// MySQL prints it in its out-of-range error.
func castEvaluatorNamed(ev evaluator, from, to columnar.Type, warn *sql.Warnings, written bool, text string) evaluator {
	if from.IsWide() && to.IsWide() && from.Scale == to.Scale && from.Precision > to.Precision {
		return wideCast(ev, from, to, warn) // fewer digits: each value checked
	}
	finer := (from.ID == columnar.Datetime || from.ID == columnar.Time) && to.ID == from.ID && to.Scale >= from.Scale
	narrower := to.Single && !from.Single // a DOUBLE to a FLOAT rounds each value
	if sameType(from, to) && !narrower || finer || from.Year && to.ID == columnar.Int32 {
		return ev // a finer fsp keeps every DATETIME value as it is
	}
	if written && from.IsWide() && from.ID == columnar.Decimal && writtenIntegerText(to) {
		return wideCastClamp(ev, from, to, warn, true) // cast_decimal_signed.go
	}
	if from.IsWide() || to.IsWide() {
		return wideCastVia(ev, from, to, warn)
	}
	ce := &castEval{in: ev, from: from, to: to, out: newVec(to), warn: warn, written: written, text: text}
	if k, ok := isConst(ev); ok {
		// Every worker compiles the literal: its warning is noted once.
		ce.warn, ce.warnKey = nil, k
		b := &batch{n: 1, sel: identSel[:1]}
		v := ce.eval(b, b.sel)
		if ce.truncated && !k.Null {
			warn.AddOnce(k, sql.WarnTruncatedValue, castWarningText(to, ce.truncText))
		}
		if ce.complement && !k.Null {
			warn.AddOnce(complementKey{k}, sql.WarnUnknownError, complementText(to))
		}
		lit := &sql.Const{T: to, Null: v.isNull(0)}
		if !lit.Null {
			switch {
			case to.ID == columnar.String:
				lit.S = v.stringAt(0)
			case to.ID == columnar.Vector:
				lit.V = v.vecs[0]
			case v.f64 != nil:
				lit.F = v.f64[0]
			default:
				lit.I = v.int64At(0)
			}
		}
		return newConstEval(lit)
	}
	return ce
}

type castEval struct {
	in       evaluator
	from, to columnar.Type
	out      *vec
	sb       stringBuilder
	// Conversions of a string column run once per dictionary entry.
	strNum dictMap[numVal]
	strVec textVectors
	// warn collects 1292 per row read in part; a literal's cast sets
	// warnKey instead and reports truncated.
	warn      *sql.Warnings
	warnKey   *sql.Const
	truncated bool
	truncText string // the literal as the warning quotes it
	// complement: the literal's bits reinterpreted (1105).
	complement bool
	// written: a CAST the statement wrote (sql.Cast.Written), whose
	// string reads as MySQL's CAST reads it (cast_integer_text.go).
	written bool
	// text: the CAST as MySQL prints it, for FLOAT's 1690 (floatOverflow).
	text string
}

// numVal is a string parsed as a number or date: i in the target's integer
// domain, f for doubles, null when it does not parse (dates).
type numVal struct {
	i    int64
	f    float64
	null bool
	// truncated: the string read as a number only in part (warning 1292).
	truncated bool
	// complement: a string's 64 bits reinterpreted by a cast to the other
	// signedness (warning 1105, cast_integer_text.go).
	complement bool
	// overflow: a DECIMAL whose scaled value leaves int64.
	overflow bool
}

// numberName is the type MySQL's 1292 names for a conversion to t.
func numberName(t columnar.Type) string {
	return sql.NumberTypeName(t.IsInteger(), t.ID == columnar.Decimal)
}

func (e *castEval) eval(b *batch, sel []int32) *vec {
	out := e.evalValues(b, sel)
	if e.to.Single { // CAST(... AS FLOAT): the float32 nearest
		for _, p := range sel {
			f := out.f64[p]
			if math.Abs(f) > math.MaxFloat32 && !out.isNull(p) {
				raise(floatOverflow(f, e.text))
			}
			out.f64[p] = float64(float32(f))
		}
	}
	return out
}

// floatOverflow is MySQL's 1690 for a CAST(... AS FLOAT) past FLOAT's
// range (Item_typecast_real), naming the cast as MySQL prints it (text,
// from the binder); a cast without one names the value.
func floatOverflow(f float64, text string) error {
	if text == "" {
		text = "cast(" + exec.FormatDouble(f) + " as float)"
	}
	return fmt.Errorf("FLOAT value is out of range in '%s'", text)
}

func (e *castEval) evalValues(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, v, nil)
	from, to := e.from, e.to
	if from.ID == columnar.Vector || to.ID == columnar.Vector {
		return e.vectorCast(b, sel, v)
	}
	if from.ID == columnar.String {
		if to.ID == columnar.String {
			return v
		}
		parse := func(s string) numVal { return parseAs(s, to) }
		if e.written && writtenIntegerText(to) {
			parse = func(s string) numVal { return parseWrittenInteger(s, to) }
		}
		m := e.strNum.get(v.dict, parse)
		for _, p := range sel {
			if v.isNull(p) {
				continue
			}
			nv := m[v.i32[p]]
			if nv.truncated {
				e.noteTruncated(v.stringAt(p))
			}
			if nv.complement {
				e.noteComplement()
			}
			if nv.overflow {
				raise(castOverflow(v, p, from, to))
			}
			if nv.null {
				out.setNull(b.n, p)
				continue
			}
			putNum(out, p, nv)
		}
		return out
	}
	if to.ID == columnar.String {
		e.sb.reset(b.n)
		for _, p := range sel {
			if v.isNull(p) {
				e.sb.setNull(p)
				continue
			}
			e.sb.set(p, formatValue(v, p, from))
		}
		e.sb.finish(out, sel)
		return out
	}
	for _, p := range sel {
		if v.isNull(p) {
			continue
		}
		nv, ok := convertNum(v, p, from, to)
		if e.written && from.ID == columnar.Float64 && to.IsBigUnsigned() {
			nv, ok = castDoubleUnsigned(v.f64[p])
		}
		if nv.overflow {
			raise(castOverflow(v, p, from, to))
		}
		if nv.truncated && e.warnKey == nil {
			// A DOUBLE column past BIGINT's range; a literal warns not
			// (Item_float::val_int).
			e.noteTruncated(formatValue(v, p, from))
		}
		if !ok {
			if (to.ID == columnar.Date || to.ID == columnar.Datetime) && from.IsNumeric() {
				// MONTH(3), CAST(20241340 AS DATE): no date, NULL with 1292.
				e.noteTruncated(formatValue(v, p, from))
			}
			out.setNull(b.n, p)
			continue
		}
		putNum(out, p, nv)
	}
	return out
}

// scaleUp is i * 10^digits, marked overflow where that leaves int64 (an
// integer or DECIMAL past the narrow DECIMAL's 18 digits: the statement
// reruns with MySQL's wide types, exec.ErrExactOverflow).
func scaleUp(i int64, digits int) numVal {
	m := pow10(digits)
	if i > math.MaxInt64/m || i < math.MinInt64/m {
		return numVal{overflow: true}
	}
	return numVal{i: i * m}
}

// castOverflow is the error of a value a cast to a narrow DECIMAL cannot
// hold.
func castOverflow(v *vec, p int32, from, to columnar.Type) error {
	return &exec.ExactOverflowError{Msg: fmt.Sprintf("DECIMAL value is out of range in 'CAST(%s AS %s)'", formatValue(v, p, from), to)}
}

func putNum(out *vec, p int32, nv numVal) {
	switch {
	case out.i32 != nil:
		out.i32[p] = int32(nv.i)
	case out.i64 != nil:
		out.i64[p] = nv.i
	default:
		out.f64[p] = nv.f
	}
}

// convertNum converts one non-NULL, non-string value.
func convertNum(v *vec, p int32, from, to columnar.Type) (numVal, bool) {
	var i int64
	var f float64
	isFloat := from.ID == columnar.Float64
	if isFloat {
		f = v.f64[p]
	} else {
		i = v.int64At(p)
	}
	if from.ID == columnar.Datetime || to.ID == columnar.Datetime || from.ID == columnar.Time || to.ID == columnar.Time {
		return convertDatetime(i, f, from, to)
	}
	if from.IsBigUnsigned() && i < 0 || to.IsBigUnsigned() && isFloat {
		return convertBigUnsigned(i, f, from, to)
	}
	// Dates convert through their YYYYMMDD number.
	if from.ID == columnar.Date && to.ID != columnar.Date {
		i = dateToNumber(i)
	}
	switch to.ID {
	case columnar.Float64:
		switch {
		case isFloat:
			return numVal{f: f}, true
		case from.ID == columnar.Decimal:
			return numVal{f: float64(i) / math.Pow10(from.Scale)}, true
		}
		return numVal{f: float64(i)}, true
	case columnar.Decimal:
		switch {
		case isFloat:
			// From the double's shortest text, as MySQL's double2decimal
			// (1.005e0 is 1.01 in a DECIMAL(4,2)).
			w, ok := decimal.FromFloat64(f, to.Scale)
			n, fits := decimal.Int64(w)
			if math.IsNaN(f) {
				return numVal{}, false
			}
			return numVal{i: n, overflow: !ok || !fits}, true // past int64: rerun wide
		case from.ID == columnar.Decimal && to.Scale <= from.Scale:
			return numVal{i: rescale(i, from.Scale, to.Scale)}, true
		case from.ID == columnar.Decimal:
			return scaleUp(i, to.Scale-from.Scale), true
		}
		return scaleUp(i, to.Scale), true
	case columnar.Bool:
		if isFloat {
			return numVal{i: int64(b2i(f != 0))}, true
		}
		return numVal{i: int64(b2i(i != 0))}, true
	case columnar.Date:
		if from.ID == columnar.Date {
			return numVal{i: i}, true
		}
		if isFloat {
			i = int64(f)
		} else if from.ID == columnar.Decimal {
			i = rescale(i, from.Scale, 0)
		}
		// MySQL's numeric dates: YYYYMMDD, YYMMDD, YYYYMMDDHHMMSS.
		us, ok := columnar.DatetimeFromNumber(i)
		return numVal{i: columnar.DatetimeDays(us)}, ok
	default: // integers
		clamped := false
		switch {
		case isFloat:
			i = doubleToInt(f)
			// Field_double::val_int's bounds, which note 1292.
			clamped = to.ID == columnar.Int64 && !to.Year && (f >= 9223372036854775807.0 || f <= -9223372036854775808.0)
		case from.ID == columnar.Decimal:
			i = rescale(i, from.Scale, 0)
		}
		if to.Year {
			y, ok := columnar.YearFromNumber(i)
			return numVal{i: int64(y)}, ok
		}
		if to.ID == columnar.Int32 {
			i = int64(int32(i))
		}
		return numVal{i: i, truncated: clamped}, true
	}
}

func (e *castEval) noteTruncated(s string) {
	if e.warnKey != nil {
		e.truncated, e.truncText = true, s
		return
	}
	e.warn.Add(sql.WarnTruncatedValue, castWarningText(e.to, s))
}

// castWarningText is MySQL's 1292 text for s read as a value of type t.
func castWarningText(t columnar.Type, s string) string {
	switch t.ID {
	case columnar.Date, columnar.Datetime:
		return "Incorrect datetime value: '" + s + "'"
	case columnar.Time:
		return "Incorrect time value: '" + s + "'"
	}
	return sql.TruncatedValue(numberName(t), s)
}

// parseAs converts a string to a value of type t: the longest numeric prefix
// for numbers (0 when there is none, as MySQL), 'YYYY-MM-DD' for dates.
func parseAs(s string, t columnar.Type) numVal {
	v := parseValue(s, t)
	switch {
	case t.Year:
	case t.IsInteger() || t.ID == columnar.Float64 || t.ID == columnar.Decimal:
		v.truncated = v.truncated || sql.TruncatesNumber(s, t.IsInteger())
	case t.ID == columnar.Date || t.ID == columnar.Datetime || t.ID == columnar.Time:
		v.truncated = v.truncated || v.null // not a date: NULL, noting 1292 (a TIME past its range: clamped)
	}
	return v
}

func parseValue(s string, t columnar.Type) numVal {
	s = strings.TrimSpace(s)
	switch t.ID {
	case columnar.Int32:
		if t.Year {
			y, ok, truncated := columnar.CastYear(s)
			return numVal{i: int64(y), null: !ok, truncated: truncated}
		}
	case columnar.Date:
		d, ok := parseDate(s)
		return numVal{i: d, null: !ok}
	case columnar.Datetime:
		us, ok := columnar.ParseDatetime(s, t.Scale)
		return numVal{i: us, null: !ok}
	case columnar.Time:
		us, clamped, ok := columnar.ParseTimeClamped(s, t.Scale) // 839:00:00 is 838:59:59, noting 1292
		if clamped {
			return numVal{i: us, truncated: true}
		}
		return numVal{i: us, null: !ok}
	case columnar.Float64:
		// Past DOUBLE's range MySQL's strtod gives the largest double
		// ('1e400' is 1.7976931348623157e308), not an infinity.
		f, _ := strconv.ParseFloat(numericPrefix(s, true), 64)
		if math.IsInf(f, 0) {
			f = math.Copysign(math.MaxFloat64, f)
		}
		return numVal{f: f}
	case columnar.Decimal:
		i, ok := parseDecimal(numericPrefix(s, true), t.Scale)
		return numVal{i: i, overflow: !ok}
	case columnar.Bool:
		f, _ := strconv.ParseFloat(numericPrefix(s, true), 64)
		return numVal{i: int64(b2i(f != 0))}
	}
	// An integer reads the leading digits and stops at '.' or 'e', as
	// MySQL's strtoll10 (CAST('38.8' AS SIGNED) is 38, CAST('1e3' AS
	// SIGNED) 1, each noting 1292; Item_typecast_signed::val_int_from_str).
	pre := numericPrefix(s, false)
	if t.IsBigUnsigned() && !strings.HasPrefix(pre, "-") {
		if u, err := strconv.ParseUint(strings.TrimPrefix(pre, "+"), 10, 64); err == nil {
			return numVal{i: int64(u)}
		}
	}
	i, err := strconv.ParseInt(pre, 10, 64)
	clamped := false
	if err != nil && pre != "" && pre != "-" && pre != "+" {
		f, _ := strconv.ParseFloat(pre, 64)
		switch {
		case f >= math.MaxInt64: // MySQL clamps, noting 1292
			i, clamped = math.MaxInt64, true
		case f <= math.MinInt64:
			i, clamped = math.MinInt64, true
		default:
			i = int64(f)
		}
	}
	if t.ID == columnar.Int32 {
		i = int64(int32(i))
	}
	return numVal{i: i, truncated: clamped}
}

// numericPrefix returns the longest prefix of s that reads as a number.
func numericPrefix(s string, allowFrac bool) string {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if allowFrac && i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return "0"
	}
	if allowFrac && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return strings.TrimSuffix(s[:i], ".")
}

// parseDecimal reads a decimal literal exactly into scale digits (rounding
// half away from zero); ok is false where the scaled value leaves int64.
func parseDecimal(s string, scale int) (v int64, ok bool) {
	if strings.ContainsAny(s, "eE") {
		f, _ := strconv.ParseFloat(s, 64)
		r := math.Round(f * math.Pow10(scale))
		return int64(r), math.Abs(r) < math.MaxInt64
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	ip, fp, _ := strings.Cut(s, ".")
	ip = strings.TrimLeft(ip, "0")
	if len(ip)+scale > 18 {
		return 0, false
	}
	for _, c := range ip {
		v = v*10 + int64(c-'0')
	}
	for k := 0; k < scale; k++ {
		v *= 10
		if k < len(fp) {
			v += int64(fp[k] - '0')
		}
	}
	if len(fp) > scale && fp[scale] >= '5' {
		v++
	}
	if neg {
		v = -v
	}
	return v, true
}

// formatValue renders a non-string value as MySQL prints it.
func formatValue(v *vec, p int32, t columnar.Type) string {
	switch t.ID {
	case columnar.Float64:
		switch {
		case t.Scale > 0: // fixed decimals: PI(), a FLOAT(M,D) column
			return strconv.FormatFloat(v.f64[p], 'f', t.Scale, 64)
		case t.Single: // a FLOAT column: its float32 digits
			return columnar.FormatFloat32(v.f64[p])
		}
		return formatFloat(v.f64[p])
	case columnar.Decimal:
		return columnar.ZeroFilled(formatDecimal(v.i64[p], t.Scale), t)
	case columnar.Date:
		return formatDate(v.int64At(p))
	case columnar.Datetime:
		return columnar.FormatDatetime(v.i64[p], t.Scale)
	case columnar.Time:
		return columnar.FormatTime(v.i64[p], t.Scale)
	}
	if t.Year {
		return columnar.FormatYear(v.i32[p])
	}
	if t.IsBigUnsigned() {
		return columnar.ZeroFilled(strconv.FormatUint(uint64(v.i64[p]), 10), t)
	}
	return columnar.ZeroFilled(strconv.FormatInt(v.int64At(p), 10), t)
}

// formatFloat is a DOUBLE's text as MySQL prints it (exec.FormatDouble:
// 1e301 and 1e-7, not Go's 1e+301 and 1e-07).
func formatFloat(f float64) string { return exec.FormatDouble(f) }

// formatDecimal renders a scaled integer with scale fraction digits.
func formatDecimal(v int64, scale int) string {
	if scale == 0 {
		return strconv.FormatInt(v, 10)
	}
	neg := v < 0
	u := uabs(v)
	s := strconv.FormatUint(u, 10)
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// convertDatetime converts one value to or from DATETIME: DATE and
// DATETIME with each other inline (comparisons of a DATE column with a
// DATETIME convert every row), everything else as the binder folds it.
func convertDatetime(i int64, f float64, from, to columnar.Type) (numVal, bool) {
	switch {
	case from.ID == columnar.Date && to.ID == columnar.Datetime:
		return numVal{i: i * columnar.MicrosPerDay}, true
	case from.ID == columnar.Datetime && to.ID == columnar.Date:
		return numVal{i: columnar.DatetimeDays(columnar.RoundDatetime(i, 0))}, true // MySQL rounds first
	case from.ID == columnar.Datetime && to.ID == columnar.Datetime:
		return numVal{i: columnar.RoundDatetime(i, to.Scale)}, true
	case from.ID == columnar.Datetime && to.ID == columnar.Int64:
		return numVal{i: columnar.DatetimeToNumber(columnar.RoundDatetime(i, 0))}, true
	case from.ID == columnar.Datetime && to.ID == columnar.Decimal:
		v, ok := sql.DatetimeDecimal(i, to.Scale)
		return numVal{i: v}, ok && (to.Precision <= 0 || to.Precision >= 19 || uabs(v) < uint64(pow10(to.Precision)))
	}
	ri, rf, ok := sql.ConvertDatetimeValue(i, f, from, to)
	return numVal{i: ri, f: rf}, ok
}
