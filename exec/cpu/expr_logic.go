package cpu

import (
	"sort"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// logicEval is three-valued AND / OR: FALSE AND x = FALSE, TRUE OR x = TRUE,
// otherwise NULL if either side is NULL.
type logicEval struct {
	and  bool
	l, r evaluator
	out  *vec
}

func (e *logicEval) eval(b *batch, sel []int32) *vec {
	lv, rv := e.l.eval(b, sel), e.r.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	o := out.i32
	if lv.nulls == nil && rv.nulls == nil {
		for _, p := range sel {
			if e.and {
				o[p] = b2i(lv.i32[p] != 0 && rv.i32[p] != 0)
			} else {
				o[p] = b2i(lv.i32[p] != 0 || rv.i32[p] != 0)
			}
		}
		return out
	}
	for _, p := range sel {
		ln, rn := lv.isNull(p), rv.isNull(p)
		lt, rt := !ln && lv.i32[p] != 0, !rn && rv.i32[p] != 0
		lf, rf := !ln && lv.i32[p] == 0, !rn && rv.i32[p] == 0
		if e.and {
			switch {
			case lf || rf:
				o[p] = 0
			case ln || rn:
				out.setNull(b.n, p)
			default:
				o[p] = 1
			}
		} else {
			switch {
			case lt || rt:
				o[p] = 1
			case ln || rn:
				out.setNull(b.n, p)
			default:
				o[p] = 0
			}
		}
	}
	return out
}

type notEval struct {
	in  evaluator
	out *vec
}

func (e *notEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	for _, p := range sel {
		out.i32[p] = b2i(v.i32[p] == 0)
	}
	mergeNulls(out, b.n, sel, v, nil)
	return out
}

type isNullEval struct {
	in  evaluator
	neg bool
	out *vec
}

func (e *isNullEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	for _, p := range sel {
		out.i32[p] = b2i(v.isNull(p) != e.neg)
	}
	return out
}

type isNullSel struct {
	in  evaluator
	neg bool
	buf []int32
}

func (s *isNullSel) filter(b *batch, sel []int32) []int32 {
	v := s.in.eval(b, sel)
	if v.nulls == nil {
		if s.neg {
			return sel
		}
		return nil
	}
	out := s.buf[:0]
	for _, p := range sel {
		if v.nulls[p] != s.neg {
			out = append(out, p)
		}
	}
	s.buf = out
	return out
}

// codeSetEval tests a dictionary-encoded column against a code set compiled
// once by the binder; codes of another dictionary are translated through
// the strings (a string absent from the compiled dictionary does not match).
type codeSetEval struct {
	idx   int
	match []bool
	dict  *columnar.Dictionary
	tr    codeSetTranslator
	out   *vec
}

type codeSetTranslator struct {
	from  *columnar.Dictionary
	match []bool
}

func (t *codeSetTranslator) matchFor(v *vec, match []bool, dict *columnar.Dictionary) []bool {
	if v.dict == dict || dict == nil || v.dict == nil {
		return match
	}
	if t.from != v.dict {
		t.from = v.dict
		t.match = make([]bool, v.dict.CodeSpace())
		for i, s := range v.dict.Values {
			if c, ok := dict.Lookup(s); ok && int(c) < len(match) {
				t.match[i] = match[c]
			}
		}
	}
	return t.match
}

func (e *codeSetEval) eval(b *batch, sel []int32) *vec {
	v := b.cols[e.idx]
	m := e.tr.matchFor(v, e.match, e.dict)
	out := e.out
	out.ensure(b.n)
	for _, p := range sel {
		c := v.i32[p]
		out.i32[p] = b2i(c >= 0 && int(c) < len(m) && m[c])
	}
	mergeNulls(out, b.n, sel, v, nil)
	return out
}

type codeSetSel struct {
	idx   int
	match []bool
	dict  *columnar.Dictionary
	tr    codeSetTranslator
	buf   []int32
}

func (s *codeSetSel) filter(b *batch, sel []int32) []int32 {
	v := b.cols[s.idx]
	m := s.tr.matchFor(v, s.match, s.dict)
	out := growSel(s.buf, len(sel))
	s.buf = out
	codes := v.i32
	k := 0
	if v.nulls == nil {
		for _, p := range sel {
			out[k] = p
			c := codes[p]
			k += b2n(uint(c) < uint(len(m)) && m[c])
		}
	} else {
		for _, p := range sel {
			out[k] = p
			c := codes[p]
			k += b2n(!v.nulls[p] && uint(c) < uint(len(m)) && m[c])
		}
	}
	return out[:k]
}

// inListEval is E [NOT] IN (list). With literal items the set is sorted once
// and probed by binary search (or scanned when short); otherwise each item is
// compared in turn. NULL semantics: NULL if E is NULL, or if E matches no item
// and some item is NULL.
type inListEval struct {
	in      evaluator
	neg     bool
	t       columnar.Type
	ints    []int64
	floats  []float64
	strs    []string
	hasNull bool
	items   []evaluator // non-literal lists
	out     *vec
	strMemo struct {
		dict *columnar.Dictionary
		hit  []bool
	}
}

func (c *compiler) compileInList(e *sql.InList) (evaluator, error) {
	in, err := c.compile(e.E)
	if err != nil {
		return nil, err
	}
	t := e.E.Type()
	for _, it := range e.List {
		t = sql.OperandType(t, it.Type())
	}
	if t.ID == columnar.Vector || t.IsWide() {
		return c.compileVectorIn(e, castTo(in, e.E.Type(), t), t)
	}
	ev := &inListEval{in: castTo(in, e.E.Type(), t), neg: e.Negated, t: t, out: newVec(columnar.TBool)}
	allConst := true
	for _, it := range e.List {
		ie, err := c.compile(it)
		if err != nil {
			return nil, err
		}
		ie = castTo(ie, it.Type(), t)
		ev.items = append(ev.items, ie)
		k, ok := isConst(ie)
		if !ok {
			allConst = false
			continue
		}
		switch {
		case k.Null:
			ev.hasNull = true
		case t.ID == columnar.String:
			ev.strs = append(ev.strs, k.S)
		case t.Physical() == columnar.PhysFloat64:
			ev.floats = append(ev.floats, k.F)
		default:
			ev.ints = append(ev.ints, k.I)
		}
	}
	if allConst {
		ev.items = nil
		sort.Slice(ev.ints, func(i, j int) bool { return ev.ints[i] < ev.ints[j] })
		sort.Float64s(ev.floats)
		sort.Strings(ev.strs)
	}
	return ev, nil
}

func (e *inListEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	o := out.i32
	if e.items == nil {
		switch {
		case e.t.ID == columnar.String:
			if e.strMemo.dict != v.dict {
				e.strMemo.dict = v.dict
				e.strMemo.hit = make([]bool, v.dict.CodeSpace())
				for i, s := range v.dict.Values {
					j := sort.SearchStrings(e.strs, s)
					e.strMemo.hit[i] = j < len(e.strs) && e.strs[j] == s
				}
			}
			for _, p := range sel {
				o[p] = b2i(e.strMemo.hit[v.i32[p]])
			}
		case v.f64 != nil:
			for _, p := range sel {
				x := v.f64[p]
				j := sort.SearchFloat64s(e.floats, x)
				o[p] = b2i(j < len(e.floats) && e.floats[j] == x)
			}
		default:
			for _, p := range sel {
				o[p] = b2i(containsInt(e.ints, v.int64At(p)))
			}
		}
	} else {
		for _, p := range sel {
			o[p] = 0
		}
		one := []int32{0}
		for _, it := range e.items {
			iv := it.eval(b, sel)
			for _, p := range sel {
				// A NULL left side is NULL whatever the items (set below);
				// its code or value is not one to compare.
				if o[p] != 0 || v.isNull(p) {
					continue
				}
				if iv.isNull(p) {
					out.setNull(b.n, p)
					continue
				}
				one[0] = p
				var eq bool
				switch {
				case e.t.ID == columnar.String:
					eq = v.stringAt(p) == iv.stringAt(p)
				case v.f64 != nil:
					eq = v.f64[p] == iv.f64[p]
				default:
					eq = v.int64At(p) == iv.int64At(p)
				}
				if eq {
					o[p] = 1
					if out.nulls != nil {
						out.nulls[p] = false
					}
				}
			}
		}
	}
	for _, p := range sel {
		if v.isNull(p) {
			out.setNull(b.n, p)
			continue
		}
		if o[p] == 0 && e.hasNull {
			out.setNull(b.n, p)
		}
		if e.neg && !out.isNull(p) {
			o[p] = 1 - o[p]
		}
	}
	return out
}

func containsInt(sorted []int64, x int64) bool {
	if len(sorted) <= 8 {
		for _, v := range sorted {
			if v == x {
				return true
			}
		}
		return false
	}
	i := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= x })
	return i < len(sorted) && sorted[i] == x
}

// likeEval matches each dictionary entry once and then tests codes.
type likeEval struct {
	in      evaluator
	pattern string
	neg     bool
	out     *vec
	dict    *columnar.Dictionary
	hit     []bool
}

func (e *likeEval) eval(b *batch, sel []int32) *vec {
	v := e.in.eval(b, sel)
	out := e.out
	out.ensure(b.n)
	if v.dict != e.dict {
		e.dict = v.dict
		e.hit = make([]bool, v.dict.CodeSpace())
		for i, s := range v.dict.Values {
			e.hit[i] = sql.LikeMatch(s, e.pattern) != e.neg
		}
	}
	for _, p := range sel {
		out.i32[p] = b2i(e.hit[v.i32[p]])
	}
	mergeNulls(out, b.n, sel, v, nil)
	return out
}

// caseEval evaluates searched CASE arm by arm on the rows no earlier arm
// took, so each result expression runs only where it is chosen.
type caseEval struct {
	conds   []selector
	results []evaluator
	els     evaluator
	t       columnar.Type
	out     *vec
	rest    []int32
	taken   []int32
	sb      stringBuilder
}

func (c *compiler) compileCase(e *sql.Case) (evaluator, error) {
	ce := &caseEval{t: e.T, out: newVec(e.T)}
	for _, w := range e.Whens {
		s, err := c.compileFilter(w.Cond)
		if err != nil {
			return nil, err
		}
		r, err := c.compile(w.Result)
		if err != nil {
			return nil, err
		}
		ce.conds = append(ce.conds, s)
		ce.results = append(ce.results, castTo(r, w.Result.Type(), e.T))
	}
	els := e.Else
	if els == nil {
		els = &sql.Const{T: e.T, Null: true}
	}
	r, err := c.compile(els)
	if err != nil {
		return nil, err
	}
	ce.els = castTo(r, els.Type(), e.T)
	return ce, nil
}

func (e *caseEval) eval(b *batch, sel []int32) *vec {
	out := e.out
	out.ensure(b.n)
	isStr := e.t.ID == columnar.String
	if isStr {
		e.sb.reset(b.n)
	}
	rest := append(e.rest[:0], sel...)
	copyFrom := func(v *vec, pos []int32) {
		for _, p := range pos {
			if v.isNull(p) {
				out.setNull(b.n, p)
				if isStr {
					e.sb.setNull(p)
				}
				continue
			}
			switch {
			case isStr:
				e.sb.set(p, v.stringAt(p))
			case out.i32 != nil:
				out.i32[p] = v.i32[p]
			case out.i64 != nil:
				out.i64[p] = v.i64[p]
			case out.vecs != nil:
				out.vecs[p] = v.vecs[p]
			case out.w != nil:
				out.w[p] = v.w[p]
			default:
				out.f64[p] = v.f64[p]
			}
		}
	}
	for i, cond := range e.conds {
		if len(rest) == 0 {
			break
		}
		taken := append(e.taken[:0], cond.filter(b, rest)...)
		e.taken = taken
		if len(taken) > 0 {
			copyFrom(e.results[i].eval(b, taken), taken)
			rest = subtractSorted(rest, taken)
		}
	}
	if len(rest) > 0 {
		copyFrom(e.els.eval(b, rest), rest)
	}
	e.rest = rest
	if isStr {
		e.sb.finish(out, sel)
	}
	return out
}

// subtractSorted removes the (sorted) elements of b from the sorted a, in
// place.
func subtractSorted(a, b []int32) []int32 {
	out := a[:0]
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}
