package cpu

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// operator is a streaming operator or sink of a pipeline: it consumes a batch
// (and may change its selection) before returning.
type operator interface {
	push(b *batch) error
}

// sinkFactory makes a pipeline's sink: a local instance per worker, then a
// finish step after every worker is done (merging local aggregates,
// concatenating collected rows).
type sinkFactory interface {
	local(w int) operator
	finish() error
}

// runPipeline runs the pipeline whose topmost streaming operator (or source)
// is top into the sink made by sf. The source is scanned in morsels of
// morselRows rows, which workers take in turn; each worker pushes its
// morsel through its own instance of every operator, batch by batch.
func (x *executor) runPipeline(top planner.Node, sf sinkFactory, sink planner.Node) error {
	return x.runPipelineUnder(top, nil, sf, sink)
}

// runPipelineUnder runs the pipeline from top's source through top and
// then the streaming operators above (first to last) into sf: above are
// those over a UNION ALL whose input top is (union_all.go).
func (x *executor) runPipelineUnder(top planner.Node, above []planner.Node, sf sinkFactory, sink planner.Node) error {
	defer x.leave(x.enter())
	ops := append([]planner.Node{}, above...)
	n := top
	for planner.Streaming(n) {
		ops = append([]planner.Node{n}, ops...)
		n = planner.StreamInput(n)
	}
	if u := planner.UnionAll(n); u != nil {
		return x.runUnionAll(u, ops, sf, sink)
	}
	src, err := x.pipelineSource(n)
	if hj := streamingJoin(n); hj != nil && isMemoryLimit(err) && !x.runsOnce {
		// A blocking join as the source that does not fit: the pipeline
		// probes it as a hash join instead (blocking_join_spill.go).
		ops = append([]planner.Node{hj}, ops...)
		n = hj.Probe()
		src, err = x.pipelineSource(n)
	}
	if err != nil {
		return err
	}
	// The materialized source has been read whole when the pipeline ends
	// (or it failed: an aggregation past the memory limit runs its input
	// again, and this copy must not stay charged).
	defer x.free(src)
	var skip []bool
	if ts, ok := n.(*planner.TableScan); ok && len(ops) > 0 {
		if f, ok := ops[0].(*planner.Filter); ok {
			skip = zoneSkips(ts, f.Cond)
		}
	}
	// Build every hash table this pipeline probes, materialize every
	// nested-loop join's right input.
	for i, op := range ops {
		switch op := op.(type) {
		case *planner.HashJoin:
			restore := x.attemptMark()
			if _, err := x.joinTable(op); err != nil {
				if graceJoinable(op, err) && !x.runsOnce {
					restore()
					return x.runGraceJoin(src, ops, i, sf, skip, err)
				}
				return err
			}
		case *planner.NestedLoopJoin:
			restore := x.attemptMark()
			if _, err := x.loopInput(op); err != nil {
				if x.loopSpillable(op, err) {
					restore()
					return x.runBlockLoopJoin(src, ops, i, sf, skip)
				}
				return err
			}
		case *planner.EpsilonJoin:
			if _, err := x.epsilonIndexFor(op); err != nil {
				return err
			}
		}
	}
	if ts, ok := n.(*planner.TableScan); ok {
		skip = x.keyRangeSkips(ts, ops, skip)
	}
	var timers [][]*timedOp
	chain := func(w int, sink operator) (operator, error) {
		head, ts, err := x.timedChain(ops, sink)
		timers = append(timers, ts)
		return head, err
	}
	busy, err := x.runRel(src, chain, sf, skip)
	if err != nil {
		return err
	}
	fstart := time.Now()
	if err := sf.finish(); err != nil {
		return err
	}
	if x.stats != nil {
		x.recordPipeline(n, ops, timers, busy)
		if sink != nil {
			// The sink's work: its per-row CPU time plus the merge.
			var d time.Duration
			for _, ts := range timers {
				d += ts[len(ts)-1].dur
			}
			x.stats.Add(sink.Props().ID, 0, d+time.Since(fstart), 0)
		}
	}
	return nil
}

// pipelineSource is the rows a pipeline reads: a table's columns, or n's
// materialized result.
func (x *executor) pipelineSource(n planner.Node) (*rel, error) {
	if ts, ok := n.(*planner.TableScan); ok {
		return scanRel(ts), nil
	}
	if streamingJoin(n) == nil {
		return x.materialize(n)
	}
	// A blocking join past the memory limit is left to the pipeline to
	// stream, not materialized as a hash join's output.
	restore := x.attemptMark()
	outer := x.streamSource
	x.streamSource = n
	r, err := x.materialize(n)
	x.streamSource = outer
	if isMemoryLimit(err) && !x.runsOnce {
		restore()
	}
	return r, err
}

// timedChain instantiates the streaming operators ops in front of sink
// for one worker; under EXPLAIN ANALYZE each stage is behind a timedOp,
// returned in order (ts[k] enters ops[k], the last enters the sink).
func (x *executor) timedChain(ops []planner.Node, sink operator) (head operator, ts []*timedOp, err error) {
	next := sink
	if x.stats != nil {
		t := &timedOp{inner: next}
		ts = append(ts, t)
		next = t
	}
	for i := len(ops) - 1; i >= 0; i-- {
		op, err := x.newOperator(ops[i], next)
		if err != nil {
			return nil, nil, err
		}
		next = op
		if x.stats != nil {
			t := &timedOp{inner: next}
			ts = append([]*timedOp{t}, ts...)
			next = t
		}
	}
	return next, ts, nil
}

// runRel pushes the rows of src, in morsels taken by the workers in turn,
// through a chain of operators per worker (made by chain around the
// worker's local sink). It returns each worker's busy time.
// Morsels with skip[m] set (zone maps) are not read.
func (x *executor) runRel(src *rel, chain func(w int, sink operator) (operator, error), sf sinkFactory, skip []bool) ([]time.Duration, error) {
	workers := x.workers
	morsels := (src.rows + morselRows - 1) / morselRows
	if morsels < workers {
		workers = max(1, morsels)
	}
	chains := make([]operator, workers)
	mw := x.newMorselWarnings(workers)
	for w := 0; w < workers; w++ {
		restore := mw.building(x, w)
		c, err := chain(w, sf.local(w))
		restore()
		if err != nil {
			return nil, err
		}
		chains[w] = c
	}
	// current[w] is the morsel worker w reads (-1: none), whose warnings
	// are still the worker's when it stops.
	current := make([]int, workers)
	for w := range current {
		current[w] = -1
	}
	defer func() { mw.finish(current) }()
	var next atomic.Int64
	var stop atomic.Bool
	errs := make([]error, workers)
	busy := make([]time.Duration, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					if err, ok := recovered(r); ok {
						errs[w] = err
						stop.Store(true)
						return
					}
					if debugPanics {
						panic(r)
					}
					errs[w] = fmt.Errorf("cpu executor: internal error: %v", r)
					stop.Store(true)
				}
			}()
			start := time.Now()
			defer func() { busy[w] = time.Since(start) }()
			b := &batch{}
			vs := make([]*vec, len(src.cols))
			for i := range vs {
				vs[i] = &vec{}
			}
			for !stop.Load() {
				m := int(next.Add(1) - 1)
				if m >= morsels {
					return
				}
				if err := x.ctx.Err(); err != nil {
					errs[w] = err
					stop.Store(true)
					return
				}
				if m < len(skip) && skip[m] {
					mw.ended(w, m)
					continue
				}
				current[w] = m
				lo, hi := m*morselRows, min((m+1)*morselRows, src.rows)
				for off := lo; off < hi; off += batchSize {
					// Checked per batch, not per morsel: a join that fans
					// out can spend seconds on one morsel, and Ctrl-C
					// should stop it at once.
					if off > lo && x.ctx.Err() != nil {
						errs[w] = x.ctx.Err()
						stop.Store(true)
						return
					}
					src.readBatch(b, vs, off, min(batchSize, hi-off))
					b.morsel = m
					if err := chains[w].push(b); err != nil {
						if !errors.Is(err, errStop) {
							errs[w] = err
						}
						stop.Store(true)
						return
					}
				}
				current[w] = -1
				mw.ended(w, m)
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return busy, x.ctx.Err()
}

// timedOp measures the rows entering a stage and the time spent in it and
// everything after it (EXPLAIN ANALYZE only).
type timedOp struct {
	inner   operator
	rows    int64
	batches int64
	dur     time.Duration
}

func (t *timedOp) push(b *batch) error {
	t.rows += int64(len(b.sel))
	t.batches++
	start := time.Now()
	err := t.inner.push(b)
	t.dur += time.Since(start)
	return err
}

// recordPipeline turns the stage timers into per-operator statistics: an
// operator's rows are those entering the next stage, its time its stage's
// minus the next stage's.
func (x *executor) recordPipeline(src planner.Node, ops []planner.Node, timers [][]*timedOp, busy []time.Duration) {
	nst := len(ops) + 1
	rows := make([]int64, nst)
	dur := make([]time.Duration, nst)
	batches := make([]int64, nst)
	var total time.Duration
	for w, ts := range timers {
		total += busy[w]
		for i, t := range ts {
			rows[i] += t.rows
			dur[i] += t.dur
			batches[i] += t.batches
		}
	}
	if _, ok := src.(*planner.TableScan); ok {
		x.stats.Add(src.Props().ID, rows[0], total-dur[0], batches[0])
	}
	for i, op := range ops {
		x.stats.Add(op.Props().ID, rows[i+1], dur[i]-dur[i+1], batches[i+1])
	}
}

// newOperator instantiates a streaming operator for one worker.
func (x *executor) newOperator(n planner.Node, next operator) (operator, error) {
	cp := &compiler{x: x}
	switch n := n.(type) {
	case *planner.Filter:
		s, err := cp.compileFilter(n.Cond)
		if err != nil {
			return nil, err
		}
		return &filterOp{sel: s, next: next}, nil
	case *planner.Projection:
		p := &projectionOp{next: next}
		for i, e := range n.Exprs {
			if n.Needed != nil && i < len(n.Needed) && !n.Needed[i] {
				p.evals = append(p.evals, nilEval{})
				continue
			}
			ev, err := cp.compile(e)
			if err != nil {
				return nil, err
			}
			p.evals = append(p.evals, ev)
		}
		p.out.cols = make([]*vec, len(n.Exprs))
		if x.warnsRowByRow(n) {
			return newRowwiseProjection(p, n), nil
		}
		return p, nil
	case *planner.HashJoin:
		t, err := x.joinTable(n)
		if err != nil {
			return nil, err
		}
		return newHashJoinOp(cp, n, t, next)
	case *planner.NestedLoopJoin:
		return x.newLoopOp(cp, n, next)
	case *planner.EpsilonJoin:
		return x.newEpsilonOp(cp, n, next)
	}
	return nil, fmt.Errorf("cpu: %T is not a streaming operator", n)
}

// collect materializes top's rows; limit >= 0 stops once that many rows
// are collected.
func (x *executor) collect(top planner.Node, limit int64, sink planner.Node) (*rel, error) {
	owner := sink
	if owner == nil {
		owner = top
	}
	cs := &collectSink{x: x, owner: owner, types: typesOf(top.Schema()), limit: limit}
	if err := x.runPipeline(top, cs, sink); err != nil {
		// What was collected is dropped (an operator that spills runs its
		// input again, and must not find it still charged).
		x.release(cs.chunkMem.Swap(0))
		return nil, err
	}
	return cs.result, nil
}

// collectSink keeps each batch's selected rows; finish concatenates them in
// morsel order.
type collectSink struct {
	x *executor
	// owner is the operator the rows are collected for, charged for them.
	owner    planner.Node
	chunkMem atomic.Int64
	types    []columnar.Type
	limit    int64
	count    atomic.Int64
	mu       sync.Mutex
	chunks   []*chunk
	result   *rel
}

type collectLocal struct {
	s   *collectSink
	seq int
}

func (s *collectSink) local(w int) operator { return &collectLocal{s: s} }

func (c *collectLocal) push(b *batch) error {
	if len(b.sel) == 0 {
		return nil
	}
	ch := compact(b, c.s.types)
	n := chunkBytes(ch)
	if err := c.s.x.reserve(c.s.owner, n); err != nil {
		return err
	}
	c.s.chunkMem.Add(n)
	ch.seq = c.seq
	c.seq++
	c.s.mu.Lock()
	c.s.chunks = append(c.s.chunks, ch)
	c.s.mu.Unlock()
	if c.s.limit >= 0 && c.s.count.Add(int64(ch.rows)) >= c.s.limit {
		return errStop
	}
	return nil
}

// finish concatenates the chunks into the result, which is charged as
// much again before it is allocated (both exist while it copies); the
// chunks' bytes are given back after.
func (s *collectSink) finish() error {
	n := s.chunkMem.Load()
	if err := s.x.reserve(s.owner, n); err != nil {
		return err
	}
	s.result = concatChunks(s.chunks, s.types)
	s.result.mem = n
	s.chunks = nil
	s.x.release(s.chunkMem.Swap(0))
	return nil
}

// joinTableBytes is what a join's table over rows build rows holds: key
// words, NULL flags, chains and (at most) two head slots per row.
func joinTableBytes(hj *planner.HashJoin, rows int) int64 {
	return int64(rows) * int64(8*len(hj.BuildKeys())+1+4+8)
}

// joinTable returns the (cached) hash table of a join's build side.
func (x *executor) joinTable(hj *planner.HashJoin) (*joinTable, error) {
	x.mu.Lock()
	t, ok := x.tables[hj]
	x.mu.Unlock()
	if ok {
		return t, nil
	}
	r, err := x.materializeFor(hj.Build(), hj)
	if err != nil {
		return nil, err
	}
	// The table lives until the query ends.
	if err := x.reserve(hj, joinTableBytes(hj, r.rows)); err != nil {
		x.free(r)
		return nil, err
	}
	t, err = x.buildJoinTable(hj, r)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.tables[hj] = t
	x.mu.Unlock()
	return t, nil
}
