package cpu

import (
	"fmt"
	"strings"

	"gpusql/planner"
	"gpusql/sql"
)

// EpsilonJoin as a streaming SQL operator (see the planner's comment): the
// right input is materialized once and its non-NULL vectors indexed by the
// grid; each left batch, as it streams past, probes the grid row by row
// and the pairs go through pairJoin (the rest of the condition, then the
// operators above) a batch at a time. The grid's predicate is the SQL
// comparison itself (SQLEpsilonLimit), so the rows are the nested loop's.

// epsilonIndex is the indexed right input of an EpsilonJoin.
type epsilonIndex struct {
	right *rel
	grid  *EpsilonGrid    // nil: no right row can match
	rowOf []int32         // right row of each indexed point
	fname string          // the distance function, for errors
	dev   EpsilonOnDevice // the grid on the GPU when the plan puts the pairs there
}

// epsilonOptions turns the plan's options into the grid's.
func epsilonOptions(n *planner.EpsilonJoin) (EpsilonOptions, bool) {
	m := EpsilonL2
	if n.Metric == "L1" {
		m = EpsilonL1
	}
	opt := EpsilonOptions{Metric: m, Reorder: !n.Options.NoReorder, SortIDU: !n.Options.NoSortIDU,
		ShortC: !n.Options.NoShortC, Batching: !n.Options.NoBatching, K: n.Options.K, LimitSet: true}
	var ok bool
	opt.Limit, ok = SQLEpsilonLimit(m, n.Eps, n.Strict)
	return opt, ok
}

// epsilonIndexFor materializes and indexes n's right input once.
func (x *executor) epsilonIndexFor(n *planner.EpsilonJoin) (*epsilonIndex, error) {
	x.mu.Lock()
	idx, ok := x.epsilon[n]
	x.mu.Unlock()
	if ok {
		return idx, nil
	}
	r, err := x.materializeFor(n.Right, n)
	if err != nil {
		return nil, err
	}
	idx = &epsilonIndex{right: r, fname: "vec_" + strings.ToLower(n.Metric) + "_distance"}
	col, err := x.evalColumn(r, n.RightVec)
	if err != nil {
		return nil, err
	}
	// The points, their permuted copy and the sorted grid, with a row
	// number and a sort key per point, reserved before they are made.
	if err := x.reserve(n, 12*int64(len(col.F32))+16*int64(r.rows)); err != nil {
		return nil, err
	}
	var data []float32
	dims := -1
	for i := range r.rows {
		if col.IsNull(i) {
			continue
		}
		v := col.VectorAt(i)
		if dims >= 0 && len(v) != dims {
			return nil, fmt.Errorf("%s(): vectors have different dimensions %d and %d", idx.fname, dims, len(v))
		}
		dims = len(v)
		data = append(data, v...)
		idx.rowOf = append(idx.rowOf, int32(i))
	}
	opt, any := epsilonOptions(n)
	if any && dims > 0 {
		if idx.grid, err = BuildEpsilonGrid(EpsilonPoints{Data: data, Dims: dims}, opt); err != nil {
			return nil, fmt.Errorf("%s: %w", planner.OpName(n), err)
		}
	}
	if err := x.loadEpsilonDevice(n, idx); err != nil {
		return nil, err
	}
	x.mu.Lock()
	if x.epsilon == nil {
		x.epsilon = map[*planner.EpsilonJoin]*epsilonIndex{}
	}
	x.epsilon[n] = idx
	x.mu.Unlock()
	return idx, nil
}

// newEpsilonOp makes one worker's instance of an EpsilonJoin.
func (x *executor) newEpsilonOp(cp *compiler, n *planner.EpsilonJoin, next operator) (operator, error) {
	idx, err := x.epsilonIndexFor(n)
	if err != nil {
		return nil, err
	}
	vec, err := cp.compile(n.LeftVec)
	if err != nil {
		return nil, err
	}
	var res selector
	if n.Filter != nil {
		if res, err = cp.compileFilter(n.Filter); err != nil {
			return nil, err
		}
	}
	r := idx.right
	gather := make([]bool, len(n.Left.Schema())+len(r.cols))
	for i := range gather {
		gather[i] = true
	}
	op := &epsilonOp{x: x, idx: idx, vec: vec, next: next, countOnly: n.CountOnly,
		pj: newPairJoin(sql.JoinInner, true, typesOf(n.Left.Schema()), r.types, r, gather, res, next)}
	op.opt, _ = epsilonOptions(n)
	if idx.grid != nil {
		op.prober = idx.grid.NewProber()
	}
	return op, nil
}

type epsilonOp struct {
	x      *executor
	idx    *epsilonIndex
	vec    evaluator
	pj     *pairJoin
	prober *EpsilonProber
	// The device path (epsilon_device.go): the grid's options, the
	// batch's query points and their positions, per-row weights.
	next      operator
	opt       EpsilonOptions
	countOnly bool
	data      []float32
	pos       []int32
	weight    []int64
}

func (o *epsilonOp) push(b *batch) error {
	if o.prober == nil {
		return nil
	}
	if err := o.x.ctx.Err(); err != nil {
		return err
	}
	if o.idx.dev != nil {
		return o.pushDevice(b)
	}
	o.pj.begin(b)
	v := o.vec.eval(b, b.sel)
	dims := o.idx.grid.Dims
	for _, p := range b.sel {
		if v.isNull(p) {
			continue
		}
		q := v.vecs[p]
		if len(q) != dims {
			return fmt.Errorf("%s(): vectors have different dimensions %d and %d", o.idx.fname, len(q), dims)
		}
		err := o.prober.Probe(q, func(row int32) error { return o.pj.add(b, p, o.idx.rowOf[row]) })
		if err != nil {
			return err
		}
	}
	return o.pj.end(b)
}
