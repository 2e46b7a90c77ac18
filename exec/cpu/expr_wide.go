package cpu

import (
	"gpusql/exec"
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"math"
	"math/big"
	"strings"
)

// Wide DECIMAL evaluation (more than 18 digits, internal/decimal): casts
// to and from every numeric type and strings, arithmetic whose result or
// operand is wide, and comparisons in the wide domain. Operands keep their
// own types; each row is read as an unscaled wide value at its own scale
// (wideAt), so a narrow or integer operand needs no cast first. A result
// that does not fit is MySQL's error 1690 "DECIMAL value is out of range".

// wideAt reads position p of a DECIMAL or integer vector as an unscaled
// wide value at t's scale (BIGINT UNSIGNED bit patterns included).
func wideAt(v *vec, t columnar.Type, p int32) decimal.Num {
	switch {
	case v.w != nil:
		return v.w[p]
	case t.IsBigUnsigned():
		return decimal.FromUint64(uint64(v.i64[p]))
	}
	return decimal.FromInt64(v.int64At(p))
}

// isWideOperand reports types wideAt reads.
func isWideOperand(t columnar.Type) bool {
	return t.ID == columnar.Decimal || t.IsInteger() || t.ID == columnar.Bool
}

// wideCastEval converts to or from a wide DECIMAL; a value that does not
// fit the target is NULL (as the narrow casts do).
type wideCastEval struct {
	in       evaluator
	from, to columnar.Type
	out      *vec
	sb       stringBuilder
	// warn collects 1292 for a string read as a number in part; a
	// literal's cast notes it once under warnKey.
	warn    *sql.Warnings
	warnKey *sql.Const
	clamp   bool // a written CAST AS SIGNED or UNSIGNED: cast_decimal_signed.go
}

func (e *wideCastEval) noteTruncated(s string) {
	msg := castWarningText(e.to, s)
	if e.warnKey != nil {
		e.warn.AddOnce(e.warnKey, sql.WarnTruncatedValue, msg)
		return
	}
	e.warn.Add(sql.WarnTruncatedValue, msg)
}

func (e *wideCastEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, v, nil)
	if e.to.ID == columnar.String {
		e.sb.reset(b.n)
		for _, p := range sel {
			if v.isNull(p) {
				e.sb.setNull(p)
				continue
			}
			e.sb.set(p, decimal.Format(v.w[p], e.from.Scale))
		}
		e.sb.finish(out, sel)
		return out
	}
	for _, p := range sel {
		if v.isNull(p) {
			continue
		}
		if !e.convert(v, p, out) && !e.saturate(v, p, out) {
			out.setNull(b.n, p)
		}
	}
	return out
}

// convert writes v[p] converted into out[p]; false when it does not fit.
func (e *wideCastEval) convert(v *vec, p int32, out *vec) bool {
	from, to := e.from, e.to
	if to.IsWide() {
		var w decimal.Num
		ok := true
		switch {
		case from.ID == columnar.Float64:
			w, ok = decimal.FromFloat64(v.f64[p], to.Scale)
			if f := v.f64[p]; !ok && !math.IsNaN(f) {
				// Past 76 digits (1e300): past the largest DECIMAL,
				// as MySQL's double2decimal overflows.
				w, ok = largestWide(f < 0), true
			}
		case from.ID == columnar.String:
			// The longest numeric prefix, 0 where there is none, as the
			// narrow cast reads it (1292 where that is not all of it).
			text := v.stringAt(p)
			if sql.TruncatesNumber(text, false) {
				e.noteTruncated(text)
			}
			w, _, err := decimal.Parse(numericPrefix(strings.TrimSpace(text), true), to.Scale)
			if err != nil {
				return false
			}
			out.w[p] = w
			return decimal.Fits(w, to.Precision)
		default:
			w, ok = decimal.Rescale(wideAt(v, from, p), from.DecimalScale(), to.Scale)
		}
		out.w[p] = w
		return ok && decimal.Fits(w, to.Precision)
	}
	w := v.w[p]
	switch {
	case to.ID == columnar.Float64:
		out.f64[p] = decimal.Float64(w, from.Scale)
		return true
	case to.ID == columnar.Bool:
		out.i32[p] = b2i(w.Sign() != 0)
		return true
	case to.IsBigUnsigned():
		r, _ := decimal.Rescale(w, from.Scale, 0)
		u, ok := decimal.Uint64(r)
		out.i64[p] = int64(u)
		return ok
	}
	r, _ := decimal.Rescale(w, from.Scale, to.DecimalScale())
	n, ok := decimal.Int64(r)
	if !ok {
		return false
	}
	if lo, hi, bounded := to.IntBounds(); bounded {
		ok = n >= lo && n <= hi
	} else if to.ID == columnar.Decimal && to.Precision > 0 {
		ok = uabs(n) < uint64(pow10(to.Precision))
	}
	if out.i32 != nil {
		out.i32[p] = int32(n)
	} else {
		out.i64[p] = n
	}
	return ok
}

// wideArithEval computes + - * / % DIV where an operand or the result is
// a wide DECIMAL, in the wide domain, converting the result to e.t.
type wideArithEval struct {
	op     sql.BinOp
	l, r   evaluator
	lt, rt columnar.Type
	t      columnar.Type
	out    *vec
	expr   sql.Expr
	warn   *sql.Warnings
}

func (c *compiler) compileWideArith(e *sql.Binary) (evaluator, error) {
	l, err := c.compile(e.L)
	if err != nil {
		return nil, err
	}
	r, err := c.compile(e.R)
	if err != nil {
		return nil, err
	}
	a := &wideArithEval{op: e.Op, l: l, r: r, lt: e.L.Type(), rt: e.R.Type(), t: e.T, out: newVec(e.T), expr: e}
	if c.x != nil {
		a.warn = c.x.warn
	}
	return a, nil
}

// isWideArith reports a Binary the wide evaluator computes.
func isWideArith(e *sql.Binary) bool {
	if !e.T.IsWide() && !e.L.Type().IsWide() && !e.R.Type().IsWide() {
		return false
	}
	return isWideOperand(e.L.Type()) && isWideOperand(e.R.Type())
}

func (e *wideArithEval) eval(b *batch, sel []int32) *vec {
	lv, rv := e.l.eval(b, sel), e.r.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, lv, rv)
	sl, sr := e.lt.DecimalScale(), e.rt.DecimalScale()
	for _, p := range sel {
		if out.isNull(p) {
			continue
		}
		x, y := wideAt(lv, e.lt, p), wideAt(rv, e.rt, p)
		v, ok, zero := e.compute(x, y, sl, sr)
		if zero {
			out.setNull(b.n, p)
			if e.warn != nil {
				e.warn.Add(sql.WarnDivisionByZero, "Division by 0")
			}
			continue
		}
		if !ok || !e.store(out, p, v) {
			kind := "DECIMAL"
			if e.t.ID == columnar.Int64 {
				kind = "BIGINT"
			}
			raise(outOfRange(kind, e.expr))
		}
	}
	return out
}

// compute is x op y for scales sl and sr, at the result's scale (0 for
// DIV); zero reports a division by zero.
func (e *wideArithEval) compute(x, y decimal.Num, sl, sr int) (v decimal.Num, ok, zero bool) {
	st := e.t.DecimalScale()
	switch e.op {
	case sql.OpAdd, sql.OpSub:
		s := max(sl, sr)
		x, _ = decimal.Rescale(x, sl, s)
		y, _ = decimal.Rescale(y, sr, s)
		if e.op == sql.OpAdd {
			v = decimal.Add(x, y)
		} else {
			v = decimal.Sub(x, y)
		}
		v, ok = decimal.Rescale(v, s, st)
		return v, ok, false
	case sql.OpMul:
		if v, ok = decimal.Mul(x, y); !ok {
			return v, false, false
		}
		v, ok = decimal.Rescale(v, sl+sr, st)
		return v, ok, false
	case sql.OpDiv:
		if y.Sign() == 0 {
			return v, false, true
		}
		v, ok = decimal.DivTrunc(x, y, sl, sr, st) // MySQL cuts a quotient
		return v, ok, false
	case sql.OpIntDiv:
		if y.Sign() == 0 {
			return v, false, true
		}
		v, ok = decimal.IntDiv(x, y, sl, sr)
		return v, ok, false
	case sql.OpMod:
		if y.Sign() == 0 {
			return v, false, true
		}
		s := max(sl, sr)
		x, _ = decimal.Rescale(x, sl, s)
		y, _ = decimal.Rescale(y, sr, s)
		v, ok = decimal.Mod(x, y)
		if ok {
			v, ok = decimal.Rescale(v, s, st)
		}
		return v, ok, false
	}
	return v, false, false
}

// store writes v (at the result's scale) into out[p] as e.t; false when
// it does not fit (more digits than 65 for a wide result).
func (e *wideArithEval) store(out *vec, p int32, v decimal.Num) bool {
	switch {
	case out.w != nil:
		out.w[p] = v
		return decimal.Fits(v, decimal.MaxPrecision)
	case out.f64 != nil:
		out.f64[p] = decimal.Float64(v, e.t.DecimalScale())
		return true
	}
	n, ok := decimal.Int64(v)
	if out.i32 != nil {
		out.i32[p] = int32(n)
		return ok && int64(int32(n)) == n
	}
	out.i64[p] = n
	return ok
}

// wideNegEval is -x for a wide DECIMAL.
type wideNegEval struct {
	in  evaluator
	out *vec
}

func (e *wideNegEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, v, nil)
	for _, p := range sel {
		out.w[p] = decimal.Neg(v.w[p])
	}
	return out
}

// cmpWide compares wide vectors of one scale.
func cmpWide(op sql.BinOp, a, b []decimal.Num, sel []int32, out []int32) {
	for _, p := range sel {
		c := decimal.Cmp(a[p], b[p])
		var r bool
		switch op {
		case sql.OpEQ:
			r = c == 0
		case sql.OpNE:
			r = c != 0
		case sql.OpLT:
			r = c < 0
		case sql.OpLE:
			r = c <= 0
		case sql.OpGT:
			r = c > 0
		case sql.OpGE:
			r = c >= 0
		}
		out[p] = b2i(r)
	}
}

// wideCast is castWarning for a wide source or target; a literal is
// converted once.
func wideCast(ev evaluator, from, to columnar.Type, warn *sql.Warnings) evaluator {
	return wideCastClamp(ev, from, to, warn, false)
}

// wideCastClamp is wideCast; clamp: see wideCastEval.saturate.
func wideCastClamp(ev evaluator, from, to columnar.Type, warn *sql.Warnings, clamp bool) evaluator {
	ce := &wideCastEval{in: ev, from: from, to: to, out: newVec(to), warn: warn, clamp: clamp}
	k, ok := isConst(ev)
	if !ok {
		return ce
	}
	ce.warnKey = k
	b := &batch{n: 1, sel: identSel[:1]}
	v := ce.eval(b, b.sel)
	lit := &sql.Const{T: to, Null: k.Null || v.isNull(0)}
	if !lit.Null {
		switch {
		case to.ID == columnar.String:
			lit.S = v.stringAt(0)
		case v.w != nil:
			lit.W = v.w[0]
		case v.f64 != nil:
			lit.F = v.f64[0]
		default:
			lit.I = v.int64At(0)
		}
	}
	return newConstEval(lit)
}

// wideCastVia is wideCast for the conversions it computes itself
// (numbers, strings, booleans); a DATE, DATETIME, TIME or YEAR goes to or
// comes from a wide DECIMAL through the narrow conversions (YYYYMMDD,
// YYYYMMDDhhmmss.ffffff, ...): a narrow DECIMAL of at most 6 fraction
// digits one way, a DOUBLE the other.
func wideCastVia(ev evaluator, from, to columnar.Type, warn *sql.Warnings) evaluator {
	direct := func(t columnar.Type) bool {
		return t.ID == columnar.Decimal || t.IsInteger() || t.ID == columnar.Float64 || t.ID == columnar.String && !t.JSON || t.ID == columnar.Bool
	}
	switch {
	case direct(from) && direct(to) && !from.Year && !to.Year:
		return wideCast(ev, from, to, warn)
	case to.IsWide():
		mid := columnar.TDecimal(decimal.NarrowPrecision, min(to.Scale, columnar.MaxFsp))
		return wideCast(castWarning(ev, from, mid, warn), mid, to, warn)
	}
	return castWarning(wideCast(ev, from, columnar.TFloat64, warn), columnar.TFloat64, to, warn)
}

// decimalOverflow is the error of narrow DECIMAL arithmetic whose result
// leaves its int64: MySQL's 1690, marked so that the engine reruns the
// statement with MySQL's (wide) types (exec.ErrExactOverflow).
func decimalOverflow(e sql.Expr) error {
	return &exec.ExactOverflowError{Msg: outOfRange("DECIMAL", e).Error()}
}

// largestWide is ±(10^76 - 1), past every DECIMAL MySQL declares (65
// digits): a cast to one notes it out of range (clips it, or NULL).
func largestWide(negative bool) decimal.Num {
	m := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(76), nil), big.NewInt(1))
	if negative {
		m.Neg(m)
	}
	w, _ := decimal.FromBig(m)
	return w
}
