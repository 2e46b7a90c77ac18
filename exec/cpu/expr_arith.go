package cpu

import (
	"math"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

func (c *compiler) compileBinary(e *sql.Binary) (evaluator, error) {
	switch e.Op {
	case sql.OpAnd, sql.OpOr:
		l, err := c.compile(e.L)
		if err != nil {
			return nil, err
		}
		r, err := c.compile(e.R)
		if err != nil {
			return nil, err
		}
		return &logicEval{and: e.Op == sql.OpAnd, l: l, r: r, out: newVec(columnar.TBool)}, nil
	case sql.OpEQ, sql.OpNE, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
		l, r, t, err := c.compileOperands(e.L, e.R)
		if err != nil {
			return nil, err
		}
		return &cmpEval{op: e.Op, l: l, r: r, t: t, out: newVec(columnar.TBool)}, nil
	}
	return c.compileArith(e)
}

// arithMode is the domain an arithmetic operator computes in.
type arithMode uint8

const (
	arithInt     arithMode = iota // integers of the result's width
	arithFloat                    // doubles
	arithDecimal                  // scaled int64 with per-operand scales
)

// arithEval computes +, -, *, /, DIV and %.
type arithEval struct {
	op     sql.BinOp
	l, r   evaluator
	mode   arithMode
	sl, sr int // operand scales (decimal mode)
	t      columnar.Type
	out    *vec
	expr   sql.Expr // named by the out-of-range error
	// warn collects MySQL's 1365 Division by 0 for each row divided by
	// zero (/, DIV and %, whose value is then NULL).
	warn *sql.Warnings
}

func (c *compiler) compileArith(e *sql.Binary) (evaluator, error) {
	if e.T.ID == columnar.Vector {
		return c.compileVectorArith(e)
	}
	if isWideArith(e) {
		return c.compileWideArith(e)
	}
	l, err := c.compile(e.L)
	if err != nil {
		return nil, err
	}
	r, err := c.compile(e.R)
	if err != nil {
		return nil, err
	}
	lt, rt, t := e.L.Type(), e.R.Type(), e.T
	if t.ID == columnar.Int64 && (t.Unsigned || lt.Unsigned || rt.Unsigned) {
		var warn *sql.Warnings
		if c.x != nil {
			warn = c.x.warn
		}
		return newUnsignedArith(e, l, r, warn), nil
	}
	a := &arithEval{op: e.Op, t: t, out: newVec(t), expr: e}
	if c.x != nil && (e.Op == sql.OpDiv || e.Op == sql.OpIntDiv || e.Op == sql.OpMod) {
		a.warn = c.x.warn
	}
	switch {
	case t.ID == columnar.Float64 || lt.ID == columnar.Float64 || rt.ID == columnar.Float64:
		a.mode = arithFloat
		a.l, a.r = c.castTo(l, lt, columnar.TFloat64), c.castTo(r, rt, columnar.TFloat64)
	case t.ID == columnar.Decimal || lt.ID == columnar.Decimal || rt.ID == columnar.Decimal ||
		e.Op == sql.OpDiv:
		a.mode = arithDecimal
		a.sl, a.sr = lt.DecimalScale(), rt.DecimalScale()
		a.l = c.castTo(l, lt, columnar.TDecimalScaled(a.sl))
		a.r = c.castTo(r, rt, columnar.TDecimalScaled(a.sr))
	default:
		a.mode = arithInt
		w := columnar.TInt64
		if t.Physical() == columnar.PhysInt32 {
			w = t
		}
		a.l, a.r = c.castTo(l, lt, w), c.castTo(r, rt, w)
		if t.Physical() != w.Physical() {
			// e.g. Date +/- integer handled in the wider domain then cast.
			return c.castTo(a, w, t), nil
		}
		a.t = w
		a.out = newVec(w)
	}
	if a.mode == arithDecimal && t.ID != columnar.Decimal {
		// The result type is an integer or double: compute as a decimal of
		// the larger operand scale and convert.
		dt := columnar.TDecimalScaled(max(a.sl, a.sr))
		if e.Op == sql.OpDiv {
			dt = columnar.TDecimalScaled(max(a.sl, a.sr) + 4)
		}
		a.t, a.out = dt, newVec(dt)
		return c.castTo(a, dt, t), nil
	}
	return a, nil
}

func (e *arithEval) eval(b *batch, sel []int32) *vec {
	lv, rv := e.l.eval(b, sel), e.r.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, lv, rv)
	switch e.mode {
	case arithFloat:
		e.evalFloat(b, sel, lv.f64, rv.f64)
	case arithDecimal:
		e.evalDecimal(b, sel, lv.i64, rv.i64)
	default:
		if lv.i32 != nil {
			evalIntArith(e.op, out, b.n, sel, lv.i32, rv.i32, out.i32)
		} else if checkedInt64Arith(e.op, out, b.n, sel, lv.i64, rv.i64, out.i64) {
			raise(outOfRange("BIGINT", e.expr))
		}
	}
	if e.warn != nil {
		e.noteDivisionsByZero(sel, lv, rv)
	}
	return out
}

// noteDivisionsByZero notes 1365 for the rows whose operands are both
// values and whose quotient or remainder is NULL: the divisor was zero.
func (e *arithEval) noteDivisionsByZero(sel []int32, lv, rv *vec) {
	if e.out.nulls == nil {
		return // no NULL at all: nothing was divided by zero
	}
	for _, p := range sel {
		if e.out.isNull(p) && !lv.isNull(p) && !rv.isNull(p) {
			e.warn.Add(sql.WarnDivisionByZero, "Division by 0")
		}
	}
}

func evalIntArith[T int32 | int64](op sql.BinOp, out *vec, n int, sel []int32, a, b, o []T) {
	switch op {
	case sql.OpAdd:
		for _, p := range sel {
			o[p] = a[p] + b[p]
		}
	case sql.OpSub:
		for _, p := range sel {
			o[p] = a[p] - b[p]
		}
	case sql.OpMul:
		for _, p := range sel {
			o[p] = a[p] * b[p]
		}
	case sql.OpIntDiv, sql.OpDiv:
		for _, p := range sel {
			if b[p] == 0 {
				out.setNull(n, p)
				continue
			}
			if b[p] == -1 {
				o[p] = -a[p]
				continue
			}
			o[p] = a[p] / b[p]
		}
	case sql.OpMod:
		for _, p := range sel {
			if b[p] == 0 {
				out.setNull(n, p)
				continue
			}
			if b[p] == -1 {
				o[p] = 0
				continue
			}
			o[p] = a[p] % b[p]
		}
	}
}

func (e *arithEval) evalFloat(b *batch, sel []int32, x, y []float64) {
	o := e.out.f64
	switch e.op {
	case sql.OpAdd:
		for _, p := range sel {
			o[p] = x[p] + y[p]
		}
	case sql.OpSub:
		for _, p := range sel {
			o[p] = x[p] - y[p]
		}
	case sql.OpMul:
		for _, p := range sel {
			o[p] = x[p] * y[p]
		}
	case sql.OpDiv, sql.OpIntDiv:
		for _, p := range sel {
			if y[p] == 0 {
				e.out.setNull(b.n, p)
				continue
			}
			o[p] = x[p] / y[p]
			if e.op == sql.OpIntDiv {
				o[p] = math.Trunc(o[p])
			}
		}
	case sql.OpMod:
		for _, p := range sel {
			if y[p] == 0 {
				e.out.setNull(b.n, p)
				continue
			}
			o[p] = math.Mod(x[p], y[p])
		}
		return // a remainder is never larger than its operand
	}
	if nonFinite(e.out, sel, o) {
		raise(outOfRange("DOUBLE", e.expr))
	}
}

// evalDecimal computes on scaled int64s. A result the int64 cannot hold
// is MySQL's "DECIMAL value is out of range" (gpusql's decimals have at
// most 18 digits where MySQL's have 65); division by zero is NULL.
func (e *arithEval) evalDecimal(b *batch, sel []int32, x, y []int64) {
	o := e.out.i64
	st := e.t.Scale
	sl, sr := e.sl, e.sr
	switch e.op {
	case sql.OpAdd, sql.OpSub:
		s := max(sl, sr)
		if sl == sr && st == s {
			// Equal scales: the BIGINT loop and its overflow test.
			if checkedInt64Arith(e.op, e.out, b.n, sel, x, y, o) {
				raise(decimalOverflow(e.expr))
			}
			return
		}
		ml, mr := pow10(s-sl), pow10(s-sr)
		for _, p := range sel {
			a, c := x[p]*ml, y[p]*mr
			var v int64
			if e.op == sql.OpSub {
				v = a - c
			} else {
				v = a + c
			}
			if !e.out.isNull(p) && (mulOverflows(x[p], ml) || mulOverflows(y[p], mr) ||
				e.op == sql.OpAdd && addOverflows(a, c) || e.op == sql.OpSub && subOverflows(a, c)) {
				raise(decimalOverflow(e.expr))
			}
			o[p] = rescale(v, s, st)
		}
	case sql.OpMul:
		e.evalDecimalMul(b, sel, x, y, sl+sr, st)
	case sql.OpDiv:
		for _, p := range sel {
			v, ok := decimalDiv(x[p], y[p], sl, sr, st)
			if !ok {
				if y[p] != 0 && !e.out.isNull(p) {
					raise(decimalOverflow(e.expr))
				}
				e.out.setNull(b.n, p)
			}
			o[p] = v
		}
	case sql.OpIntDiv, sql.OpMod:
		s := max(sl, sr)
		ml, mr := pow10(s-sl), pow10(s-sr)
		for _, p := range sel {
			d := y[p] * mr
			if d == 0 {
				e.out.setNull(b.n, p)
				continue
			}
			if !e.out.isNull(p) && (mulOverflows(x[p], ml) || mulOverflows(y[p], mr)) {
				raise(decimalOverflow(e.expr))
			}
			if e.op == sql.OpMod {
				o[p] = rescale((x[p]*ml)%d, s, st)
				continue
			}
			q := x[p] * ml / d
			if !e.out.isNull(p) && mulOverflows(q, pow10(st)) {
				raise(decimalOverflow(e.expr))
			}
			o[p] = q * pow10(st)
		}
	}
}

// evalDecimalMul multiplies decimals whose product has scale s into the
// result's scale st: exact when s = st, through a 128-bit product rounded
// half away from zero when digits are dropped.
func (e *arithEval) evalDecimalMul(b *batch, sel []int32, x, y []int64, s, st int) {
	o := e.out.i64
	switch {
	case s == st:
		if checkedInt64Arith(sql.OpMul, e.out, b.n, sel, x, y, o) {
			raise(decimalOverflow(e.expr))
		}
	case s > st:
		for _, p := range sel {
			v, ok := mulDivRound(x[p], y[p], pow10(s-st))
			if !ok && !e.out.isNull(p) {
				raise(decimalOverflow(e.expr))
			}
			o[p] = v
		}
	default:
		m := pow10(st - s)
		for _, p := range sel {
			v := x[p] * y[p]
			if !e.out.isNull(p) && (mulOverflows(x[p], y[p]) || mulOverflows(v, m)) {
				raise(decimalOverflow(e.expr))
			}
			o[p] = v * m
		}
	}
}

// negEval is arithmetic negation.
type negEval struct {
	in   evaluator
	out  *vec
	expr *sql.Neg // named by the out-of-range error
	kind string   // BIGINT or DECIMAL
}

func (e *negEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, v, nil)
	switch {
	case v.i32 != nil:
		for _, p := range sel {
			out.i32[p] = -v.i32[p]
		}
	case v.i64 != nil:
		if checkedNeg(out, sel, v.i64, out.i64) {
			raise(outOfRange(e.kind, e.expr))
		}
	default:
		for _, p := range sel {
			out.f64[p] = -v.f64[p]
		}
	}
	return out
}
