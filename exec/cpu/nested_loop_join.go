package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
)

// NestedLoopJoin pairs every left row with every right row and lets pairJoin
// test the condition. For a NULL-aware anti join a pair whose condition is
// NULL counts as a match (x NOT IN (..., NULL) is never TRUE).
func (x *executor) runNestedLoopJoin(n *planner.NestedLoopJoin) (*rel, error) {
	l, err := x.collect(n.Left, -1, n)
	if err != nil {
		return nil, err
	}
	r, err := x.collect(n.Right, -1, n)
	if err != nil {
		return nil, err
	}
	if n.NullAware && n.Kind == sql.JoinAnti && r.rows == 0 {
		return l, nil
	}
	cs := &collectSink{x: x, owner: n, types: typesOf(n.Out), limit: -1}
	cp := &compiler{x: x}
	gather := make([]bool, len(l.cols)+len(r.cols))
	for i := range gather {
		gather[i] = true
	}
	chain := func(w int, sink operator) (operator, error) {
		var res selector
		if n.Cond != nil {
			if n.NullAware {
				ev, err := cp.compile(n.Cond)
				if err != nil {
					return nil, err
				}
				res = &trueOrNullSel{in: ev}
			} else if res, err = cp.compileFilter(n.Cond); err != nil {
				return nil, err
			}
		}
		kind := n.Kind
		if kind == sql.JoinCross {
			kind = sql.JoinInner
		}
		pj := newPairJoin(kind, true, l.types, r.types, r, gather, res, sink)
		return &loopOp{rows: int32(r.rows), pj: pj,
			semiShortcut: n.Cond == nil && (kind == sql.JoinSemi || kind == sql.JoinAnti)}, nil
	}
	if _, err := x.runRel(l, chain, cs, nil); err != nil {
		return nil, err
	}
	if err := cs.finish(); err != nil {
		return nil, err
	}
	return cs.result, nil
}

type loopOp struct {
	rows         int32
	pj           *pairJoin
	semiShortcut bool
}

func (o *loopOp) push(b *batch) error {
	o.pj.begin(b)
	for _, p := range b.sel {
		for r := int32(0); r < o.rows; r++ {
			if err := o.pj.add(b, p, r); err != nil {
				return err
			}
			if o.semiShortcut {
				break
			}
		}
	}
	return o.pj.end(b)
}

// trueOrNullSel keeps positions where a boolean is TRUE or NULL.
type trueOrNullSel struct {
	in  evaluator
	buf []int32
}

func (s *trueOrNullSel) filter(b *batch, sel []int32) []int32 {
	v := s.in.eval(b, sel)
	out := s.buf[:0]
	for _, p := range sel {
		if v.isNull(p) || v.i32[p] != 0 {
			out = append(out, p)
		}
	}
	s.buf = out
	return out
}
