package cpu

import (
	"math"
	"slices"
	"sort"
	"sync/atomic"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// RangeJoinCount (see the planner's comment) materializes its sorted input,
// evaluates the key there and sorts the non-NULL values in the comparison
// type; the probe input then streams as a pipeline into a sink whose
// workers binary-search each row's bounds and add up the counts. Memory:
// the sorted input and one word per sorted row; nothing per pair.

func (x *executor) runRangeJoinCount(n *planner.RangeJoinCount) (*rel, error) {
	s, err := x.collect(n.Sorted, -1, n)
	if err != nil {
		return nil, err
	}
	keys := &rangeKeys{rows: int64(s.rows), float: n.Cmp.Physical() == columnar.PhysFloat64}
	if n.Key != nil {
		if err := x.reserve(n, 8*int64(s.rows)); err != nil {
			return nil, err
		}
		col, err := x.evalColumn(s, n.Key)
		if err != nil {
			return nil, err
		}
		keys.load(col, n.Key.Type(), n.Cmp)
	}
	x.free(s)
	sink := &rangeCountSink{x: x, n: n, keys: keys}
	if err := x.runPipeline(n.Probe, sink, n); err != nil {
		return nil, err
	}
	out := &rel{types: typesOf(n.Out), rows: 1, cols: make([]*columnar.Column, len(n.Out))}
	for i, c := range n.Out {
		out.cols[i] = newColumn(c.Type, 1, false)
		out.cols[i].I64[0] = sink.total.Load()
	}
	return out, nil
}

// rangeKeys are the sorted side's key values in the comparison type.
type rangeKeys struct {
	rows  int64 // all sorted-side rows (the count of a cross join)
	float bool
	i     []int64
	f     []float64
}

func (k *rangeKeys) load(col *columnar.Column, from, to columnar.Type) {
	for r := 0; r < col.Len; r++ {
		if col.IsNull(r) {
			continue
		}
		iv, fv := int64(0), 0.0
		if col.F64 != nil {
			fv = col.F64[r]
		} else {
			iv = col.Int64At(r)
		}
		iv, fv = cmpWord(iv, fv, from, to)
		if k.float {
			k.f = append(k.f, fv)
		} else {
			k.i = append(k.i, iv)
		}
	}
	slices.Sort(k.i)
	slices.Sort(k.f)
}

// cmpWord brings a value of type from (its int64 or float64 word) to the
// comparison type to, as the executors' comparisons do (sql.OperandType):
// a decimal is rescaled, anything compared with a DOUBLE becomes one.
func cmpWord(iv int64, fv float64, from, to columnar.Type) (int64, float64) {
	if to.Physical() == columnar.PhysFloat64 {
		if from.Physical() == columnar.PhysFloat64 {
			return 0, fv
		}
		return 0, float64(iv) / math.Pow10(from.DecimalScale())
	}
	if d := to.DecimalScale() - from.DecimalScale(); d > 0 {
		iv *= columnar.Pow10[d]
	}
	return iv, 0
}

// below is the number of keys < v (inclusive: <= v).
func (k *rangeKeys) below(iv int64, fv float64, inclusive bool) int64 {
	if k.float {
		return int64(sort.Search(len(k.f), func(j int) bool {
			return k.f[j] > fv || (!inclusive && k.f[j] == fv)
		}))
	}
	return int64(sort.Search(len(k.i), func(j int) bool {
		return k.i[j] > iv || (!inclusive && k.i[j] == iv)
	}))
}

func (k *rangeKeys) nonNull() int64 { return int64(len(k.i) + len(k.f)) }

type rangeCountSink struct {
	x     *executor
	n     *planner.RangeJoinCount
	keys  *rangeKeys
	total atomic.Int64
}

func (s *rangeCountSink) finish() error { return nil }

func (s *rangeCountSink) local(w int) operator {
	l := &rangeCountLocal{s: s}
	cp := &compiler{x: s.x}
	compile := func(e sql.Expr) evaluator {
		if e == nil || l.err != nil {
			return nil
		}
		ev, err := cp.compile(e)
		if err != nil {
			l.err = err
		}
		return ev
	}
	if s.n.Lo != nil {
		l.lo = compile(s.n.Lo.E)
	}
	if s.n.Hi != nil {
		l.hi = compile(s.n.Hi.E)
	}
	l.ne = compile(s.n.Ne)
	return l
}

type rangeCountLocal struct {
	s          *rangeCountSink
	lo, hi, ne evaluator
	err        error
}

// bound evaluates a bound over the batch; ok is false at NULL rows.
type boundVals struct {
	v *vec
	t columnar.Type
}

func (l *rangeCountLocal) push(b *batch) error {
	if l.err != nil {
		return l.err
	}
	n, k := l.s.n, l.s.keys
	if n.Key == nil {
		l.s.total.Add(int64(len(b.sel)) * k.rows)
		return nil
	}
	eval := func(ev evaluator, e sql.Expr) *boundVals {
		if ev == nil {
			return nil
		}
		return &boundVals{v: ev.eval(b, b.sel), t: e.Type()}
	}
	var lo, hi, ne *boundVals
	if n.Lo != nil {
		lo = eval(l.lo, n.Lo.E)
	}
	if n.Hi != nil {
		hi = eval(l.hi, n.Hi.E)
	}
	ne = eval(l.ne, n.Ne)
	var sum int64
	for _, p := range b.sel {
		c, ok := l.count(p, lo, hi, ne)
		if ok {
			sum += c
		}
	}
	l.s.total.Add(sum)
	return nil
}

// count is the number of sorted keys that row p's bounds admit; ok is
// false when a bound is NULL (no comparison with NULL is TRUE).
func (l *rangeCountLocal) count(p int32, lo, hi, ne *boundVals) (int64, bool) {
	n, k := l.s.n, l.s.keys
	word := func(b *boundVals) (int64, float64, bool) {
		if b.v.isNull(p) {
			return 0, 0, false
		}
		iv, fv := int64(0), 0.0
		if b.v.f64 != nil {
			fv = b.v.f64[p]
		} else {
			iv = b.v.int64At(p)
		}
		iv, fv = cmpWord(iv, fv, b.t, n.Cmp)
		return iv, fv, true
	}
	if ne != nil {
		iv, fv, ok := word(ne)
		if !ok {
			return 0, false
		}
		return k.nonNull() - (k.below(iv, fv, true) - k.below(iv, fv, false)), true
	}
	from, to := int64(0), k.nonNull()
	if lo != nil {
		iv, fv, ok := word(lo)
		if !ok {
			return 0, false
		}
		// key > v skips the keys <= v; key >= v those < v.
		from = k.below(iv, fv, !n.Lo.Inclusive)
	}
	if hi != nil {
		iv, fv, ok := word(hi)
		if !ok {
			return 0, false
		}
		to = k.below(iv, fv, n.Hi.Inclusive)
	}
	return max(0, to-from), true
}
