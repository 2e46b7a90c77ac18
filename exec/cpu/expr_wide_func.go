package cpu

import (
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Math functions of a wide DECIMAL argument, exact: ABS, SIGN, ROUND(x,
// d) and TRUNCATE(x, d) (half away from zero / toward zero at d digits,
// d < 0 included), FLOOR and CEIL; GREATEST and LEAST of wide values. The
// result is written as the binder's type (wide, a narrow DECIMAL, or an
// integer). The other row functions (sql/functions_more.go) read a wide
// argument as a DOUBLE, and a wide result is computed as one: see
// compileRowFunc.

var wideFuncs = map[string]bool{"abs": true, "sign": true, "round": true, "truncate": true, "floor": true, "ceil": true}

// wideFuncEval computes one of wideFuncs over a wide argument.
type wideFuncEval struct {
	name   string
	in     evaluator
	digits int // ROUND and TRUNCATE's constant d
	from   columnar.Type
	t      columnar.Type
	out    *vec
	expr   sql.Expr
}

// compileWideFunc compiles e when it is one of wideFuncs of a wide
// argument (ok false otherwise).
func (c *compiler) compileWideFunc(e *sql.Func) (evaluator, bool, error) {
	if (e.Name == "greatest" || e.Name == "least") && e.T.IsWide() {
		return c.compileWideExtreme(e)
	}
	if !wideFuncs[e.Name] || len(e.Args) == 0 || !e.Args[0].Type().IsWide() {
		return nil, false, nil
	}
	in, err := c.compile(e.Args[0])
	if err != nil {
		return nil, true, err
	}
	f := &wideFuncEval{name: e.Name, in: in, from: e.Args[0].Type(), t: e.T, out: newVec(e.T), expr: e}
	if len(e.Args) > 1 {
		if k, ok := e.Args[1].(*sql.Const); ok {
			f.digits = int(max(min(k.I, 60), -70))
		}
	}
	return f, true, nil
}

func (f *wideFuncEval) eval(b *batch, sel []int32) *vec {
	v := f.in.eval(b, sel)
	out := f.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, v, nil)
	s := f.from.Scale
	for _, p := range sel {
		if out.isNull(p) {
			continue
		}
		x := v.w[p]
		var r decimal.Num
		rs := 0 // r's scale
		switch f.name {
		case "abs":
			r, rs = x.Abs(), s
		case "sign":
			r = decimal.FromInt64(int64(x.Sign()))
		case "floor":
			r = decimal.Floor(x, s)
		case "ceil":
			r = decimal.Ceil(x, s)
		case "round":
			r, rs = roundWide(x, s, f.digits, false), s
		case "truncate":
			r, rs = roundWide(x, s, f.digits, true), s
		}
		if !putWide(out, p, r, rs, f.t) {
			raise(outOfRange("DECIMAL", f.expr))
		}
	}
	return out
}

// roundWide rounds (or truncates) x at scale s to d fraction digits (d <
// 0: to tens, hundreds...), keeping scale s.
func roundWide(x decimal.Num, s, d int, truncate bool) decimal.Num {
	if d >= s {
		return x
	}
	var r decimal.Num
	if truncate {
		r = decimal.Truncate(x, s, d)
	} else {
		r, _ = decimal.Rescale(x, s, d)
	}
	r, _ = decimal.Rescale(r, d, s)
	return r
}

// putWide writes v at scale vs into out[p] as type t; false when it does
// not fit.
func putWide(out *vec, p int32, v decimal.Num, vs int, t columnar.Type) bool {
	r, ok := decimal.Rescale(v, vs, t.DecimalScale())
	if !ok {
		return false
	}
	switch {
	case out.w != nil:
		out.w[p] = r
		return decimal.Fits(r, decimal.MaxPrecision)
	case out.f64 != nil:
		out.f64[p] = decimal.Float64(r, t.DecimalScale())
		return true
	}
	n, ok := decimal.Int64(r)
	if out.i32 != nil {
		out.i32[p] = int32(n)
		return ok && int64(int32(n)) == n
	}
	out.i64[p] = n
	return ok
}

// wideExtremeEval is GREATEST or LEAST of arguments the binder cast to
// one wide type: NULL when any is NULL (MySQL).
type wideExtremeEval struct {
	greatest bool
	args     []evaluator
	out      *vec
	vs       []*vec
}

func (c *compiler) compileWideExtreme(e *sql.Func) (evaluator, bool, error) {
	f := &wideExtremeEval{greatest: e.Name == "greatest", out: newVec(e.T)}
	for _, a := range e.Args {
		ev, err := c.compile(a)
		if err != nil {
			return nil, true, err
		}
		f.args = append(f.args, c.castTo(ev, a.Type(), e.T))
	}
	f.vs = make([]*vec, len(f.args))
	return f, true, nil
}

func (f *wideExtremeEval) eval(b *batch, sel []int32) *vec {
	out := f.out
	out.ensure(b.n)
	for i, a := range f.args {
		f.vs[i] = a.eval(b, sel)
	}
	for _, p := range sel {
		best, null := decimal.Num{}, false
		for i, v := range f.vs {
			if v.isNull(p) {
				null = true
				break
			}
			if c := decimal.Cmp(v.w[p], best); i == 0 || f.greatest && c > 0 || !f.greatest && c < 0 {
				best = v.w[p]
			}
		}
		if null {
			out.setNull(b.n, p)
			continue
		}
		out.w[p] = best
	}
	return out
}
