package cpu

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A nested-loop join whose right (inner) input does not fit runs as a
// block nested-loop join (Kim, 1980; the "block nested loops" of every
// textbook): the inner input is written to a spill file, and so are the
// rows of the outer (left) input as they leave the operators before the
// join; then the outer file is read back in blocks as large as the memory
// left allows, and for each outer block the inner file is read once, a few
// blocks at a time, every outer row paired with every inner row there.
// The workers split each outer block by batches, each reading the inner
// file itself. An outer row's match state lives across the inner blocks:
// when the inner file ends, LEFT joins emit the outer rows left without a
// pair, NULL-extended, semi joins the matched rows, anti joins the others.
// The pairs of one outer row come inner block by inner block, so the
// join's rows are in another order than in memory (a join promises none).

// loopInnerRows is the inner rows paired with an outer block at once.
const loopInnerRows = 2 * spillBlockRows

// blockLoop is one block nested-loop join's state.
type blockLoop struct {
	x      *executor
	n      *planner.NestedLoopJoin
	after  []planner.Node // the streaming operators after the join
	sf     sinkFactory
	inner  *fileSink
	outer  *fileSink
	lTypes []columnar.Type
	rTypes []columnar.Type
	// workers are each worker's join and what follows it.
	workers []*loopWorker
}

type loopWorker struct {
	pj     *pairJoin
	timers []*timedOp
	busy   time.Duration
}

// loopSpillable says whether join n, whose right input failed with err,
// runs as a block nested-loop join.
func (x *executor) loopSpillable(n *planner.NestedLoopJoin, err error) bool {
	return isMemoryLimit(err) && !x.runsOnce &&
		spillableTypes(typesOf(n.Left.Schema())) && spillableTypes(typesOf(n.Right.Schema()))
}

// runBlockLoopJoin runs the pipeline src → ops → sf with ops[i] as a block
// nested-loop join.
func (x *executor) runBlockLoopJoin(src *rel, ops []planner.Node, i int, sf sinkFactory, skip []bool) error {
	n := ops[i].(*planner.NestedLoopJoin)
	bl := &blockLoop{x: x, n: n, after: ops[i+1:], sf: sf,
		lTypes: typesOf(n.Left.Schema()), rTypes: typesOf(n.Right.Schema())}
	bl.inner = &fileSink{x: x, owner: n, types: bl.rTypes}
	bl.outer = &fileSink{x: x, owner: n, types: bl.lTypes}
	defer bl.inner.drop()
	defer bl.outer.drop()
	if err := x.runPipeline(n.Right, bl.inner, n); err != nil {
		return err
	}
	var timers [][]*timedOp
	before := func(w int, sink operator) (operator, error) {
		head, ts, err := x.timedChain(ops[:i], sink)
		timers = append(timers, ts)
		return head, err
	}
	busy, err := x.runRel(src, before, bl.outer, skip)
	if err != nil {
		return err
	}
	if err := bl.outer.finish(); err != nil {
		return err
	}
	if x.stats != nil {
		x.recordPipeline(planner.StreamInput(ops[0]), ops[:i], timers, busy)
		x.stats.AddSpill(n.Props().ID, bl.inner.files()+bl.outer.files(), bl.inner.size()+bl.outer.size())
	}
	if err := bl.joinBlocks(); err != nil {
		return err
	}
	if x.stats != nil {
		bl.record()
	}
	return sf.finish()
}

// newWorkers makes k workers' joins and chains.
func (bl *blockLoop) newWorkers(k int) error {
	for w := len(bl.workers); w < k; w++ {
		head, ts, err := bl.x.timedChain(bl.after, bl.sf.local(w))
		if err != nil {
			return err
		}
		pj, err := bl.x.loopPairs(&compiler{x: bl.x}, bl.n, &rel{types: bl.rTypes, cols: emptyCols(bl.rTypes)}, head)
		if err != nil {
			return err
		}
		bl.workers = append(bl.workers, &loopWorker{pj: pj, timers: ts})
	}
	return nil
}

// workerBytes is what a worker holds beside the outer block: its reader
// of the inner file and the inner rows decoded and gathered as a rel (its
// batch of pairs is a pipeline's batch, uncharged as theirs are).
func (bl *blockLoop) workerBytes() int64 {
	return int64(spillBufBytes) + 2*loopInnerRows*rowWidth(bl.rTypes)
}

// joinBlocks reads the outer file in blocks and joins each with the inner
// file.
func (bl *blockLoop) joinBlocks() error {
	x := bl.x
	if bl.outer.f == nil {
		return nil // no outer row: no output of any kind
	}
	// Workers while the outer block keeps at least half the memory.
	workers := int(max(1, min(int64(x.workers), x.mem.Free()/(2*bl.workerBytes()))))
	held := int64(workers) * bl.workerBytes()
	if err := x.reserve(bl.n, held); err != nil {
		return err
	}
	defer x.release(held)
	if err := bl.newWorkers(workers); err != nil {
		return err
	}
	rd, err := openSpillReader(bl.outer.f, bl.lTypes)
	if err != nil {
		return err
	}
	defer rd.close()
	var pending *chunk
	for block := 0; ; block++ {
		outer, next, err := bl.readOuterBlock(rd, pending)
		if err != nil || outer == nil {
			return err
		}
		pending = next
		err = bl.joinBlock(outer, block)
		x.free(outer)
		if err != nil {
			return err
		}
	}
}

// readOuterBlock reads outer rows (first those of pending, a chunk read
// but not taken last time) while the memory allows, at least one chunk. It
// returns the block (nil at the file's end) and the chunk it could not take.
func (bl *blockLoop) readOuterBlock(rd *spillReader, pending *chunk) (*rel, *chunk, error) {
	x := bl.x
	var chunks []*chunk
	var held int64
	for {
		ch := pending
		pending = nil
		if ch == nil {
			cols, n, err := rd.readBlock()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				x.release(held)
				return nil, nil, err
			}
			ch = &chunk{rows: n, cols: cols}
		}
		ch.seq = len(chunks)
		// The chunk and its copy in the block.
		b := 2 * chunkBytes(ch)
		if err := x.reserve(bl.n, b); err != nil {
			if len(chunks) == 0 {
				x.release(held)
				return nil, nil, err
			}
			pending = ch
			break
		}
		held += b
		chunks = append(chunks, ch)
	}
	if len(chunks) == 0 {
		return nil, nil, nil
	}
	// The block keeps half of what was reserved; the chunks go.
	r := concatChunks(chunks, bl.lTypes)
	r.mem = held / 2
	x.release(held - r.mem)
	return r, pending, nil
}

// joinBlock pairs the outer block with the whole inner file, the workers
// taking its batches in turn, then emits the rows the join kind keeps
// from its match state.
func (bl *blockLoop) joinBlock(outer *rel, block int) error {
	batches := (outer.rows + batchSize - 1) / batchSize
	matched := make([]bool, outer.rows)
	if err := bl.x.reserve(bl.n, int64(outer.rows)); err != nil {
		return err
	}
	defer bl.x.release(int64(outer.rows))
	errs := make([]error, len(bl.workers))
	var wg sync.WaitGroup
	for w, lw := range bl.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					errs[w] = recoveredError(r)
				}
			}()
			start := time.Now()
			errs[w] = bl.joinShare(lw, outer, matched, w, batches, block)
			lw.busy += time.Since(start)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// joinShare is worker w's part of joinBlock: the outer batches w, w+k, ...
func (bl *blockLoop) joinShare(lw *loopWorker, outer *rel, matched []bool, w, batches, block int) error {
	x, k := bl.x, len(bl.workers)
	if w >= batches {
		return nil
	}
	var rd *spillReader // nil: no inner row
	if bl.inner.f != nil {
		var err error
		if rd, err = openSpillReader(bl.inner.f, bl.rTypes); err != nil {
			return err
		}
		defer rd.close()
	}
	b := &batch{}
	vs := make([]*vec, len(outer.cols))
	for i := range vs {
		vs[i] = &vec{}
	}
	skipMatched := bl.n.Kind == sql.JoinSemi || bl.n.Kind == sql.JoinAnti
	for rd != nil {
		inner, err := readInnerRows(rd, bl.rTypes)
		if err != nil || inner == nil {
			if err != nil {
				return err
			}
			break
		}
		lw.pj.build = inner
		for ob := w; ob < batches; ob += k {
			if err := x.ctx.Err(); err != nil {
				return err
			}
			off := ob * batchSize
			outer.readBatch(b, vs, off, min(batchSize, outer.rows-off))
			b.morsel = block<<20 | ob
			if err := bl.pairBatch(lw.pj, b, inner.rows, matched[off:], skipMatched); err != nil {
				return err
			}
		}
	}
	// The rows the kind keeps from the match state: pairJoin.end reads it.
	for ob := w; ob < batches; ob += k {
		off := ob * batchSize
		outer.readBatch(b, vs, off, min(batchSize, outer.rows-off))
		b.morsel = block<<20 | ob
		lw.pj.begin(b)
		copy(lw.pj.matched, matched[off:off+b.n])
		if err := lw.pj.end(b); err != nil {
			return err
		}
	}
	return nil
}

// pairBatch pairs outer batch b with the inner rows (pj.build), pushing
// the pairs, and records the outer rows' matches in matched (indexed by
// b's positions). Semi and anti joins skip rows already matched.
func (bl *blockLoop) pairBatch(pj *pairJoin, b *batch, innerRows int, matched []bool, skipMatched bool) error {
	pj.begin(b)
	for _, p := range b.sel {
		if skipMatched && matched[p] {
			continue
		}
		for r := int32(0); r < int32(innerRows); r++ {
			if err := pj.add(b, p, r); err != nil {
				return err
			}
		}
	}
	if err := pj.flush(b); err != nil {
		return err
	}
	for _, p := range b.sel {
		matched[p] = matched[p] || pj.matched[p]
	}
	return nil
}

// readInnerRows reads up to loopInnerRows rows of the inner file as a rel
// (nil at its end).
func readInnerRows(rd *spillReader, types []columnar.Type) (*rel, error) {
	var chunks []*chunk
	rows := 0
	for rows < loopInnerRows {
		cols, n, err := rd.readBlock()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, &chunk{seq: len(chunks), rows: n, cols: cols})
		rows += n
	}
	if len(chunks) == 0 {
		return nil, nil
	}
	return concatChunks(chunks, types), nil
}

// record notes the rows out of the join and the operators after it.
func (bl *blockLoop) record() {
	var timers [][]*timedOp
	var busy []time.Duration
	var rows, batches int64
	for _, lw := range bl.workers {
		timers = append(timers, lw.timers)
		busy = append(busy, lw.busy)
		rows += lw.timers[0].rows
		batches += lw.timers[0].batches
	}
	bl.x.stats.Add(bl.n.Props().ID, rows, 0, batches)
	bl.x.recordPipeline(bl.n, bl.after, timers, busy)
}

// fileSink writes the rows it is given to one spill file (created with
// the first row), in blocks of at most spillBlockRows.
type fileSink struct {
	x     *executor
	owner planner.Node
	types []columnar.Type
	mu    sync.Mutex
	w     *spillWriter
	f     *exec.SpillFile // the file, once finished
}

type fileLocal struct{ s *fileSink }

func (s *fileSink) local(w int) operator { return fileLocal{s} }

func (l fileLocal) push(b *batch) error {
	if len(b.sel) == 0 {
		return nil
	}
	s := l.s
	if b.weight != nil {
		return fmt.Errorf("%s: cannot spill weighted rows", planner.OpName(s.owner))
	}
	ch := compact(b, s.types)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w == nil {
		w, err := newSpillWriter(s.x.spill, planner.OpName(s.owner), s.types)
		if err != nil {
			return err
		}
		s.w = w
	}
	// Blocks of spillBlockRows: the inner file is read a few at a time.
	for lo := 0; lo < ch.rows; lo += spillBlockRows {
		n := min(spillBlockRows, ch.rows-lo)
		cols := ch.cols
		if lo > 0 || n < ch.rows {
			cols = make([]*vec, len(ch.cols))
			idx := identityPerm(n)
			for k := range idx {
				idx[k] += int32(lo)
			}
			for c, v := range ch.cols {
				if v != nil {
					cols[c] = gatherVec(v, idx)
				}
			}
		}
		if err := s.w.writeBlock(cols, n); err != nil {
			return err
		}
	}
	return nil
}

func (s *fileSink) finish() error {
	if s.w == nil || s.f != nil {
		return nil
	}
	f, err := s.w.close()
	s.f = f
	return err
}

func (s *fileSink) files() int64 {
	if s.f == nil {
		return 0
	}
	return 1
}

func (s *fileSink) size() int64 {
	if s.f == nil {
		return 0
	}
	return s.f.Size()
}

// drop removes the file.
func (s *fileSink) drop() {
	if s.w != nil {
		s.w.f.Remove()
	}
}
