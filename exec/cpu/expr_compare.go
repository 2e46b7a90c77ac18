package cpu

import (
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

type number interface{ ~int32 | ~int64 | ~float64 }

func (c *compiler) compileOperands(l, r sql.Expr) (evaluator, evaluator, columnar.Type, error) {
	le, err := c.compile(l)
	if err != nil {
		return nil, nil, columnar.Type{}, err
	}
	re, err := c.compile(r)
	if err != nil {
		return nil, nil, columnar.Type{}, err
	}
	t := sql.OperandType(l.Type(), r.Type())
	return c.castTo(le, l.Type(), t), c.castTo(re, r.Type(), t), t, nil
}

// cmpEval computes a comparison as a boolean vector.
type cmpEval struct {
	op   sql.BinOp
	l, r evaluator
	t    columnar.Type
	out  *vec
}

func (e *cmpEval) eval(b *batch, sel []int32) *vec {
	lv, rv := e.l.eval(b, sel), e.r.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	switch {
	case e.t.ID == columnar.Vector:
		cmpVectors(e.op, lv, rv, sel, out.i32)
	case e.t.ID == columnar.String:
		cmpStrings(e.op, lv, rv, sel, out.i32)
	case lv.w != nil:
		cmpWide(e.op, lv.w, rv.w, sel, out.i32)
	case lv.i32 != nil:
		cmpKernel(e.op, lv.i32, rv.i32, sel, out.i32)
	case lv.i64 != nil:
		cmpKernel(e.op, lv.i64, rv.i64, sel, out.i32)
	default:
		cmpKernel(e.op, lv.f64, rv.f64, sel, out.i32)
	}
	mergeNulls(out, b.n, sel, lv, rv)
	return out
}

func cmpKernel[T number](op sql.BinOp, a, b []T, sel []int32, out []int32) {
	switch op {
	case sql.OpEQ:
		for _, p := range sel {
			out[p] = b2i(a[p] == b[p])
		}
	case sql.OpNE:
		for _, p := range sel {
			out[p] = b2i(a[p] != b[p])
		}
	case sql.OpLT:
		for _, p := range sel {
			out[p] = b2i(a[p] < b[p])
		}
	case sql.OpLE:
		for _, p := range sel {
			out[p] = b2i(a[p] <= b[p])
		}
	case sql.OpGT:
		for _, p := range sel {
			out[p] = b2i(a[p] > b[p])
		}
	case sql.OpGE:
		for _, p := range sel {
			out[p] = b2i(a[p] >= b[p])
		}
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// cmpResult reports whether c (the sign of a comparison) satisfies op.
func cmpResult(op sql.BinOp, c int) bool {
	switch op {
	case sql.OpEQ:
		return c == 0
	case sql.OpNE:
		return c != 0
	case sql.OpLT:
		return c < 0
	case sql.OpLE:
		return c <= 0
	case sql.OpGT:
		return c > 0
	}
	return c >= 0
}

// cmpStrings compares codes when both sides share a dictionary (codes are in
// string order), else the strings.
func cmpStrings(op sql.BinOp, a, b *vec, sel []int32, out []int32) {
	if a.dict == b.dict {
		cmpKernel(op, a.i32, b.i32, sel, out)
		return
	}
	for _, p := range sel {
		if a.isNull(p) || b.isNull(p) {
			continue
		}
		out[p] = b2i(cmpResult(op, strings.Compare(a.stringAt(p), b.stringAt(p))))
	}
}

// cmpSel is a comparison in filter position.
type cmpSel struct {
	op   sql.BinOp
	l, r evaluator
	t    columnar.Type
	k    *sql.Const // r is this literal
	buf  []int32
	nn   []int32
}

func (c *compiler) compileCmpSelector(e *sql.Binary) (selector, bool, error) {
	l, r, t, err := c.compileOperands(e.L, e.R)
	if err != nil {
		return nil, false, err
	}
	if t.IsWide() {
		return nil, false, nil // compared by cmpEval
	}
	op := e.Op
	if _, lc := isConst(l); lc {
		if _, rc := isConst(r); !rc {
			l, r, op = r, l, op.Flip()
		}
	}
	s := &cmpSel{op: op, l: l, r: r, t: t}
	if k, ok := isConst(r); ok {
		if k.Null {
			return noneSel{}, true, nil
		}
		s.k = r.(*constEval).k
	}
	return s, true, nil
}

func (s *cmpSel) filter(b *batch, sel []int32) []int32 {
	lv := s.l.eval(b, sel)
	if lv.nulls != nil {
		sel = dropNulls(lv, sel, &s.nn)
	}
	out := s.buf[:0]
	if s.k != nil && s.t.ID != columnar.String && s.t.ID != columnar.Vector {
		switch {
		case lv.i32 != nil:
			out = selKernelC(s.op, lv.i32, int32(s.k.I), sel, out)
		case lv.i64 != nil:
			out = selKernelC(s.op, lv.i64, s.k.I, sel, out)
		default:
			out = selKernelC(s.op, lv.f64, s.k.F, sel, out)
		}
		s.buf = out
		return out
	}
	rv := s.r.eval(b, sel)
	if rv.nulls != nil {
		sel = dropNulls(rv, sel, &s.nn)
	}
	switch {
	case s.t.ID == columnar.Vector:
		for _, p := range sel {
			if cmpResult(s.op, columnar.CompareVectors(lv.vecs[p], rv.vecs[p])) {
				out = append(out, p)
			}
		}
	case s.t.ID == columnar.String && lv.dict != rv.dict:
		for _, p := range sel {
			if cmpResult(s.op, strings.Compare(lv.stringAt(p), rv.stringAt(p))) {
				out = append(out, p)
			}
		}
	case lv.i32 != nil:
		out = selKernel(s.op, lv.i32, rv.i32, sel, out)
	case lv.i64 != nil:
		out = selKernel(s.op, lv.i64, rv.i64, sel, out)
	default:
		out = selKernel(s.op, lv.f64, rv.f64, sel, out)
	}
	s.buf = out
	return out
}

// dropNulls returns the positions of sel where v is not NULL.
func dropNulls(v *vec, sel []int32, buf *[]int32) []int32 {
	out := growSel(*buf, len(sel))
	k := 0
	for _, p := range sel {
		out[k] = p
		k += b2n(!v.nulls[p])
	}
	*buf = out
	return out[:k]
}

// The selection kernels compact branch-free: every position is written and
// the output length advances by the comparison's 0/1, so a predicate that
// keeps rows at random costs no branch mispredictions.

func selKernelC[T number](op sql.BinOp, a []T, c T, sel []int32, out []int32) []int32 {
	out = growSel(out, len(sel))
	k := 0
	switch op {
	case sql.OpEQ:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] == c)
		}
	case sql.OpNE:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] != c)
		}
	case sql.OpLT:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] < c)
		}
	case sql.OpLE:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] <= c)
		}
	case sql.OpGT:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] > c)
		}
	case sql.OpGE:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] >= c)
		}
	}
	return out[:k]
}

func selKernel[T number](op sql.BinOp, a, b []T, sel []int32, out []int32) []int32 {
	out = growSel(out, len(sel))
	k := 0
	switch op {
	case sql.OpEQ:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] == b[p])
		}
	case sql.OpNE:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] != b[p])
		}
	case sql.OpLT:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] < b[p])
		}
	case sql.OpLE:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] <= b[p])
		}
	case sql.OpGT:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] > b[p])
		}
	case sql.OpGE:
		for _, p := range sel {
			out[k] = p
			k += b2n(a[p] >= b[p])
		}
	}
	return out[:k]
}

// b2n is 1 for true, 0 for false (compiled to a flag move, no branch).
func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

// growSel returns buf with room for n positions.
func growSel(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n, max(n, batchSize))
	}
	return buf[:n]
}
