package cpu

import (
	"errors"
	"sync"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// HashAggregate runs as the sink of its input's pipeline. Each worker
// aggregates into its own state — under AggDense an array indexed by the
// mixed-radix slot of the keys (no hashing, no key comparison), under AggHash
// a groupTable — and the states are merged at the end. With a DISTINCT
// aggregate all workers share one state behind a lock instead (the
// per-group value sets would not merge cheaply).

// errDenseRange reports a key outside the domain the planner derived for
// AggDense (statistics disagreeing with the data); the aggregate is rerun
// with AggHash.
var errDenseRange = errors.New("dense aggregation key out of range")

func (x *executor) runAggregate(n *planner.HashAggregate) (*rel, error) {
	r, err := x.aggregate(n, n.Input, n.GroupBy, n.Aggs, n.Strategy, n.DenseKeys)
	if errors.Is(err, errDenseRange) {
		r, err = x.aggregate(n, n.Input, n.GroupBy, n.Aggs, planner.AggHash, nil)
	}
	return r, err
}

func (x *executor) aggregate(n planner.Node, input planner.Node, groups []sql.Expr, aggs []sql.AggExpr,
	strategy planner.AggStrategy, dk []planner.DenseKey) (*rel, error) {
	s, err := x.newAggSink(n, groups, aggs, strategy, dk)
	if err != nil {
		return nil, err
	}
	restore := x.attemptMark()
	if err := x.runPipeline(input, s, n); err != nil {
		s.releaseStates()
		if spillAggregate(err, groups) && !x.runsOnce {
			restore()
			return x.aggregateSpilled(n, input, groups, aggs, err)
		}
		return nil, err
	}
	return s.result, nil
}

// newAggSink makes the sink of an aggregation by strategy.
func (x *executor) newAggSink(n planner.Node, groups []sql.Expr, aggs []sql.AggExpr,
	strategy planner.AggStrategy, dk []planner.DenseKey) (*aggSink, error) {
	s := &aggSink{x: x, node: n, groups: groups, aggs: aggs, dense: strategy == planner.AggDense, dk: dk}
	for _, a := range aggs {
		s.hasDistinct = s.hasDistinct || a.Distinct
	}
	if s.dense {
		s.slots = 1
		s.strides = make([]int64, len(dk))
		for i := len(dk) - 1; i >= 0; i-- {
			s.strides[i] = s.slots
			s.slots *= dk[i].Size
		}
		for _, g := range groups {
			if g.Type().ID == columnar.String {
				c, ok := g.(*sql.ColRef)
				if !ok || c.Col.Dict == nil {
					return nil, errDenseRange
				}
				s.dicts = append(s.dicts, c.Col.Dict)
			} else {
				s.dicts = append(s.dicts, nil)
			}
		}
	} else {
		s.interners = make([]*interner, len(groups))
		for i, g := range groups {
			if g.Type().ID == columnar.String || isVectorKey(g.Type()) {
				var base *columnar.Dictionary
				if c, ok := g.(*sql.ColRef); ok {
					base = c.Col.Dict
				}
				s.interners[i] = newInterner(base)
			}
		}
	}
	return s, nil
}

// releaseStates gives back what the states of an aggregation that
// failed were charged.
func (s *aggSink) releaseStates() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.locals {
		s.x.release(l.st.charged)
		l.st.charged = 0
	}
}

// aggState is one set of per-group aggregates.
type aggState struct {
	n        int // groups (dense: slots)
	rowCount []int64
	accs     []accumulator
	gt       *groupTable
	// charged is the bytes reserved for this state so far.
	charged int64
}

// bytes estimates the state's size: per group slot its row count and
// accumulators, and the group table's keys, hashes and slots.
func (st *aggState) bytes() int64 {
	n := int64(cap(st.rowCount)) * int64(8+16*len(st.accs))
	if gt := st.gt; gt != nil {
		n += int64(len(gt.slots))*4 + int64(cap(gt.hashes))*8
		for _, w := range gt.words {
			n += int64(cap(w)) * 9
		}
	}
	for _, a := range st.accs {
		if h, ok := a.(interface{ heldBytes() int64 }); ok {
			n += h.heldBytes()
		}
	}
	return n
}

// charge reserves what the state has grown by since the last charge.
func (s *aggSink) charge(st *aggState) error {
	if d := st.bytes() - st.charged; d > 0 {
		if err := s.x.reserve(s.node, d); err != nil {
			return err
		}
		st.charged += d
	}
	return nil
}

func (st *aggState) grow(n int) {
	if n <= len(st.rowCount) {
		return
	}
	c := max(n, 2*len(st.rowCount))
	st.rowCount = growTo(st.rowCount, c)
	for _, a := range st.accs {
		a.grow(c)
	}
}

type aggSink struct {
	x           *executor
	node        planner.Node
	groups      []sql.Expr
	aggs        []sql.AggExpr
	dense       bool
	dk          []planner.DenseKey
	strides     []int64
	slots       int64
	dicts       []*columnar.Dictionary
	interners   []*interner
	hasDistinct bool

	mu     sync.Mutex
	shared *aggState
	locals []*aggLocal
	result *rel
}

func (s *aggSink) newState() *aggState {
	st := &aggState{}
	for _, a := range s.aggs {
		st.accs = append(st.accs, newAccumulator(a))
	}
	if s.dense {
		st.n = int(s.slots)
		st.grow(st.n)
	} else {
		st.gt = newGroupTable(len(s.groups))
		if len(s.groups) == 0 {
			st.n = 1
		}
		st.grow(max(st.n, 1024))
	}
	return st
}

type aggLocal struct {
	s    *aggSink
	st   *aggState
	lock bool
	keys []evaluator
	args []evaluator
	// order are GROUP_CONCAT's ORDER BY evaluators, per aggregate.
	order [][]evaluator
	enc   []keyEncoder
	kw    [][]int64
	kn    [][]bool
	knull [][]bool
	gids  []int32
	err   error
}

func (s *aggSink) local(w int) operator {
	l := &aggLocal{s: s}
	cp := &compiler{x: s.x}
	for i, g := range s.groups {
		ev, err := cp.compile(g)
		if err != nil {
			l.err = err
		}
		l.keys = append(l.keys, ev)
		l.kw = append(l.kw, make([]int64, batchSize))
		l.knull = append(l.knull, make([]bool, batchSize))
		l.kn = append(l.kn, nil)
		enc := keyEncoder{t: g.Type(), insert: true}
		if !s.dense {
			enc.in = s.interners[i]
		}
		l.enc = append(l.enc, enc)
	}
	for _, a := range s.aggs {
		var ev evaluator
		if a.Arg != nil {
			var err error
			if ev, err = cp.compile(a.Arg); err != nil {
				l.err = err
			}
		}
		l.args = append(l.args, ev)
		var ord []evaluator
		for _, k := range a.Order {
			ev, err := cp.compile(k.Expr)
			if err != nil {
				l.err = err
			}
			ord = append(ord, ev)
		}
		l.order = append(l.order, ord)
	}
	l.gids = make([]int32, batchSize)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hasDistinct {
		if s.shared == nil {
			s.shared = s.newState()
		}
		l.st, l.lock = s.shared, true
	} else {
		l.st = s.newState()
	}
	if err := s.charge(l.st); err != nil && l.err == nil {
		l.err = err
	}
	s.locals = append(s.locals, l)
	return l
}

func (l *aggLocal) push(b *batch) error {
	if l.err != nil {
		return l.err
	}
	sel := b.sel
	if len(sel) == 0 {
		return nil
	}
	if l.lock {
		l.s.mu.Lock()
		defer l.s.mu.Unlock()
	}
	st := l.st
	var gids []int32
	if len(l.keys) > 0 {
		gids = l.gids[:len(sel)]
		var err error
		if l.s.dense {
			err = l.denseSlots(b, sel, gids)
		} else {
			l.hashGroups(b, sel, gids)
		}
		if err != nil {
			return err
		}
	}
	switch {
	case b.weight != nil:
		for k, p := range sel {
			g := int32(0)
			if gids != nil {
				g = gids[k]
			}
			st.rowCount[g] += b.weight[p]
		}
	case gids == nil:
		st.rowCount[0] += int64(len(sel))
	default:
		rc := st.rowCount
		for _, g := range gids {
			rc[g]++
		}
	}
	for i, a := range st.accs {
		var v *vec
		if l.args[i] != nil {
			v = l.args[i].eval(b, sel)
		}
		if k, ok := a.(keyedAccumulator); ok {
			var keys []*vec
			for _, ev := range l.order[i] {
				keys = append(keys, ev.eval(b, sel))
			}
			k.setKeys(keys, b.morsel)
		}
		a.update(gids, v, sel)
	}
	return l.s.charge(st)
}

// denseSlots computes each row's slot: Σ offset_i × stride_i.
func (l *aggLocal) denseSlots(b *batch, sel []int32, gids []int32) error {
	for k := range gids {
		gids[k] = 0
	}
	for i, ev := range l.keys {
		v := ev.eval(b, sel)
		dk := l.s.dk[i]
		stride := int32(l.s.strides[i])
		nullOff := int32(dk.Size-1) * stride
		if d := l.s.dicts[i]; d != nil && v.dict != d {
			return errDenseRange
		}
		lim := uint64(dk.Size - 1)
		switch {
		case v.i32 != nil && v.nulls == nil:
			lo := int64(dk.Min)
			for k, p := range sel {
				off := uint64(int64(v.i32[p]) - lo)
				if off >= lim {
					return errDenseRange
				}
				gids[k] += int32(off) * stride
			}
		default:
			for k, p := range sel {
				if v.isNull(p) {
					gids[k] += nullOff
					continue
				}
				off := uint64(v.int64At(p) - dk.Min)
				if off >= lim || v.f64 != nil {
					return errDenseRange
				}
				gids[k] += int32(off) * stride
			}
		}
	}
	return nil
}

// hashGroups finds or creates each row's group in the worker's table.
func (l *aggLocal) hashGroups(b *batch, sel []int32, gids []int32) {
	for i, ev := range l.keys {
		v := ev.eval(b, sel)
		if l.enc[i].encode(v, sel, l.kw[i], l.knull[i]) {
			l.kn[i] = l.knull[i]
		} else {
			l.kn[i] = nil
		}
	}
	st := l.st
	gt := st.gt
	for k, p := range sel {
		h := hashKey(l.kw, l.kn, p)
		gids[k] = gt.findOrInsert(l.kw, l.kn, p, h)
	}
	st.n = gt.n
	st.grow(gt.n)
}

func (s *aggSink) finish() error {
	var st *aggState
	if s.shared != nil {
		st = s.shared
	} else {
		for _, l := range s.locals {
			if st == nil {
				st = l.st
				continue
			}
			s.mergeInto(st, l.st)
		}
		if st == nil {
			st = s.newState()
		}
	}
	s.result = s.output(st)
	for _, l := range s.locals {
		s.x.release(l.st.charged)
		l.st.charged = 0
	}
	return s.x.own(s.node, s.result)
}

func (s *aggSink) mergeInto(dst, src *aggState) {
	var m []int32
	if !s.dense && len(s.groups) > 0 {
		m = make([]int32, src.gt.n)
		for g := 0; g < src.gt.n; g++ {
			if g&(1<<16-1) == 0 {
				if err := s.x.ctx.Err(); err != nil {
					raise(err)
				}
			}
			m[g] = dst.gt.findOrInsertGroup(src.gt, int32(g))
		}
		dst.n = dst.gt.n
		dst.grow(dst.n)
	}
	if s.dense && len(s.groups) > 0 {
		s.mergeDense(dst, src)
		return
	}
	for g := 0; g < src.n; g++ {
		dst.rowCount[mapGroup(m, g)] += src.rowCount[g]
	}
	for i, a := range dst.accs {
		a.merge(src.accs[i], m, src.n)
	}
}

// mergeDense folds a dense table into another slot by slot, touching only
// the slots src saw rows in: a dense key space (Q3.2's cities × cities ×
// years) is far larger than what one morsel fills, and walking every slot
// of every local dominated the query.
func (s *aggSink) mergeDense(dst, src *aggState) {
	var slots []int32
	for g, c := range src.rowCount[:src.n] {
		if c != 0 {
			dst.rowCount[g] += c
			slots = append(slots, int32(g))
		}
	}
	for i, a := range dst.accs {
		if sm, ok := a.(slotMerger); ok {
			sm.mergeSlots(src.accs[i], slots)
		} else {
			a.merge(src.accs[i], nil, src.n)
		}
	}
}

// output builds the result: group columns, then aggregates.
func (s *aggSink) output(st *aggState) *rel {
	var groups []int32
	switch {
	case len(s.groups) == 0:
		groups = []int32{0}
	case s.dense:
		for g := 0; g < st.n; g++ {
			if st.rowCount[g] > 0 {
				groups = append(groups, int32(g))
			}
		}
	default:
		groups = make([]int32, st.n)
		for g := range groups {
			groups[g] = int32(g)
		}
	}
	r := &rel{rows: len(groups)}
	for i, g := range s.groups {
		t := g.Type()
		r.types = append(r.types, t)
		if s.dense {
			r.cols = append(r.cols, s.denseKeyColumn(i, t, groups))
			continue
		}
		words := make([]int64, len(groups))
		nulls := make([]bool, len(groups))
		for k, gid := range groups {
			words[k] = st.gt.words[i][gid]
			nulls[k] = st.gt.nulls[i][gid]
		}
		r.cols = append(r.cols, decodeKey(t, words, nulls, s.interners[i]))
	}
	for i, a := range st.accs {
		r.types = append(r.types, s.aggs[i].T)
		r.cols = append(r.cols, a.result(groups, st.rowCount))
		if gc, ok := a.(*groupConcatAcc); ok {
			gc.noteCut(s.x.warn) // MySQL's 1260 per result row cut
		}
	}
	return r
}

// denseKeyColumn decodes key i from the slots.
func (s *aggSink) denseKeyColumn(i int, t columnar.Type, groups []int32) *columnar.Column {
	dk := s.dk[i]
	stride := s.strides[i]
	hasNull := false
	offs := make([]int64, len(groups))
	for k, g := range groups {
		offs[k] = int64(g) / stride % dk.Size
		hasNull = hasNull || offs[k] == dk.Size-1
	}
	col := newColumn(t, len(groups), hasNull)
	if s.dicts[i] != nil {
		col.Dict = s.dicts[i]
	}
	for k, off := range offs {
		if off == dk.Size-1 {
			col.SetNull(k)
			continue
		}
		if hasNull {
			col.SetValid(k)
		}
		putColInt(col, k, dk.Min+off)
	}
	return col
}
