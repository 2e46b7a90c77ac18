package cpu

import (
	"errors"
	"sort"
	"sync"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The sort is the sink of its input's pipeline. Each batch's rows are kept
// as a chunk, and each chunk reserves what sorting it in memory will cost:
// the chunk, its copy in the concatenated input, the key columns, the
// permutation and the integer sort's words. When that reservation fails
// (the memory limit), the sink sorts the chunks it holds into a run — the
// rows in key order, the evaluated keys beside them, and each row's place
// in the input (morsel, batch, row) — writes the run to a spill file
// (spill_codec.go) and gives the memory back. After the input ends, runs
// are merged (sort_merge_runs.go): a heap of run cursors ordered by the
// keys and then by place, which is the in-memory sort's order (stable by
// input position), so a spilled sort returns exactly the rows, in exactly
// the order, that it returns unspilled. Only the sort's output is whole in
// memory then, not its input twice over.

// sortSink collects the sort's input and spills it in sorted runs.
type sortSink struct {
	x *executor
	n *planner.Sort
	// owner is the operator charged and named: the sort, or a window
	// merging its partitions back into input order (window_spill.go).
	owner planner.Node
	types []columnar.Type
	// keyCol is each key's column in a run: an input column for a plain
	// column reference, else an evaluated column after the input's.
	keyCol    []int
	extraKeys []int // keys evaluated into their own run column
	runTypes  []columnar.Type
	spillable bool

	mu     sync.Mutex
	chunks []*chunk
	held   int64 // reserved for chunks
	runs   []*sortRun
	// wrote is the bytes written to spill files, runs the files.
	wrote, files int64
	// outBytes is what the runs' rows take as output columns.
	outBytes int64
}

// sortRun is one sorted run on disk.
type sortRun struct {
	f    *exec.SpillFile
	rows int64
	// nulls says which run columns hold a NULL.
	nulls []bool
}

func newSortSink(x *executor, n *planner.Sort) *sortSink {
	s := &sortSink{x: x, n: n, owner: n, types: typesOf(n.Input.Schema())}
	s.runTypes = append([]columnar.Type{}, s.types...)
	for i, k := range n.Keys {
		if c, ok := k.Expr.(*sql.ColRef); ok && c.Index < len(s.types) {
			s.keyCol = append(s.keyCol, c.Index)
			continue
		}
		s.keyCol = append(s.keyCol, len(s.runTypes))
		s.extraKeys = append(s.extraKeys, i)
		s.runTypes = append(s.runTypes, k.Expr.Type())
	}
	// The row's place: morsel<<32 | batch sequence, then row in batch.
	s.runTypes = append(s.runTypes, columnar.TInt64, columnar.TInt64)
	s.spillable = spillableTypes(s.runTypes)
	return s
}

// runSort sorts n's input: in memory when it fits, else by spilled runs.
func (x *executor) runSort(n *planner.Sort) (*rel, error) {
	s := newSortSink(x, n)
	defer s.dropRuns()
	if err := x.runPipeline(n.Input, s, n); err != nil {
		return nil, err
	}
	if len(s.runs) == 0 {
		return s.sortInMemory()
	}
	return s.mergeRuns()
}

type sortLocal struct {
	s   *sortSink
	seq int
}

func (s *sortSink) local(w int) operator { return &sortLocal{s: s} }

func (l *sortLocal) push(b *batch) error {
	if len(b.sel) == 0 {
		return nil
	}
	s := l.s
	ch := compact(b, s.types)
	ch.seq = l.seq
	l.seq++
	cost := 2*chunkBytes(ch) + int64(ch.rows)*int64(8*len(s.n.Keys)+12)
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.x.reserve(s.owner, cost)
	var limit *exec.MemoryLimitError
	if err != nil && errors.As(err, &limit) && s.spillable && len(s.chunks) > 0 {
		if err := s.spillRun(); err != nil {
			return err
		}
		if s.outBytes > s.x.mem.Free() {
			// The merge's output would not fit: stop now rather than
			// spill the rest of the input first.
			return limit
		}
		err = s.x.reserve(s.owner, cost)
	}
	if err != nil {
		return err
	}
	s.chunks = append(s.chunks, ch)
	s.held += cost
	return nil
}

// finish writes what is left as the last run once the sort has spilled.
func (s *sortSink) finish() error {
	if len(s.runs) > 0 && len(s.chunks) > 0 {
		return s.spillRun()
	}
	return nil
}

// sortInMemory sorts the collected input, as the sort always does when it
// fits: the chunks' reservation covers every buffer below, and what the
// output needs of it stays charged to the output.
func (s *sortSink) sortInMemory() (*rel, error) {
	in := concatChunks(s.chunks, s.types)
	s.chunks = nil
	keys, err := s.x.sortKeys(in, s.n.Keys)
	if err != nil {
		return nil, err
	}
	perm := identityPerm(in.rows)
	if err := s.x.sortRows(perm, keys); err != nil {
		return nil, err
	}
	out := gatherRel(in, perm)
	out.mem = min(s.held, relBytes(out))
	s.x.release(s.held - out.mem)
	s.held = 0
	return out, nil
}

// spillRun sorts the chunks held into a run on disk and gives their memory
// back (under s.mu).
func (s *sortSink) spillRun() error {
	chunks := s.chunks
	s.chunks = nil
	sortChunksByPlace(chunks)
	in := concatChunks(chunks, s.types)
	keys, err := s.x.sortKeys(in, s.n.Keys)
	if err != nil {
		return err
	}
	perm := identityPerm(in.rows)
	if err := s.x.sortRows(perm, keys); err != nil {
		return err
	}
	run, err := s.writeRun(in, keys, chunks, perm)
	if err != nil {
		return err
	}
	s.runs = append(s.runs, run)
	s.wrote += run.f.Size()
	s.files++
	s.outBytes += run.rows * rowWidth(s.types)
	s.x.release(s.held)
	s.held = 0
	return nil
}

// sortChunksByPlace orders chunks as concatChunks does (it then keeps
// that order), so that a row's index in the concatenation maps back to
// its chunk.
func sortChunksByPlace(chunks []*chunk) {
	sort.SliceStable(chunks, func(i, j int) bool {
		if chunks[i].morsel != chunks[j].morsel {
			return chunks[i].morsel < chunks[j].morsel
		}
		return chunks[i].seq < chunks[j].seq
	})
}

// spillBlockRows is the rows of a block of a spill file.
const spillBlockRows = 512

// writeRun writes in's rows in perm's order with the evaluated extra keys
// and each row's place.
func (s *sortSink) writeRun(in *rel, keys *sortKeyCols, chunks []*chunk, perm []int32) (*sortRun, error) {
	w, err := newSpillWriter(s.x.spill, planner.OpName(s.owner), s.runTypes)
	if err != nil {
		return nil, err
	}
	run := &sortRun{nulls: make([]bool, len(s.runTypes))}
	starts := make([]int, len(chunks))
	for i, off := 0, 0; i < len(chunks); i++ {
		starts[i], off = off, off+chunks[i].rows
	}
	srcs := append([]*columnar.Column{}, in.cols...)
	for _, k := range s.extraKeys {
		srcs = append(srcs, keys.cols[k])
	}
	cols := make([]*vec, len(s.runTypes))
	for lo := 0; lo < len(perm); lo += spillBlockRows {
		if err := s.x.checkEvery(lo/spillBlockRows, 16); err != nil {
			return nil, err
		}
		idx := perm[lo:min(lo+spillBlockRows, len(perm))]
		for c, col := range srcs {
			cols[c] = nil
			if col != nil {
				cols[c] = colVec(gatherColumn(col, idx))
				run.nulls[c] = run.nulls[c] || hasNull(cols[c], len(idx))
			}
		}
		cols[len(srcs)], cols[len(srcs)+1] = placeVecs(chunks, starts, idx)
		if err := w.writeBlock(cols, len(idx)); err != nil {
			return nil, err
		}
	}
	run.rows = w.rows
	run.f, err = w.close()
	return run, err
}

// placeVecs returns the places (morsel<<32 | sequence, row in batch) of
// the rows idx of the concatenation of chunks (which start at starts).
func placeVecs(chunks []*chunk, starts []int, idx []int32) (*vec, *vec) {
	hi := &vec{t: columnar.TInt64, i64: make([]int64, len(idx))}
	lo := &vec{t: columnar.TInt64, i64: make([]int64, len(idx))}
	for k, i := range idx {
		c := sort.SearchInts(starts, int(i)+1) - 1
		hi.i64[k] = int64(chunks[c].morsel)<<32 | int64(chunks[c].seq)
		lo.i64[k] = int64(int(i) - starts[c])
	}
	return hi, lo
}

func hasNull(v *vec, n int) bool {
	if v == nil {
		return n > 0
	}
	for _, null := range v.nulls[:min(n, len(v.nulls))] {
		if null {
			return true
		}
	}
	return false
}

// dropRuns removes the sort's spill files (those of a query that ended
// early go with the query's spill directory too).
func (s *sortSink) dropRuns() {
	for _, r := range s.runs {
		r.f.Remove()
	}
	s.runs = nil
	if s.held > 0 {
		s.x.release(s.held)
		s.held = 0
	}
}
