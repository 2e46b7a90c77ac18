package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
)

// NestedLoopJoin is a streaming operator: its right input is materialized
// once (the pipeline's build, charged to the join), and each batch of the
// left input, as it streams past, is paired with every right row, the pairs
// going through pairJoin (which tests the condition and applies the join
// kind) a batch at a time into the rest of the pipeline. So a cross or
// theta join under an aggregate, a TopN or a LIMIT never holds its pairs,
// and the left input is split into morsels across the workers. For a
// NULL-aware anti join a pair whose condition is NULL counts as a match
// (x NOT IN (..., NULL) is never TRUE). A right input past the memory
// limit makes it a block nested-loop join (nested_loop_spill.go).

// loopInput returns the (cached) materialized right input of a join.
func (x *executor) loopInput(n *planner.NestedLoopJoin) (*rel, error) {
	x.mu.Lock()
	r, ok := x.loops[n]
	x.mu.Unlock()
	if ok {
		return r, nil
	}
	r, err := x.materializeFor(n.Right, n)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.loops[n] = r
	x.mu.Unlock()
	return r, nil
}

// newLoopOp makes one worker's instance of a nested-loop join.
func (x *executor) newLoopOp(cp *compiler, n *planner.NestedLoopJoin, next operator) (operator, error) {
	r, err := x.loopInput(n)
	if err != nil {
		return nil, err
	}
	pj, err := x.loopPairs(cp, n, r, next)
	if err != nil {
		return nil, err
	}
	kind := pj.kind
	return &loopOp{x: x, rows: int32(r.rows), pj: pj,
		semiShortcut: n.Cond == nil && (kind == sql.JoinSemi || kind == sql.JoinAnti)}, nil
}

// loopPairs makes the pairJoin that tests and emits a nested-loop join's
// pairs of left rows and rows of build (its right input, or a block of it).
func (x *executor) loopPairs(cp *compiler, n *planner.NestedLoopJoin, build *rel, next operator) (*pairJoin, error) {
	var res selector
	if n.Cond != nil {
		if n.NullAware {
			ev, err := cp.compile(n.Cond)
			if err != nil {
				return nil, err
			}
			res = &trueOrNullSel{in: ev}
		} else {
			var err error
			if res, err = cp.compileFilter(n.Cond); err != nil {
				return nil, err
			}
		}
	}
	kind := n.Kind
	if kind == sql.JoinCross {
		kind = sql.JoinInner
	}
	nl := len(n.Left.Schema())
	gather := make([]bool, nl+len(build.cols))
	for i := range gather {
		gather[i] = true
	}
	return newPairJoin(kind, true, typesOf(n.Left.Schema()), build.types, build, gather, res, next), nil
}

// loopCheckPairs is how many pairs a loopOp forms between two looks at the
// context: a left batch against a large right input is billions of pairs,
// and cancellation must not wait for it (a few milliseconds of work).
const loopCheckPairs = 1 << 18

type loopOp struct {
	x            *executor
	rows         int32
	pj           *pairJoin
	semiShortcut bool
}

func (o *loopOp) push(b *batch) error {
	o.pj.begin(b)
	pairs := 0
	for _, p := range b.sel {
		if pairs += int(o.rows); pairs >= loopCheckPairs {
			pairs = 0
			if err := o.x.ctx.Err(); err != nil {
				return err
			}
		}
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
