package cpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"sync"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A nested subquery runs its plan in a child executor whose parameters are
// the argument values at a row, once per distinct tuple of them: a
// correlated subquery over a column with few values runs a few times, an
// uncorrelated IN once. The result kept per tuple is what the mode needs
// (the value, whether a row exists, or a summary of the rows to compare
// against), so evaluating a row after the first is a map lookup.

// nestedCacheLimit bounds the tuples remembered per subquery; past it the
// cache starts over, trading repeated runs for bounded memory.
const nestedCacheLimit = 1 << 14

// nestedCache holds one subquery's results by argument tuple, shared by
// every worker evaluating it.
type nestedCache struct {
	mu      sync.Mutex
	results map[string]*nestedResult
	// mem is the bytes reserved for the results.
	mem int64
}

func (x *executor) nestedCache(s *planner.NestedSubquery) *nestedCache {
	x.mu.Lock()
	defer x.mu.Unlock()
	c, ok := x.nested[s]
	if !ok {
		c = &nestedCache{results: map[string]*nestedResult{}}
		x.nested[s] = c
	}
	return c
}

// nestedEval evaluates a NestedSubquery at each selected row.
type nestedEval struct {
	x     *executor
	s     *planner.NestedSubquery
	args  []evaluator
	lhs   []evaluator
	cache *nestedCache
	out   *vec
	key   []byte
}

func (c *compiler) compileNested(s *planner.NestedSubquery) (evaluator, error) {
	e := &nestedEval{x: c.x, s: s, cache: c.x.nestedCache(s), out: newVec(s.T)}
	for _, a := range s.Args {
		ev, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		e.args = append(e.args, ev)
	}
	for _, a := range s.LHS {
		ev, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		e.lhs = append(e.lhs, ev)
	}
	return e, nil
}

func (e *nestedEval) eval(b *batch, sel []int32) *vec {
	args := evalAll(e.args, b, sel)
	lhs := evalAll(e.lhs, b, sel)
	values := make([]*sql.Const, len(sel))
	for i, p := range sel {
		r := e.result(args, p)
		switch e.s.Mode {
		case sql.SubqueryScalar:
			values[i] = r.value
		case sql.SubqueryExists:
			values[i] = boolConst(r.rows > 0, false)
		default:
			row := make([]*sql.Const, len(lhs))
			for j, v := range lhs {
				row[j] = constAt(v, p)
			}
			values[i] = r.compare(e.s.Mode == sql.SubqueryAll, e.s.Op, row)
		}
	}
	fillVec(e.out, b.n, sel, values)
	return e.out
}

func evalAll(evs []evaluator, b *batch, sel []int32) []*vec {
	out := make([]*vec, len(evs))
	for i, ev := range evs {
		out[i] = ev.eval(b, sel)
	}
	return out
}

// result returns the subquery's result for the arguments at row p, running
// it on a miss. Errors abort the query (raise).
func (e *nestedEval) result(args []*vec, p int32) *nestedResult {
	e.key = e.key[:0]
	for _, v := range args {
		e.key = appendKey(e.key, constAt(v, p))
	}
	c := e.cache
	c.mu.Lock()
	r, ok := c.results[string(e.key)]
	c.mu.Unlock()
	if ok {
		return r
	}
	params := make(map[int]*sql.Const, len(e.x.params)+len(args))
	for id, k := range e.x.params {
		params[id] = k
	}
	for i, v := range args {
		params[e.s.Params[i]] = constAt(v, p)
	}
	r, err := e.x.runNested(e.s, params)
	if err != nil {
		raise(err)
	}
	n := r.bytes() + int64(len(e.key))
	if err := e.x.mem.Reserve(n, "nested subquery cache of "+planner.OpName(e.s.Root)); err != nil {
		raise(err)
	}
	c.mu.Lock()
	if len(c.results) >= nestedCacheLimit {
		c.results = map[string]*nestedResult{}
		e.x.release(c.mem)
		c.mem = 0
	}
	c.results[string(e.key)] = r
	c.mem += n
	c.mu.Unlock()
	return r
}

// runNested runs the subquery's plan with params bound and summarizes its
// rows for the mode.
func (x *executor) runNested(s *planner.NestedSubquery, params map[int]*sql.Const) (*nestedResult, error) {
	child := newExecutor(x.ctx)
	child.params = params
	child.spill, child.runsOnce = x.spill, x.runsOnce
	rows, err := child.materialize(s.Root)
	if err != nil {
		return nil, err
	}
	// The summary below is all that is kept.
	defer child.free(rows)
	r := &nestedResult{rows: rows.rows}
	switch s.Mode {
	case sql.SubqueryScalar:
		r.value, err = scalarValue(rows, s.T)
		return r, err
	case sql.SubqueryExists:
		return r, nil
	}
	if len(rows.cols) == 1 {
		r.summarize(rows.cols[0])
		return r, nil
	}
	for i := 0; i < rows.rows; i++ {
		t := make([]*sql.Const, len(rows.cols))
		for j, c := range rows.cols {
			t[j] = columnConst(c, i)
		}
		r.tuples = append(r.tuples, t)
	}
	return r, nil
}

// scalarValue is the value of a scalar subquery's rows: NULL over none, an
// error over more than one (MySQL error 1242), cast to t.
func scalarValue(r *rel, t columnar.Type) (*sql.Const, error) {
	if len(r.cols) != 1 {
		return nil, fmt.Errorf("subquery returns %d columns, want 1", len(r.cols))
	}
	if r.rows > 1 {
		return nil, sql.Errorf(sql.ErSubqueryNo1Row, "Subquery returns more than 1 row")
	}
	if r.rows == 0 {
		return &sql.Const{T: t, Null: true}, nil
	}
	k := columnConst(r.cols[0], 0)
	if !k.Null && !sameType(k.T, t) {
		k = castTo(newConstEval(k), k.T, t).(*constEval).k
	}
	k.T = t
	return k, nil
}

// columnConst reads row i of a column as a literal of the column's type.
func columnConst(c *columnar.Column, i int) *sql.Const {
	k := &sql.Const{T: c.Type}
	switch {
	case c.IsNull(i):
		k.Null = true
	case c.Type.ID == columnar.String:
		k.S = c.StringAt(i)
	case c.Type.ID == columnar.Vector:
		k.V = c.VectorAt(i)
	case c.W != nil:
		k.W = c.W[i]
	case c.F64 != nil:
		k.F = c.F64[i]
	default:
		k.I = c.Int64At(i)
	}
	return k
}

// constAt reads position p of a vector as a literal.
func constAt(v *vec, p int32) *sql.Const {
	k := &sql.Const{T: v.t}
	switch {
	case v.isNull(p):
		k.Null = true
	case v.t.ID == columnar.String:
		k.S = v.stringAt(p)
	case v.t.ID == columnar.Vector:
		k.V = v.vecs[p]
	case v.w != nil:
		k.W = v.w[p]
	case v.f64 != nil:
		k.F = v.f64[p]
	default:
		k.I = v.int64At(p)
	}
	return k
}

func boolConst(b, null bool) *sql.Const {
	k := &sql.Const{T: columnar.TBool, Null: null}
	if b {
		k.I = 1
	}
	return k
}

// appendKey appends a value's bytes to a cache key: a NULL flag, then the
// value (strings length-prefixed, so tuples never run together).
func appendKey(key []byte, k *sql.Const) []byte {
	if k.Null {
		return append(key, 0)
	}
	key = append(key, 1)
	switch {
	case k.T.ID == columnar.String:
		key = binary.AppendUvarint(key, uint64(len(k.S)))
		return append(key, k.S...)
	case k.T.Physical() == columnar.PhysFloat64:
		return binary.LittleEndian.AppendUint64(key, math.Float64bits(k.F))
	case k.T.ID == columnar.Vector:
		return append(columnar.FormatVector(key, k.V), 0)
	case k.T.IsWide():
		// A wide DECIMAL's value is in W (I is 0 for all of them).
		for _, w := range k.W.Array() {
			key = binary.LittleEndian.AppendUint64(key, w)
		}
		return key
	}
	return binary.LittleEndian.AppendUint64(key, uint64(k.I))
}

// fillVec writes values (one per selected position) into out; strings get
// a sorted dictionary of the batch's distinct values, as consumers may
// compare codes of one dictionary by order.
func fillVec(out *vec, n int, sel []int32, values []*sql.Const) {
	out.ensure(n)
	if out.t.ID == columnar.String {
		var strs []string
		seen := map[string]bool{}
		for _, k := range values {
			if !k.Null && !seen[k.S] {
				seen[k.S] = true
				strs = append(strs, k.S)
			}
		}
		sort.Strings(strs)
		code := make(map[string]int32, len(strs))
		for i, s := range strs {
			code[s] = int32(i)
		}
		out.dict = &columnar.Dictionary{Values: strs}
		for i, p := range sel {
			out.i32[p] = code[values[i].S]
		}
	} else {
		for i, p := range sel {
			k := values[i]
			switch {
			case out.i32 != nil:
				out.i32[p] = int32(k.I)
			case out.i64 != nil:
				out.i64[p] = k.I
			case out.vecs != nil:
				out.vecs[p] = k.V
			case out.w != nil:
				out.w[p] = k.W
			default:
				out.f64[p] = k.F
			}
		}
	}
	for i, p := range sel {
		if values[i].Null {
			out.setNull(n, p)
		}
	}
}
