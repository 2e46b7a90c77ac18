package cpu

import (
	"math/big"

	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// decimalClipEval is sql.DecimalClip: CAST(x AS DECIMAL(M,D)) of a value
// already rounded to D digits (in a DECIMAL(18,D) or a wide DECIMAL(65,D)),
// which MySQL clips to ±(10^M - 1) / 10^D, noting warning 1264 for each
// value clipped (Item_typecast_decimal::val_decimal; a literal's once).
type decimalClipEval struct {
	in   evaluator
	to   columnar.Type
	out  *vec
	warn *sql.Warnings
	msg  string
	// The largest value of the type, scaled (maxNarrow where M <= 18).
	maxNarrow int64
	maxWide   decimal.Num
}

func (c *compiler) compileDecimalClip(e *sql.Func) (evaluator, error) {
	in, err := c.compile(e.Args[0])
	if err != nil {
		return nil, err
	}
	name, _ := e.Args[1].(*sql.Const)
	d := &decimalClipEval{in: in, to: e.T, out: newVec(e.T)}
	if name != nil {
		d.msg = "Out of range value for column '" + name.S + "' at row 1"
	}
	if c != nil && c.x != nil {
		d.warn = c.x.warn
	}
	m := new(big.Int).Sub(decimal.Pow10(e.T.Precision), big.NewInt(1))
	d.maxWide, _ = decimal.FromBig(m)
	if !e.T.IsWide() {
		d.maxNarrow = pow10(e.T.Precision) - 1
	}
	k, ok := isConst(in)
	if !ok {
		return d, nil
	}
	// A literal is clipped once, here, and its warning noted once (every
	// worker compiles it).
	warn := d.warn
	d.warn = &sql.Warnings{}
	b := &batch{n: 1, sel: identSel[:1]}
	v := d.eval(b, b.sel)
	if d.warn.Count() > 0 {
		warn.AddOnce(k, sql.WarnOutOfRange, d.msg)
	}
	lit := &sql.Const{T: e.T, Null: v.isNull(0)}
	switch {
	case lit.Null:
	case v.w != nil:
		lit.W = v.w[0]
	default:
		lit.I = v.i64[0]
	}
	return newConstEval(lit), nil
}

func (d *decimalClipEval) eval(b *batch, sel []int32) *vec {
	v := d.in.eval(b, sel)
	out := d.out
	out.ensure(b.n)
	mergeNulls(out, b.n, sel, v, nil)
	for _, p := range sel {
		if out.isNull(p) {
			continue
		}
		if v.w == nil {
			x := v.int64At(p)
			switch {
			case x > d.maxNarrow:
				x = d.maxNarrow
				d.warn.Add(sql.WarnOutOfRange, d.msg)
			case x < -d.maxNarrow:
				x = -d.maxNarrow
				d.warn.Add(sql.WarnOutOfRange, d.msg)
			}
			out.i64[p] = x
			continue
		}
		x := v.w[p]
		if !decimal.Fits(x, d.to.Precision) {
			x = d.maxWide
			if x.Sign() != 0 && v.w[p].Sign() < 0 {
				x = decimal.Neg(x)
			}
			d.warn.Add(sql.WarnOutOfRange, d.msg)
		}
		if out.w != nil {
			out.w[p] = x
			continue
		}
		out.i64[p], _ = decimal.Int64(x) // fits: at most 18 digits
	}
	return out
}
