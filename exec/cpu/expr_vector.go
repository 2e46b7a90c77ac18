package cpu

import (
	"fmt"
	"math"

	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Vector expressions: the distance functions, casts between vectors and
// their text form, and comparisons. Arithmetic is float32, as TiDB
// computes it (sums accumulate in float32; the explicit conversions keep
// Go from fusing a multiply and add, which would round differently), and
// the result widens to DOUBLE.

// vectorFuncEval computes one of sql's vector functions (IsVectorFunc).
type vectorFuncEval struct {
	name string
	args []evaluator
	out  *vec
	// dist computes a two-vector function of equal-length vectors; it
	// reports NaN for an undefined result (cosine of a zero vector).
	dist func(a, b []float32) float64
}

func (c *compiler) compileVectorFunc(e *sql.Func) (evaluator, error) {
	f := &vectorFuncEval{name: e.Name, out: newVec(e.T)}
	for _, a := range e.Args {
		ev, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		f.args = append(f.args, ev)
	}
	switch e.Name {
	case "vec_l2_distance":
		f.dist = l2Distance
	case "vec_cosine_distance":
		f.dist = cosineDistance
	case "vec_negative_inner_product":
		// 0 - x, not -x: a zero product is 0, not -0.
		f.dist = func(a, b []float32) float64 { return 0 - float64(innerProduct(a, b)) }
	case "vec_l1_distance":
		f.dist = l1Distance
	case "vec_dims", "vec_l2_norm":
	default:
		return nil, errUnsupportedFunc(e.Name)
	}
	return f, nil
}

func (f *vectorFuncEval) eval(b *batch, sel []int32) *vec {
	out := f.out
	out.ensure(b.n)
	a := f.args[0].eval(b, sel)
	switch f.name {
	case "vec_dims":
		for _, p := range sel {
			out.i64[p] = int64(len(a.vecs[p]))
		}
		mergeNulls(out, b.n, sel, a, nil)
		return out
	case "vec_l2_norm":
		for _, p := range sel {
			out.f64[p] = math.Sqrt(float64(innerProduct(a.vecs[p], a.vecs[p])))
		}
		mergeNulls(out, b.n, sel, a, nil)
		return out
	}
	c := f.args[1].eval(b, sel)
	mergeNulls(out, b.n, sel, a, c)
	for _, p := range sel {
		if a.isNull(p) || c.isNull(p) {
			continue
		}
		x, y := a.vecs[p], c.vecs[p]
		if len(x) != len(y) {
			raise(fmt.Errorf("%s(): vectors have different dimensions %d and %d", f.name, len(x), len(y)))
		}
		d := f.dist(x, y)
		if math.IsNaN(d) {
			out.setNull(b.n, p)
			continue
		}
		out.f64[p] = d
	}
	return out
}

func innerProduct(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += float32(a[i] * b[i])
	}
	return s
}

func l2Distance(a, b []float32) float64 {
	var s float32
	for i := range a {
		d := a[i] - b[i]
		s += float32(d * d)
	}
	return math.Sqrt(float64(s))
}

func l1Distance(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += float32(math.Abs(float64(a[i] - b[i])))
	}
	return float64(s)
}

// cosineDistance is 1 - cos(a, b), with the cosine clamped to [-1, 1];
// NaN (NULL to the caller) when either vector is zero.
func cosineDistance(a, b []float32) float64 {
	var dot, na, nb float32
	for i := range a {
		dot += float32(a[i] * b[i])
		na += float32(a[i] * a[i])
		nb += float32(b[i] * b[i])
	}
	sim := float64(dot) / math.Sqrt(float64(na)*float64(nb))
	if math.IsNaN(sim) {
		return sim
	}
	return 1 - max(-1, min(1, sim))
}

// vectorCast converts between VECTOR and VARCHAR (text form) and checks a
// vector against a VECTOR(n) target; a value that does not convert is the
// query's error, as in TiDB.
func (e *castEval) vectorCast(b *batch, sel []int32, v *vec) *vec {
	out := e.out
	switch {
	case e.to.ID == columnar.String:
		e.sb.reset(b.n)
		var buf []byte
		for _, p := range sel {
			if v.isNull(p) {
				e.sb.setNull(p)
				continue
			}
			buf = columnar.FormatVector(buf[:0], v.vecs[p])
			e.sb.set(p, string(buf))
		}
		e.sb.finish(out, sel)
	case e.from.ID == columnar.String:
		for _, p := range sel {
			if !v.isNull(p) {
				out.vecs[p] = e.strVec.get(v.dict, v.i32[p], e.to)
			}
		}
	case e.from.ID == columnar.Vector:
		for _, p := range sel {
			if v.isNull(p) {
				continue
			}
			if err := columnar.CheckVectorDim(len(v.vecs[p]), e.to); err != nil {
				raise(err)
			}
			out.vecs[p] = v.vecs[p]
		}
	default:
		raise(fmt.Errorf("cannot convert %s to %s", e.from, e.to))
	}
	return out
}

// cmpVectors compares vectors element by element (CompareVectors).
func cmpVectors(op sql.BinOp, a, b *vec, sel []int32, out []int32) {
	for _, p := range sel {
		if a.isNull(p) || b.isNull(p) {
			continue
		}
		out[p] = b2i(cmpResult(op, columnar.CompareVectors(a.vecs[p], b.vecs[p])))
	}
}

// vectorInEval is v [NOT] IN (list) over vectors, with MySQL's NULLs: no
// match and a NULL item give NULL.
type vectorInEval struct {
	in    evaluator
	items []evaluator
	neg   bool
	out   *vec
}

func (c *compiler) compileVectorIn(e *sql.InList, in evaluator, t columnar.Type) (evaluator, error) {
	ev := &vectorInEval{in: in, neg: e.Negated, out: newVec(columnar.TBool)}
	for _, it := range e.List {
		ie, err := c.compile(it)
		if err != nil {
			return nil, err
		}
		ev.items = append(ev.items, castTo(ie, it.Type(), t))
	}
	return ev, nil
}

func (e *vectorInEval) eval(b *batch, sel []int32) *vec {
	out := e.out
	out.ensure(b.n)
	v := e.in.eval(b, sel)
	items := make([]*vec, len(e.items))
	for i, it := range e.items {
		items[i] = it.eval(b, sel)
	}
	for _, p := range sel {
		if v.isNull(p) {
			out.setNull(b.n, p)
			continue
		}
		found, null := false, false
		for _, it := range items {
			if it.isNull(p) {
				null = true
			} else if v.w != nil && decimal.Cmp(v.w[p], it.w[p]) == 0 || v.w == nil && columnar.CompareVectors(v.vecs[p], it.vecs[p]) == 0 {
				found = true
				break
			}
		}
		if !found && null {
			out.setNull(b.n, p)
			continue
		}
		out.i32[p] = b2i(found != e.neg)
	}
	return out
}

// vectorArithEval is v + w or v - w, element by element in float32. Each
// batch's results get fresh storage: collected batches (sorts, top-N)
// keep the slices.
type vectorArithEval struct {
	sub  bool
	l, r evaluator
	out  *vec
}

func (c *compiler) compileVectorArith(e *sql.Binary) (evaluator, error) {
	l, err := c.compile(e.L)
	if err != nil {
		return nil, err
	}
	r, err := c.compile(e.R)
	if err != nil {
		return nil, err
	}
	return &vectorArithEval{sub: e.Op == sql.OpSub, l: l, r: r, out: newVec(e.T)}, nil
}

func (e *vectorArithEval) eval(b *batch, sel []int32) *vec {
	out := e.out
	out.ensure(b.n)
	a, c := e.l.eval(b, sel), e.r.eval(b, sel)
	mergeNulls(out, b.n, sel, a, c)
	op := "+"
	if e.sub {
		op = "-"
	}
	total := 0
	for _, p := range sel {
		if !a.isNull(p) && !c.isNull(p) {
			total += len(a.vecs[p])
		}
	}
	arena := make([]float32, 0, total)
	for _, p := range sel {
		if a.isNull(p) || c.isNull(p) {
			continue
		}
		x, y := a.vecs[p], c.vecs[p]
		if len(x) != len(y) {
			raise(fmt.Errorf("operator %s: vectors have different dimensions %d and %d", op, len(x), len(y)))
		}
		start := len(arena)
		for i := range x {
			s := x[i] + y[i]
			if e.sub {
				s = x[i] - y[i]
			}
			if math.IsInf(float64(s), 0) {
				raise(fmt.Errorf("operator %s: vector element %d overflows float32", op, i))
			}
			arena = append(arena, s)
		}
		out.vecs[p] = arena[start:len(arena):len(arena)]
	}
	return out
}

// textVectors caches the vectors a string column's dictionary entries
// parse to, each parsed when a row first needs it (a text that is not a
// vector is an error only if a selected row holds it).
type textVectors struct {
	dict *columnar.Dictionary
	vecs [][]float32
	done []bool
}

func (c *textVectors) get(d *columnar.Dictionary, code int32, t columnar.Type) []float32 {
	if c.dict != d {
		c.dict, c.vecs, c.done = d, make([][]float32, d.CodeSpace()), make([]bool, d.CodeSpace())
	}
	if !c.done[code] {
		x, err := columnar.ParseVector(nil, []byte(d.Values[code]))
		if err == nil {
			err = columnar.CheckVectorDim(len(x), t)
		}
		if err != nil {
			raise(err)
		}
		c.vecs[code], c.done[code] = x, true
	}
	return c.vecs[code]
}
