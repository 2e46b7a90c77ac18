package cpu

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Hash aggregation (and DISTINCT) past the memory limit: the aggregation
// that failed is given up and its input run again, each row written to
// one of aggFanOut partition files by a hash of its group key, so that
// every group's rows are in one file. Each file is then aggregated on its
// own, block by block, with the same sink and every aggregate function
// (the files hold input rows, not partial states, so COUNT(DISTINCT),
// GROUP_CONCAT, JSON_ARRAYAGG and the rest need nothing of their own). A
// partition still too large is partitioned again with a new hash seed; one
// that does not split (a single group past the limit) stops with the
// memory limit error. The groups come out partition by partition: a hash
// aggregation promises no order.

// aggFanOut is the partitions per pass: each costs one open file and no
// buffer (a batch's rows for a partition are written as one block). A
// variable for the tests of re-partitioning.
var aggFanOut = 32

// aggMaxDepth bounds re-partitioning: 32^4 partitions are a million.
const aggMaxDepth = 4

// spillAggregate says whether an aggregation that failed with err can
// spill: it passed the memory limit and has group keys to partition by.
func spillAggregate(err error, groups []sql.Expr) bool {
	var limit *exec.MemoryLimitError
	return errors.As(err, &limit) && len(groups) > 0
}

// aggSpill is one spilled aggregation.
type aggSpill struct {
	x      *executor
	n      planner.Node
	groups []sql.Expr
	aggs   []sql.AggExpr
	types  []columnar.Type
	cause  error // the memory limit error that made it spill
	count  spillCount
	mu     sync.Mutex // see aggregateOnce
}

func (x *executor) aggregateSpilled(n planner.Node, input planner.Node, groups []sql.Expr, aggs []sql.AggExpr, cause error) (*rel, error) {
	sp := &aggSpill{x: x, n: n, groups: groups, aggs: aggs, types: typesOf(input.Schema()), cause: cause}
	for _, g := range groups {
		if !spillableTypes([]columnar.Type{g.Type()}) {
			return nil, cause
		}
	}
	if !spillableTypes(sp.types) {
		return nil, cause
	}
	p := sp.partitioner(0)
	defer p.drop()
	if err := x.runPipeline(input, p, n); err != nil {
		return nil, err
	}
	outs, err := sp.aggregateParts(p.parts)
	if err != nil {
		return nil, err
	}
	if x.stats != nil {
		x.stats.AddSpill(n.Props().ID, sp.count.files, sp.count.wrote)
	}
	return x.concatOwned(n, outs)
}

// aggregateParts aggregates the partitions, up to x.workers at once. A
// partition that finds the memory taken (by the others, or because it
// does not fit) is left for after, when it runs alone, partitioned again
// if it still does not fit.
func (sp *aggSpill) aggregateParts(parts []*partFile) ([]*rel, error) {
	results := make([]*rel, len(parts))
	retry := make([]bool, len(parts))
	var next atomic.Int64
	var stop atomic.Bool
	workers := max(1, min(sp.x.workers, len(parts)))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					errs[w] = recoveredError(r)
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(parts) {
					return
				}
				r, err := sp.aggregateOnce(parts[i])
				switch {
				case spillAggregate(err, sp.groups):
					retry[i] = true
				case err != nil:
					errs[w] = err
					stop.Store(true)
					return
				default:
					results[i] = r
				}
			}
		}(w)
	}
	wg.Wait()
	var outs []*rel
	for _, r := range results {
		if r != nil {
			outs = append(outs, r)
		}
	}
	fail := func(err error) ([]*rel, error) {
		for _, o := range outs {
			sp.x.free(o)
		}
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return fail(err)
		}
	}
	for i, part := range parts {
		if retry[i] {
			r, err := sp.aggregatePart(part, 1)
			if err != nil {
				return fail(err)
			}
			outs = append(outs, r...)
		}
		part.f.Remove()
	}
	return outs, nil
}

// aggregateOnce aggregates one partition file in memory (nil: an empty
// partition).
func (sp *aggSpill) aggregateOnce(part *partFile) (*rel, error) {
	if part.f == nil {
		return nil, nil
	}
	// Compiling touches the executor's caches: one worker at a time. The
	// evaluators compiled now note their warnings in this attempt's list,
	// kept only if the attempt succeeds (a partition that gives up runs
	// again alone and notes them then).
	sp.mu.Lock()
	stmt := sp.x.warn
	attempt := sql.NewAttempt()
	if stmt != nil {
		sp.x.warn = attempt
	}
	s, err := sp.x.newAggSink(sp.n, sp.groups, sp.aggs, planner.AggHash, nil)
	var l operator
	if err == nil {
		l = s.local(0)
	}
	sp.x.warn = stmt
	sp.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err = sp.x.pushFile(part.f, sp.types, l, s.forgetBlock); err == nil {
		err = s.finish()
	}
	if err != nil {
		s.releaseStates()
		return nil, err
	}
	stmt.Merge(attempt)
	return s.result, nil
}

// aggregatePart aggregates one partition file, partitioning it again when
// it does not fit.
func (sp *aggSpill) aggregatePart(part *partFile, depth int) ([]*rel, error) {
	r, err := sp.aggregateOnce(part)
	switch {
	case err == nil && r == nil:
		return nil, nil
	case err == nil:
		return []*rel{r}, nil
	case !spillAggregate(err, sp.groups) || depth >= aggMaxDepth:
		return nil, err
	}
	p := sp.partitioner(uint64(depth))
	defer p.drop()
	if err := sp.x.runBlocks(part.f, sp.types, p, nil); err != nil {
		return nil, err
	}
	if !p.splits() {
		return nil, err // one group (or one hash) holds every row
	}
	var outs []*rel
	for _, sub := range p.parts {
		r, err := sp.aggregatePart(sub, depth+1)
		sub.f.Remove()
		if err != nil {
			for _, o := range outs {
				sp.x.free(o)
			}
			return nil, err
		}
		outs = append(outs, r...)
	}
	return outs, nil
}

// concatOwned puts the results of an operator's partitions into one,
// charged to n (each part's charge is given back).
func (x *executor) concatOwned(n planner.Node, outs []*rel) (*rel, error) {
	if len(outs) == 1 {
		return outs[0], nil
	}
	var chunks []*chunk
	for i, o := range outs {
		ch := relChunk(o)
		ch.seq = i
		chunks = append(chunks, ch)
	}
	out := concatChunks(chunks, typesOf(n.Schema()))
	for _, o := range outs {
		x.free(o)
	}
	if err := x.own(n, out); err != nil {
		return nil, err
	}
	return out, nil
}

// runBlocks pushes the blocks of a spill file, in order, through one
// worker of sf, then finishes it; after calls after each block (nil:
// none).
func (x *executor) runBlocks(f *exec.SpillFile, types []columnar.Type, sf sinkFactory, after func([]*vec)) error {
	if err := x.pushFile(f, types, sf.local(0), after); err != nil {
		return err
	}
	return sf.finish()
}

// pushFile pushes the blocks of a spill file, in order, into op.
func (x *executor) pushFile(f *exec.SpillFile, types []columnar.Type, op operator, after func([]*vec)) error {
	rd, err := openSpillReader(f, types)
	if err != nil {
		return err
	}
	defer rd.close()
	for m := 0; ; m++ {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		cols, n, err := rd.readBlock()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		sel := identSel
		if n > len(sel) {
			sel = identityPerm(n)
		}
		if err := op.push(&batch{n: n, sel: sel[:n], cols: cols, morsel: m}); err != nil {
			return err
		}
		if after != nil {
			after(cols)
		}
	}
}

// recoveredError is the error of a panic recovered in a worker goroutine:
// a raised error (raise.go) as itself, anything else as an internal error.
func recoveredError(r any) error {
	if err, ok := recovered(r); ok {
		return err
	}
	if debugPanics {
		panic(r)
	}
	return fmt.Errorf("cpu executor: internal error: %v", r)
}

// forgetBlock drops the interners' mappings of a spilled block's
// dictionaries: each block has its own, used once.
func (s *aggSink) forgetBlock(cols []*vec) {
	for _, in := range s.interners {
		if in != nil {
			in.forget(cols)
		}
	}
}

// partitioner writes input rows to partitions by their group key.
func (sp *aggSpill) partitioner(seed uint64) *partitioner {
	keys := func(cp *compiler) ([]evaluator, error) {
		var evs []evaluator
		for _, g := range sp.groups {
			ev, err := cp.compile(g)
			if err != nil {
				return nil, err
			}
			evs = append(evs, ev)
		}
		return evs, nil
	}
	return newPartitioner(sp.x, sp.n, sp.types, keys, seed, &sp.count)
}
