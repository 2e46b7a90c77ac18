//go:build cuda

package gpu

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Comparisons and arithmetic, in the domains exec/cpu computes them in:
// double, scaled decimal (checked) or integer.

func (c *vmCompiler) binary(e *sql.Binary) (reg, error) {
	switch e.Op {
	case sql.OpAnd, sql.OpOr:
		l, err := c.expr(e.L)
		if err != nil {
			return reg{}, err
		}
		r, err := c.expr(e.R)
		if err != nil {
			return reg{}, err
		}
		op := vmAnd
		if e.Op == sql.OpOr {
			op = vmOr
		}
		return c.emit(op, l.r, r.r, 0, 0, 0, columnar.TBool)
	case sql.OpEQ, sql.OpNE, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
		l, err := c.expr(e.L)
		if err != nil {
			return reg{}, err
		}
		r, err := c.expr(e.R)
		if err != nil {
			return reg{}, err
		}
		return c.compare(e, e.Op, l, r, e.L.Type(), e.R.Type())
	}
	return c.arith(e)
}

var cmpCode = map[sql.BinOp]int64{sql.OpEQ: 0, sql.OpNE: 1, sql.OpLT: 2, sql.OpLE: 3, sql.OpGT: 4, sql.OpGE: 5}

func (c *vmCompiler) compare(e sql.Expr, op sql.BinOp, l, r reg, lt, rt columnar.Type) (reg, error) {
	t := sql.OperandType(lt, rt)
	if t.ID == columnar.String {
		// Codes of one sorted dictionary compare like the strings only for
		// equality here (collation is the CPU's business).
		if l.dict == nil || l.dict != r.dict || (op != sql.OpEQ && op != sql.OpNE) {
			return reg{}, vmUnsupported(e, "comparing strings of different dictionaries")
		}
		return c.emit(vmICmp, l.r, r.r, 0, cmpCode[op], 0, columnar.TBool)
	}
	l, err := c.cast(l, lt, t, e)
	if err != nil {
		return reg{}, err
	}
	r, err = c.cast(r, rt, t, e)
	if err != nil {
		return reg{}, err
	}
	if t.ID == columnar.Float64 {
		return c.emit(vmFCmp, l.r, r.r, 0, cmpCode[op], 0, columnar.TBool)
	}
	return c.emit(vmICmp, l.r, r.r, 0, cmpCode[op], 0, columnar.TBool)
}

// arith mirrors exec/cpu's compileArith: double, decimal or integer domain.
func (c *vmCompiler) arith(e *sql.Binary) (reg, error) {
	l, err := c.expr(e.L)
	if err != nil {
		return reg{}, err
	}
	r, err := c.expr(e.R)
	if err != nil {
		return reg{}, err
	}
	lt, rt, t := e.L.Type(), e.R.Type(), e.T
	if lt.ID == columnar.String || rt.ID == columnar.String || t.ID == columnar.String {
		return reg{}, vmUnsupported(e, "arithmetic on strings")
	}
	switch {
	case t.ID == columnar.Float64 || lt.ID == columnar.Float64 || rt.ID == columnar.Float64:
		if l, err = c.cast(l, lt, columnar.TFloat64, e); err != nil {
			return reg{}, err
		}
		if r, err = c.cast(r, rt, columnar.TFloat64, e); err != nil {
			return reg{}, err
		}
		op := map[sql.BinOp]int{sql.OpAdd: vmFAdd, sql.OpSub: vmFSub, sql.OpMul: vmFMul, sql.OpDiv: vmFDiv,
			sql.OpIntDiv: vmFIDiv, sql.OpMod: vmFMod}[e.Op]
		return c.emit(op, l.r, r.r, 0, 0, 0, columnar.TFloat64)
	case t.ID == columnar.Decimal || lt.ID == columnar.Decimal || rt.ID == columnar.Decimal || e.Op == sql.OpDiv:
		sl, sr := lt.DecimalScale(), rt.DecimalScale()
		if l, err = c.cast(l, lt, columnar.TDecimalScaled(sl), e); err != nil {
			return reg{}, err
		}
		if r, err = c.cast(r, rt, columnar.TDecimalScaled(sr), e); err != nil {
			return reg{}, err
		}
		dt := t
		if t.ID != columnar.Decimal {
			dt = columnar.TDecimalScaled(max(sl, sr))
			if e.Op == sql.OpDiv {
				dt = columnar.TDecimalScaled(max(sl, sr) + 4)
			}
		}
		v, err := c.decimal(e.Op, l, r, sl, sr, dt.Scale, dt)
		if err != nil || t.ID == columnar.Decimal {
			return v, err
		}
		return c.cast(v, dt, t, e)
	}
	w := columnar.TInt64
	if t.Physical() == columnar.PhysInt32 {
		w = t
	}
	if l, err = c.cast(l, lt, w, e); err != nil {
		return reg{}, err
	}
	if r, err = c.cast(r, rt, w, e); err != nil {
		return reg{}, err
	}
	op := map[sql.BinOp]int{sql.OpAdd: vmIAdd, sql.OpSub: vmISub, sql.OpMul: vmIMul, sql.OpDiv: vmIDiv,
		sql.OpIntDiv: vmIDiv, sql.OpMod: vmIMod}[e.Op]
	v, err := c.emit(op, l.r, r.r, 0, 0, checkedIf(w.ID == columnar.Int64), w)
	if err != nil {
		return v, err
	}
	if v, err = c.wrap(v, w); err != nil {
		return v, err
	}
	if t.Physical() != w.Physical() {
		return c.cast(v, w, t, e)
	}
	v.t = t
	return v, nil
}

// decimal is exec/cpu's evalDecimal: operands at scales sl and sr, result
// at scale st.
func (c *vmCompiler) decimal(op sql.BinOp, x, y reg, sl, sr, st int, t columnar.Type) (reg, error) {
	s := max(sl, sr)
	up := func(a reg, by int) (reg, error) {
		if by == 0 {
			return a, nil
		}
		return c.emit(vmMulK, a.r, 0, 0, pow10(by), vmChecked, t)
	}
	switch op {
	case sql.OpAdd, sql.OpSub:
		a, err := up(x, s-sl)
		if err != nil {
			return reg{}, err
		}
		b, err := up(y, s-sr)
		if err != nil {
			return reg{}, err
		}
		o := vmIAdd
		if op == sql.OpSub {
			o = vmISub
		}
		v, err := c.emit(o, a.r, b.r, 0, 0, vmChecked, t)
		if err != nil {
			return v, err
		}
		return c.rescale(v, s, st, t)
	case sql.OpMul:
		s := sl + sr
		switch {
		case s == st:
			return c.emit(vmIMul, x.r, y.r, 0, 0, vmChecked, t)
		case s > st:
			d, err := c.emit(vmConst, 0, 0, 0, pow10(s-st), 0, t)
			if err != nil {
				return d, err
			}
			return c.emit(vmMulDivRound, x.r, y.r, d.r, 0, vmChecked, t)
		}
		v, err := c.emit(vmIMul, x.r, y.r, 0, 0, vmChecked, t)
		if err != nil {
			return v, err
		}
		return c.emit(vmMulK, v.r, 0, 0, pow10(st-s), vmChecked, t)
	case sql.OpDiv:
		e := st - sl + sr
		if e >= 0 {
			m, err := c.emit(vmConst, 0, 0, 0, pow10(e), 0, t)
			if err != nil {
				return m, err
			}
			return c.emit(vmMulDivRound, x.r, m.r, y.r, 0, vmChecked, t)
		}
		one, err := c.emit(vmConst, 0, 0, 0, 1, 0, t)
		if err != nil {
			return one, err
		}
		d, err := c.emit(vmMulK, y.r, 0, 0, pow10(-e), vmChecked, t)
		if err != nil {
			return d, err
		}
		return c.emit(vmMulDivRound, x.r, one.r, d.r, 0, vmChecked, t)
	case sql.OpIntDiv:
		a, err := up(x, s-sl)
		if err != nil {
			return reg{}, err
		}
		b, err := up(y, s-sr)
		if err != nil {
			return reg{}, err
		}
		return c.emit(vmIntDivDec, a.r, b.r, 0, pow10(st), 0, t)
	case sql.OpMod:
		a, err := up(x, s-sl)
		if err != nil {
			return reg{}, err
		}
		b, err := up(y, s-sr)
		if err != nil {
			return reg{}, err
		}
		v, err := c.emit(vmIMod, a.r, b.r, 0, 0, 0, t)
		if err != nil {
			return v, err
		}
		return c.rescale(v, s, st, t)
	}
	return reg{}, &vmError{fmt.Sprintf("decimal operator %d", op)}
}
