package cpu

import (
	"fmt"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Expression evaluation. A bound expression compiles to a tree of
// evaluators, one instance per worker, each owning its output vector; an
// evaluator computes its value at the selected positions of a batch in one
// typed loop (no per-row interface calls). Predicates in filter position
// compile to selectors, which shrink a selection vector instead of producing
// booleans: AND is a chain, OR a union, and a column compared with a literal
// is one tight loop.
//
// Semantics are MySQL's: NULL propagates through arithmetic and
// comparisons, AND/OR/NOT are three-valued, division by zero gives NULL,
// '/' on integers and decimals gives a decimal with the binder's scale, DIV
// truncates, % takes the dividend's sign, decimals are scaled int64 and
// round half away from zero when they lose digits.

// evaluator computes an expression at positions sel of b. The returned vector
// is owned by the evaluator (or is one of b's columns) and valid until its
// next call.
type evaluator interface {
	eval(b *batch, sel []int32) *vec
}

// selector keeps the positions of sel where a predicate is TRUE. The
// returned slice is owned by the selector and valid until its next call.
type selector interface {
	filter(b *batch, sel []int32) []int32
}

// compiler holds what compiling needs beyond the expression: the executor,
// for scalar subqueries.
type compiler struct {
	x *executor
}

func (c *compiler) compile(e sql.Expr) (evaluator, error) {
	switch e := e.(type) {
	case *sql.ColRef:
		return &colEval{idx: e.Index}, nil
	case *sql.Const:
		return newConstEval(e), nil
	case *planner.Subquery:
		k, err := c.x.subquery(e)
		if err != nil {
			return nil, err
		}
		return newConstEval(k), nil
	case *sql.ScalarSubquery:
		return nil, fmt.Errorf("cpu: unplanned scalar subquery")
	case *planner.NestedSubquery:
		return c.compileNested(e)
	case *sql.Param:
		k, ok := c.x.params[e.ID]
		if !ok {
			return nil, fmt.Errorf("cpu: parameter ?%d is not bound", e.ID)
		}
		return newConstEval(k), nil
	case *sql.Binary:
		return c.compileBinary(e)
	case *sql.Not:
		in, err := c.compile(e.E)
		if err != nil {
			return nil, err
		}
		return &notEval{in: in, out: newVec(columnar.TBool)}, nil
	case *sql.Neg:
		in, err := c.compile(e.E)
		if err != nil {
			return nil, err
		}
		if e.E.Type().IsWide() {
			return &wideNegEval{in: in, out: newVec(e.E.Type())}, nil
		}
		kind := "BIGINT"
		if e.E.Type().ID == columnar.Decimal {
			kind = "DECIMAL"
		}
		return &negEval{in: in, out: newVec(e.E.Type()), expr: e, kind: kind}, nil
	case *sql.IsNull:
		in, err := c.compile(e.E)
		if err != nil {
			return nil, err
		}
		return &isNullEval{in: in, neg: e.Negated, out: newVec(columnar.TBool)}, nil
	case *sql.InList:
		return c.compileInList(e)
	case *sql.Like:
		in, err := c.compile(e.E)
		if err != nil {
			return nil, err
		}
		return &likeEval{in: in, pattern: e.Pattern, neg: e.Negated, out: newVec(columnar.TBool)}, nil
	case *sql.CodeSet:
		return &codeSetEval{idx: e.E.Index, match: e.Match, dict: e.E.Col.Dict, out: newVec(columnar.TBool)}, nil
	case *sql.Case:
		return c.compileCase(e)
	case *sql.Cast:
		in, err := c.compile(e.E)
		if err != nil {
			return nil, err
		}
		if e.Written {
			return c.castWritten(in, e.E.Type(), e.T), nil
		}
		if e.Text != "" {
			return c.castNamed(in, e.E.Type(), e.T, e.Text), nil
		}
		return c.castTo(in, e.E.Type(), e.T), nil
	case *sql.Func:
		return c.compileFunc(e)
	}
	return nil, fmt.Errorf("cpu: unsupported expression %T", e)
}

// compileFilter compiles a predicate in filter position.
func (c *compiler) compileFilter(e sql.Expr) (selector, error) {
	switch e := e.(type) {
	case *sql.Binary:
		switch e.Op {
		case sql.OpAnd:
			l, err := c.compileFilter(e.L)
			if err != nil {
				return nil, err
			}
			r, err := c.compileFilter(e.R)
			if err != nil {
				return nil, err
			}
			return &andSel{l: l, r: r}, nil
		case sql.OpOr:
			l, err := c.compileFilter(e.L)
			if err != nil {
				return nil, err
			}
			r, err := c.compileFilter(e.R)
			if err != nil {
				return nil, err
			}
			return &orSel{l: l, r: r}, nil
		case sql.OpEQ, sql.OpNE, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
			if s, ok, err := c.compileCmpSelector(e); ok || err != nil {
				return s, err
			}
		}
	case *sql.CodeSet:
		return &codeSetSel{idx: e.E.Index, match: e.Match, dict: e.E.Col.Dict}, nil
	case *sql.IsNull:
		in, err := c.compile(e.E)
		if err != nil {
			return nil, err
		}
		return &isNullSel{in: in, neg: e.Negated}, nil
	case *sql.Const:
		if e.Null || e.I == 0 {
			return noneSel{}, nil
		}
		return allSel{}, nil
	}
	ev, err := c.compile(e)
	if err != nil {
		return nil, err
	}
	return &truthSel{in: ev}, nil
}

// colEval reads an input column.
type colEval struct{ idx int }

func (e *colEval) eval(b *batch, sel []int32) *vec { return b.cols[e.idx] }

// constEval returns a vector holding the literal at every position, filled
// once.
type constEval struct {
	k   *sql.Const
	out *vec
}

func newConstEval(k *sql.Const) *constEval {
	v := newVec(k.T)
	v.ensure(batchSize)
	switch {
	case k.Null:
		v.nullsFor(batchSize)
		for i := range v.nulls {
			v.nulls[i] = true
		}
		if k.T.ID == columnar.String {
			v.dict = &columnar.Dictionary{}
		}
	case k.T.ID == columnar.String:
		v.dict = &columnar.Dictionary{Values: []string{k.S}}
	case k.T.ID == columnar.Vector:
		for i := range v.vecs {
			v.vecs[i] = k.V
		}
	case v.w != nil:
		for i := range v.w {
			v.w[i] = k.W
		}
	case v.i32 != nil:
		for i := range v.i32 {
			v.i32[i] = int32(k.I)
		}
	case v.i64 != nil:
		for i := range v.i64 {
			v.i64[i] = k.I
		}
	case v.f64 != nil:
		for i := range v.f64 {
			v.f64[i] = k.F
		}
	}
	return &constEval{k: k, out: v}
}

func (e *constEval) eval(b *batch, sel []int32) *vec { return e.out }

// isConst returns the literal an evaluator always yields.
func isConst(e evaluator) (*sql.Const, bool) {
	c, ok := e.(*constEval)
	if !ok {
		return nil, false
	}
	return c.k, true
}

// truthSel keeps positions where a boolean evaluator is TRUE.
type truthSel struct {
	in  evaluator
	buf []int32
}

func (s *truthSel) filter(b *batch, sel []int32) []int32 {
	v := s.in.eval(b, sel)
	out := growSel(s.buf, len(sel))
	s.buf = out
	k := 0
	if v.nulls == nil {
		for _, p := range sel {
			out[k] = p
			k += b2n(v.i32[p] != 0)
		}
	} else {
		for _, p := range sel {
			out[k] = p
			k += b2n(v.i32[p] != 0 && !v.nulls[p])
		}
	}
	return out[:k]
}

type allSel struct{}

func (allSel) filter(b *batch, sel []int32) []int32 { return sel }

type noneSel struct{}

func (noneSel) filter(b *batch, sel []int32) []int32 { return nil }

// andSel narrows the selection conjunct by conjunct.
type andSel struct{ l, r selector }

func (s *andSel) filter(b *batch, sel []int32) []int32 {
	sel = s.l.filter(b, sel)
	if len(sel) == 0 {
		return sel
	}
	return s.r.filter(b, sel)
}

// orSel keeps rows passing l, plus rows not passing l that pass r: the
// second disjunct is evaluated only where the first failed.
type orSel struct {
	l, r      selector
	rest, buf []int32
}

func (s *orSel) filter(b *batch, sel []int32) []int32 {
	a := s.l.filter(b, sel)
	if len(a) == len(sel) {
		return a
	}
	rest := s.rest[:0]
	i := 0
	for _, p := range sel {
		if i < len(a) && a[i] == p {
			i++
			continue
		}
		rest = append(rest, p)
	}
	s.rest = rest
	c := s.r.filter(b, rest)
	out := s.buf[:0]
	i, j := 0, 0
	for i < len(a) || j < len(c) {
		if j == len(c) || (i < len(a) && a[i] < c[j]) {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, c[j])
			j++
		}
	}
	s.buf = out
	return out
}
