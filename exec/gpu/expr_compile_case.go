//go:build cuda

package gpu

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// IN lists, CASE and the merging of string operands of different
// dictionaries onto one.

func (c *vmCompiler) inList(e *sql.InList) (reg, error) {
	in, err := c.expr(e.E)
	if err != nil {
		return reg{}, err
	}
	// The CPU compares every item in the list's common type.
	t := e.E.Type()
	for _, it := range e.List {
		t = sql.OperandType(t, it.Type())
	}
	x, err := c.cast(in, e.E.Type(), t, e)
	if err != nil {
		return reg{}, err
	}
	var acc reg
	for i, it := range e.List {
		v, err := c.expr(it)
		if err != nil {
			return reg{}, err
		}
		if v, err = c.cast(v, it.Type(), t, e); err != nil {
			return reg{}, err
		}
		eq, err := c.compare(e, sql.OpEQ, x, v, t, t)
		if err != nil {
			return reg{}, err
		}
		if i == 0 {
			acc = eq
			continue
		}
		if acc, err = c.emit(vmOr, acc.r, eq.r, 0, 0, 0, columnar.TBool); err != nil {
			return reg{}, err
		}
	}
	if e.Negated {
		return c.emit(vmNot, acc.r, 0, 0, 0, 0, columnar.TBool)
	}
	return acc, nil
}

// unify maps string values of different dictionaries onto one merged,
// sorted dictionary (a lookup per value), so that selecting among them
// yields codes of one dictionary, as CASE and COALESCE need.
func (c *vmCompiler) unify(vals []reg, e sql.Expr) ([]reg, *columnar.Dictionary, error) {
	var all []string
	for _, v := range vals {
		if v.dict == nil {
			return nil, nil, vmUnsupported(e, "a string without a dictionary")
		}
		all = append(all, v.dict.Values...)
	}
	merged := columnar.BuildDictionary(all)
	out := make([]reg, len(vals))
	for i, v := range vals {
		if v.dict == merged {
			out[i] = v
			continue
		}
		tv := make([]int64, len(v.dict.Values)+1)
		ok := make([]byte, len(tv))
		for j, s := range v.dict.Values {
			code, _ := merged.Lookup(s)
			tv[j], ok[j] = int64(code), 1
		}
		r, err := c.table(v, tv, ok, v.t)
		if err != nil {
			return nil, nil, err
		}
		r.dict = merged
		out[i] = r
	}
	return out, merged, nil
}

func (c *vmCompiler) stringCase(e *sql.Case) (reg, error) {
	els := e.Else
	if els == nil {
		els = &sql.Const{T: e.T, Null: true}
	}
	var conds, vals []reg
	for _, w := range e.Whens {
		cond, err := c.expr(w.Cond)
		if err != nil {
			return reg{}, err
		}
		v, err := c.expr(w.Result)
		if err != nil {
			return reg{}, err
		}
		if w.Result.Type().ID != columnar.String {
			return reg{}, vmUnsupported(e, "a non-string arm of a string CASE")
		}
		conds, vals = append(conds, cond), append(vals, v)
	}
	ev, err := c.expr(els)
	if err != nil {
		return reg{}, err
	}
	if els.Type().ID != columnar.String {
		return reg{}, vmUnsupported(e, "a non-string arm of a string CASE")
	}
	vals = append(vals, ev)
	vals, merged, err := c.unify(vals, e)
	if err != nil {
		return reg{}, err
	}
	res := vals[len(vals)-1]
	for i := len(conds) - 1; i >= 0; i-- {
		if res, err = c.emit(vmSelect, conds[i].r, vals[i].r, res.r, 0, 0, e.T); err != nil {
			return reg{}, err
		}
	}
	res.dict = merged
	return res, nil
}

func (c *vmCompiler) caseExpr(e *sql.Case) (reg, error) {
	if e.T.ID == columnar.String {
		return c.stringCase(e)
	}
	els := e.Else
	if els == nil {
		els = &sql.Const{T: e.T, Null: true}
	}
	ev, err := c.expr(els)
	if err != nil {
		return reg{}, err
	}
	res, err := c.cast(ev, els.Type(), e.T, e)
	if err != nil {
		return reg{}, err
	}
	for i := len(e.Whens) - 1; i >= 0; i-- {
		w := e.Whens[i]
		cond, err := c.expr(w.Cond)
		if err != nil {
			return reg{}, err
		}
		rv, err := c.expr(w.Result)
		if err != nil {
			return reg{}, err
		}
		if rv, err = c.cast(rv, w.Result.Type(), e.T, e); err != nil {
			return reg{}, err
		}
		if res, err = c.emit(vmSelect, cond.r, rv.r, res.r, 0, 0, e.T); err != nil {
			return reg{}, err
		}
	}
	return res, nil
}
