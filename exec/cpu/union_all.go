package cpu

import (
	"sync"
	"sync/atomic"

	"gpusql/planner"
)

// UNION ALL streams: a pipeline whose source is a UNION ALL runs once per
// input, each input's own pipeline continued by the streaming operators
// above the union, into the one sink, which is finished once after the
// last input. Nothing of the union is materialized but what its consumer
// keeps (an aggregation's groups, a sort's runs, the result), so UNION
// ALL needs no spilling of its own: the consumers spill.
//
// Each input's morsels are numbered after the previous input's, so that
// what orders rows by morsel (collecting, a stable sort, a window's places)
// sees the left input's rows first, as concatenating would.

// runUnionAll runs each input of u through ops into sf, then finishes sf.
func (x *executor) runUnionAll(u *planner.SetOp, ops []planner.Node, sf sinkFactory, sink planner.Node) error {
	shared := &unionSink{sf: sf, locals: map[int]operator{}}
	for _, in := range []planner.Node{u.Left, u.Right} {
		shared.base = shared.next.Load()
		if err := x.runPipelineUnder(in, ops, shared, sink); err != nil {
			return err
		}
	}
	if x.stats != nil {
		x.stats.Add(u.Props().ID, shared.rows.Load(), 0, shared.batches.Load())
	}
	return sf.finish()
}

// unionSink hands each worker's batches of every input to one local
// instance of the real sink, renumbering their morsels; its finish is the
// union's (runUnionAll), not each input's.
type unionSink struct {
	sf     sinkFactory
	mu     sync.Mutex
	locals map[int]operator
	// base is added to the morsels of the input running; next is one past
	// the largest morsel handed on so far.
	base          int64
	next          atomic.Int64
	rows, batches atomic.Int64
}

type unionLocal struct {
	s    *unionSink
	base int64
	sink operator
}

func (s *unionSink) local(w int) operator {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.locals[w]
	if !ok {
		l = s.sf.local(w)
		s.locals[w] = l
	}
	return &unionLocal{s: s, base: s.base, sink: l}
}

func (s *unionSink) finish() error { return nil }

func (l *unionLocal) push(b *batch) error {
	m := l.base + int64(b.morsel)
	for {
		next := l.s.next.Load()
		if m < next || l.s.next.CompareAndSwap(next, m+1) {
			break
		}
	}
	l.s.rows.Add(int64(len(b.sel)))
	l.s.batches.Add(1)
	c := *b
	c.morsel = int(m)
	return l.sink.push(&c)
}
