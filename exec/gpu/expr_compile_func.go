//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Scalar functions and the rounding family, as exec/cpu evaluates them.

func (c *vmCompiler) fn(e *sql.Func) (reg, error) {
	switch e.Name {
	case "abs":
		if len(e.Args) != 1 {
			break
		}
		a, err := c.expr(e.Args[0])
		if err != nil {
			return reg{}, err
		}
		t := e.Args[0].Type()
		if t.ID == columnar.Float64 {
			return c.emit(vmFAbs, a.r, 0, 0, 0, 0, t)
		}
		if t.ID == columnar.String || t.ID != e.T.ID {
			break
		}
		v, err := c.emit(vmIAbs, a.r, 0, 0, 0, checkedIf(t.Physical() == columnar.PhysInt64), t)
		if err != nil {
			return v, err
		}
		return c.wrap(v, t)
	case "coalesce":
		if len(e.Args) == 0 {
			break
		}
		if e.T.ID == columnar.String {
			var vals []reg
			for _, a := range e.Args {
				if a.Type().ID != columnar.String {
					return reg{}, vmUnsupported(e, "a non-string argument of a string COALESCE")
				}
				v, err := c.expr(a)
				if err != nil {
					return reg{}, err
				}
				vals = append(vals, v)
			}
			vals, merged, err := c.unify(vals, e)
			if err != nil {
				return reg{}, err
			}
			res := vals[len(vals)-1]
			for i := len(vals) - 2; i >= 0; i-- {
				if res, err = c.emit(vmSelNN, vals[i].r, res.r, 0, 0, 0, e.T); err != nil {
					return reg{}, err
				}
			}
			res.dict = merged
			return res, nil
		}
		var regs []reg
		for _, a := range e.Args {
			v, err := c.expr(a)
			if err != nil {
				return reg{}, err
			}
			if v, err = c.cast(v, a.Type(), e.T, e); err != nil {
				return reg{}, err
			}
			regs = append(regs, v)
		}
		res := regs[len(regs)-1]
		for i := len(regs) - 2; i >= 0; i-- {
			var err error
			if res, err = c.emit(vmSelNN, regs[i].r, res.r, 0, 0, 0, e.T); err != nil {
				return reg{}, err
			}
		}
		res.t = e.T
		return res, nil
	case "datediff":
		if len(e.Args) != 2 || e.Args[0].Type().ID != columnar.Date || e.Args[1].Type().ID != columnar.Date {
			break
		}
		a, err := c.expr(e.Args[0])
		if err != nil {
			return reg{}, err
		}
		b, err := c.expr(e.Args[1])
		if err != nil {
			return reg{}, err
		}
		if a, err = c.mysqlDays(a); err != nil {
			return a, err
		}
		if b, err = c.mysqlDays(b); err != nil {
			return b, err
		}
		v, err := c.emit(vmISub, a.r, b.r, 0, 0, 0, e.T)
		if err != nil {
			return v, err
		}
		return c.wrap(v, e.T)
	case "round", "floor", "ceil":
		return c.rounding(e)
	case "year", "month", "day":
		if len(e.Args) != 1 || e.Args[0].Type().ID != columnar.Date {
			break
		}
		a, err := c.expr(e.Args[0])
		if err != nil {
			return reg{}, err
		}
		op := map[string]int{"year": vmYear, "month": vmMonth, "day": vmDay}[e.Name]
		v, err := c.emit(op, a.r, 0, 0, 0, 0, e.T)
		if err != nil {
			return v, err
		}
		return c.wrap(v, e.T)
	}
	return reg{}, vmUnsupported(e, fmt.Sprintf("function %s() is not supported on the GPU yet", e.Name))
}

// rounding is exec/cpu's round(x[, d]), floor(x) and ceil(x): doubles
// round half to even (rint), decimals and integers half away from zero;
// d must be a literal.
func (c *vmCompiler) rounding(e *sql.Func) (reg, error) {
	if len(e.Args) == 0 || len(e.Args) > 2 || (e.Name != "round" && len(e.Args) != 1) {
		return reg{}, vmUnsupported(e, "arguments of "+e.Name+"()")
	}
	d := int64(0)
	if len(e.Args) == 2 {
		k, ok := e.Args[1].(*sql.Const)
		if !ok || k.T.ID == columnar.Float64 || k.T.ID == columnar.String {
			return reg{}, vmUnsupported(e, "a rounding precision that is not an integer literal")
		}
		if k.Null {
			return c.emit(vmConst, 0, 1, 0, 0, 0, e.T)
		}
		d = k.I
	}
	x, err := c.expr(e.Args[0])
	if err != nil {
		return reg{}, err
	}
	xt, t := e.Args[0].Type(), e.T
	if t.ID == columnar.String || xt.ID == columnar.String || xt.ID == columnar.Date {
		return reg{}, vmUnsupported(e, "argument type")
	}
	if xt.ID == columnar.Float64 {
		var v reg
		switch e.Name {
		case "floor":
			v, err = c.emit(vmFFloor, x.r, 0, 0, 0, 0, xt)
		case "ceil":
			v, err = c.emit(vmFCeil, x.r, 0, 0, 0, 0, xt)
		default:
			v, err = c.emit(vmFRound, x.r, 0, 0, fbits(math.Pow10(int(d))), 0, xt)
		}
		if err != nil || t.ID == columnar.Float64 {
			return v, err
		}
		if t.ID == columnar.Decimal {
			return reg{}, vmUnsupported(e, "a DECIMAL result of a DOUBLE")
		}
		v, err = c.emit(vmF2I, v.r, 0, 0, 0, 0, t)
		if err != nil {
			return v, err
		}
		return c.wrap(v, t)
	}
	s := xt.DecimalScale()
	var r reg
	rs := 0
	switch e.Name {
	case "floor", "ceil":
		op := vmDFloor
		if e.Name == "ceil" {
			op = vmDCeil
		}
		if r, err = c.emit(op, x.r, 0, 0, pow10(s), 0, t); err != nil {
			return r, err
		}
	default:
		keep := int(d)
		if keep >= s {
			r, rs = x, s
		} else {
			drop := s - keep
			if drop > 18 {
				// 0, keeping x's NULLs.
				if r, err = c.emit(vmMulK, x.r, 0, 0, 0, 0, t); err != nil {
					return r, err
				}
			} else {
				if r, err = c.emit(vmDivRoundK, x.r, 0, 0, pow10(drop), 0, t); err != nil {
					return r, err
				}
				if m := max(0, -keep); m > 0 {
					if r, err = c.emit(vmMulK, r.r, 0, 0, pow10(m), 0, t); err != nil {
						return r, err
					}
				}
			}
			rs = max(keep, 0)
		}
	}
	switch t.ID {
	case columnar.Decimal:
		return c.rescale(r, rs, t.Scale, t)
	case columnar.Float64:
		return c.emit(vmDec2F, r.r, 0, 0, fbits(math.Pow10(rs)), 0, t)
	}
	v, err := c.rescale(r, rs, 0, t)
	if err != nil {
		return v, err
	}
	return c.wrap(v, t)
}

// mapColRefs copies e with every column reference replaced by fn's result.
func mapColRefs(e sql.Expr, fn func(*sql.ColRef) sql.Expr) sql.Expr {
	switch x := e.(type) {
	case *sql.ColRef:
		return fn(x)
	case *sql.Binary:
		c := *x
		c.L, c.R = mapColRefs(x.L, fn), mapColRefs(x.R, fn)
		return &c
	case *sql.Not:
		return &sql.Not{E: mapColRefs(x.E, fn)}
	case *sql.Neg:
		return &sql.Neg{E: mapColRefs(x.E, fn)}
	case *sql.IsNull:
		c := *x
		c.E = mapColRefs(x.E, fn)
		return &c
	case *sql.InList:
		c := *x
		c.E = mapColRefs(x.E, fn)
		c.List = nil
		for _, it := range x.List {
			c.List = append(c.List, mapColRefs(it, fn))
		}
		return &c
	case *sql.Like:
		c := *x
		c.E = mapColRefs(x.E, fn)
		return &c
	case *sql.CodeSet:
		c := *x
		r, ok := mapColRefs(x.E, fn).(*sql.ColRef)
		if !ok {
			// A CodeSet tests a column's codes; over a computed string it
			// has no meaning on the device, and the compiler says so.
			return &sql.Func{Name: "codeset over an expression", T: columnar.TBool}
		}
		c.E = r
		return &c
	case *sql.Case:
		c := *x
		c.Whens = nil
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, sql.When{Cond: mapColRefs(w.Cond, fn), Result: mapColRefs(w.Result, fn)})
		}
		if x.Else != nil {
			c.Else = mapColRefs(x.Else, fn)
		}
		return &c
	case *sql.Cast:
		c := *x
		c.E = mapColRefs(x.E, fn)
		return &c
	case *sql.Func:
		c := *x
		c.Args = nil
		for _, a := range x.Args {
			c.Args = append(c.Args, mapColRefs(a, fn))
		}
		return &c
	}
	return e
}

// yearZeroMarch is 0000-03-01 in days from 1970-01-01 (exec/cpu's).
var yearZeroMarch = columnar.DaysFromCivil(0, 3, 1)

// mysqlDays shifts date d to MySQL's day numbers less a constant: they
// give year 0 no February 29 (calc_daynr), so a date before 0000-03-01
// counts one day later, as the CPU's DATEDIFF counts it.
func (c *vmCompiler) mysqlDays(d reg) (reg, error) {
	march, err := c.emit(vmConst, 0, 0, 0, yearZeroMarch, 0, d.t)
	if err != nil {
		return march, err
	}
	before, err := c.emit(vmICmp, d.r, march.r, 0, cmpCode[sql.OpLT], 0, columnar.TBool)
	if err != nil {
		return before, err
	}
	return c.emit(vmIAdd, d.r, before.r, 0, 0, 0, d.t)
}
