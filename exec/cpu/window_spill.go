package cpu

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A window past the memory limit runs its input again into partition files
// by a hash of the PARTITION BY keys every function shares, each row with
// its place in the input (morsel<<32 | batch sequence, row in batch: the
// order collecting it gives). Rows of one window partition then share a
// file, so each file is computed in memory as the whole input is, after
// putting its rows back in input order (the sort of a window is stable,
// so ties keep that order). A file that does not fit is partitioned again
// with another seed. One window partition that does not fit alone is
// streamed over the externally sorted input where the functions allow
// (window_stream.go: ROW_NUMBER, RANK, DENSE_RANK); else it stops with the
// memory limit error naming the functions, rather than growing: they read
// frames anywhere in their partition. Each file's result,
// sorted by place, is a run of an external sort with no keys
// (sort_merge_runs.go), whose merge returns the rows in input order, as
// the in-memory window does.

// windowMaxDepth bounds re-partitioning a window's partition files.
const windowMaxDepth = 6

// windowSpill is one window's spilled run.
type windowSpill struct {
	x     *executor
	n     *planner.Window
	keys  []sql.Expr
	inN   int             // the input's columns
	types []columnar.Type // a partition file's: the input's, then the place
	merge *sortSink       // the results' runs, merged by place
	count spillCount
}

func (x *executor) windowSpilled(n *planner.Window, cause error, restore func()) (*rel, error) {
	if !isMemoryLimit(cause) || x.runsOnce || !spillableTypes(typesOf(n.Out)) {
		return nil, cause
	}
	restore()
	sp := newWindowSpill(x, n)
	defer sp.merge.dropRuns()
	var err error
	if len(sp.keys) == 0 {
		err = windowTooLarge(n, cause, "the whole input is one window partition")
	} else {
		err = sp.partitionAndCompute()
	}
	var tooLarge *windowTooLargeError
	if errors.As(err, &tooLarge) && windowStreams(n) {
		// One window partition does not fit: the functions that need no
		// more than the rows before them stream (window_stream.go).
		restore()
		sp.merge.dropRuns()
		sp.merge.files, sp.merge.wrote, sp.merge.outBytes = 0, 0, 0
		sp.count = spillCount{}
		err = sp.stream()
	}
	if err != nil {
		return nil, err
	}
	sp.merge.files += sp.count.files
	sp.merge.wrote += sp.count.wrote
	if len(sp.merge.runs) == 0 {
		if x.stats != nil {
			x.stats.AddSpill(n.Props().ID, sp.merge.files, sp.merge.wrote)
		}
		outTypes := typesOf(n.Out)
		return &rel{types: outTypes, cols: emptyCols(outTypes)}, nil
	}
	return sp.merge.mergeRuns()
}

func newWindowSpill(x *executor, n *planner.Window) *windowSpill {
	inTypes := typesOf(n.Input.Schema())
	sp := &windowSpill{x: x, n: n, keys: sharedPartitionKeys(n.Funcs), inN: len(inTypes),
		types: append(append([]columnar.Type{}, inTypes...), columnar.TInt64, columnar.TInt64)}
	outTypes := typesOf(n.Out)
	sp.merge = &sortSink{x: x, n: &planner.Sort{Input: n}, owner: n, types: outTypes,
		runTypes: append(append([]columnar.Type{}, outTypes...), columnar.TInt64, columnar.TInt64)}
	return sp
}

// partitionAndCompute runs the input into partition files and computes
// each into a run of the merge.
func (sp *windowSpill) partitionAndCompute() error {
	p := sp.partitioner(0)
	defer p.drop()
	if err := sp.x.runPipeline(sp.n.Input, &placingSink{p: p, inN: sp.inN}, sp.n); err != nil {
		return err
	}
	if err := sp.outputFits(p.rows()); err != nil {
		return err
	}
	for _, part := range p.parts {
		err := sp.computePart(part, 1)
		part.f.Remove()
		if err != nil {
			return err
		}
	}
	return nil
}

// outputFits stops a window whose output, rows of it, could not be held
// (as the spilled sort does), before the partitions are computed.
func (sp *windowSpill) outputFits(rows int64) error {
	if need := rows * rowWidth(sp.merge.types); need > sp.x.mem.Free() {
		return &exec.MemoryLimitError{Limit: sp.x.mem.BindingLimit(), Op: planner.OpName(sp.n)}
	}
	return nil
}

// sharedPartitionKeys are the PARTITION BY expressions of every function.
func sharedPartitionKeys(funcs []sql.WindowFunc) []sql.Expr {
	var keys []sql.Expr
	for _, e := range funcs[0].Partition {
		shared := true
		for _, w := range funcs[1:] {
			shared = shared && slices.ContainsFunc(w.Partition, func(o sql.Expr) bool { return sql.ExprKey(o) == sql.ExprKey(e) })
		}
		if shared {
			keys = append(keys, e)
		}
	}
	return keys
}

// windowTooLargeError is the memory limit error of a window partition
// that must be held whole and does not fit.
type windowTooLargeError struct{ limit *exec.MemoryLimitError }

func (e *windowTooLargeError) Error() string { return e.limit.Error() }
func (e *windowTooLargeError) Unwrap() error { return e.limit }

func windowTooLarge(n *planner.Window, cause error, why string) error {
	var limit *exec.MemoryLimitError
	errors.As(cause, &limit)
	var names []string
	for _, w := range n.Funcs {
		names = append(names, w.String())
	}
	verb := "is"
	if len(names) > 1 {
		verb = "are"
	}
	return &windowTooLargeError{&exec.MemoryLimitError{Limit: limit.Limit, Op: fmt.Sprintf("%s (%s; %s %s computed over whole window partitions in memory)",
		planner.OpName(n), why, strings.Join(names, ", "), verb)}}
}

func (sp *windowSpill) partitioner(seed uint64) *partitioner {
	return newPartitioner(sp.x, sp.n, sp.types, func(cp *compiler) ([]evaluator, error) {
		evs := make([]evaluator, len(sp.keys))
		for i, k := range sp.keys {
			ev, err := cp.compile(k)
			if err != nil {
				return nil, err
			}
			evs[i] = ev
		}
		return evs, nil
	}, seed, &sp.count)
}

// computePart computes one partition file's rows into a run, partitioning
// it again when it does not fit.
func (sp *windowSpill) computePart(part *partFile, depth int) error {
	if part.f == nil {
		return nil
	}
	restore := sp.x.attemptMark()
	err := sp.computeOnce(part)
	if !isMemoryLimit(err) {
		return err
	}
	if depth >= windowMaxDepth {
		return windowTooLarge(sp.n, err, fmt.Sprintf("a window partition of up to %d rows does not fit", part.rows))
	}
	restore()
	p := sp.partitioner(uint64(depth))
	defer p.drop()
	if err := sp.x.runBlocks(part.f, sp.types, p, nil); err != nil {
		return err
	}
	if !p.splits() {
		return windowTooLarge(sp.n, err, fmt.Sprintf("one window partition holds %d rows", part.rows))
	}
	for _, sub := range p.parts {
		err := sp.computePart(sub, depth+1)
		sub.f.Remove()
		if err != nil {
			return err
		}
	}
	return nil
}

// computeOnce reads a partition file whole, computes the functions over
// its rows in input order and writes the result, in that order, as a run.
func (sp *windowSpill) computeOnce(part *partFile) error {
	x := sp.x
	in, err := x.readRel(part.f, sp.types, sp.n)
	if err != nil {
		return err
	}
	defer x.free(in)
	place := sp.inN
	perm := identityPerm(in.rows)
	hi, lo := in.cols[place].I64, in.cols[place+1].I64
	slices.SortFunc(perm, func(a, b int32) int {
		if c := cmp3(hi[a], hi[b]); c != 0 {
			return c
		}
		return cmp3(lo[a], lo[b])
	})
	ordered := gatherRel(in, perm)
	if err := x.own(sp.n, ordered); err != nil {
		return err
	}
	defer x.free(ordered)
	funcs, err := x.windowColumns(sp.n, ordered)
	if err != nil {
		return err
	}
	cols := append(append(append([]*columnar.Column{}, ordered.cols[:place]...), funcs...), ordered.cols[place:]...)
	return sp.writeRun(cols, ordered.rows)
}

// writeRun writes the columns (the output's, then the place) as a run of
// the merge.
func (sp *windowSpill) writeRun(cols []*columnar.Column, rows int) error {
	s := sp.merge
	w, err := newSpillWriter(sp.x.spill, planner.OpName(sp.n), s.runTypes)
	if err != nil {
		return err
	}
	run := &sortRun{nulls: make([]bool, len(s.runTypes))}
	vs := make([]*vec, len(cols))
	for c, col := range cols {
		vs[c] = colVec(col)
		run.nulls[c] = hasNull(vs[c], rows)
	}
	block := make([]*vec, len(cols))
	for lo := 0; lo < rows; lo += spillBlockRows {
		idx := identityPerm(min(spillBlockRows, rows-lo))
		for k := range idx {
			idx[k] += int32(lo)
		}
		for c, v := range vs {
			block[c] = gatherVec(v, idx)
		}
		if err := w.writeBlock(block, len(idx)); err != nil {
			w.f.Remove()
			return err
		}
	}
	run.rows = w.rows
	if run.f, err = w.close(); err != nil {
		return err
	}
	s.runs = append(s.runs, run)
	s.wrote += run.f.Size()
	s.files++
	s.outBytes += run.rows * rowWidth(s.types)
	return nil
}

// placingSink passes each batch to a partitioner with two more columns:
// each row's place in the input.
type placingSink struct {
	p   *partitioner
	inN int // the input's columns
}

type placingLocal struct {
	next operator
	inN  int
	seq  int
}

func (s *placingSink) local(w int) operator { return &placingLocal{next: s.p.local(w), inN: s.inN} }
func (s *placingSink) finish() error        { return s.p.finish() }

func (l *placingLocal) push(b *batch) error {
	if len(b.sel) == 0 {
		return nil
	}
	hi := &vec{t: columnar.TInt64, i64: make([]int64, b.n)}
	lo := &vec{t: columnar.TInt64, i64: make([]int64, b.n)}
	seq := int64(b.morsel)<<32 | int64(l.seq)
	l.seq++
	for k, p := range b.sel {
		hi.i64[p], lo.i64[p] = seq, int64(k)
	}
	cols := make([]*vec, l.inN+2)
	copy(cols, b.cols)
	cols[l.inN], cols[l.inN+1] = hi, lo
	return l.next.push(&batch{n: b.n, sel: b.sel, cols: cols, morsel: b.morsel, off: b.off})
}
