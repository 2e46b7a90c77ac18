package cpu

import (
	"slices"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A window partition larger than the memory limit (or a window with no
// PARTITION BY over an input that does not fit) is computed in one pass
// over the input sorted by the window's partition and order keys: an
// external sort (sort_spill.go), stable by input place like the in-memory
// sort of a window, whose merge hands the rows over one at a time to the
// functions' state (window_stream_funcs.go: the functions that need the
// rows before the current one, a few after it, or its peers). The rows,
// with their values and places, are gathered in buffers as large as the
// memory allows, each sorted by place into a run of the window's merge,
// which returns them in input order.

// stream computes the window by one pass over its sorted input, writing
// the results as runs of sp.merge.
func (sp *windowSpill) stream() error {
	x, n := sp.x, sp.n
	w := &n.Funcs[0]
	keys := make([]sql.SortKey, 0, len(w.Partition)+len(w.Order))
	for _, e := range w.Partition {
		keys = append(keys, sql.SortKey{Expr: e})
	}
	keys = append(keys, w.Order...)
	s := newSortSink(x, &planner.Sort{Input: n.Input, Keys: keys})
	s.owner = n
	defer s.dropRuns()
	if err := x.runPipeline(n.Input, s, n); err != nil {
		return err
	}
	if len(s.chunks) > 0 {
		if err := s.spillRun(); err != nil {
			return err
		}
	}
	var rows int64
	for _, r := range s.runs {
		rows += r.rows
	}
	if err := sp.outputFits(rows); err != nil {
		return err
	}
	perRun, err := s.mergeDown(0)
	if err != nil {
		return err
	}
	cursors := int64(len(s.runs)) * perRun
	if err := x.reserve(n, cursors); err != nil {
		return err
	}
	defer x.release(cursors)
	ws := newWindowStream(sp, s)
	// The rows before (LAG) and the rows waiting hold their blocks.
	ring := int64(len(ws.ring)+int(ws.lead)+1) * spillBlockRows * rowWidth(s.runTypes)
	if err := x.reserve(n, ring); err != nil {
		return err
	}
	defer x.release(ring)
	defer func() { x.release(ws.held + ws.waitHeld) }()
	if err := ws.newBuffer(); err != nil {
		return err
	}
	if err := s.merge(s.runs, ws.add); err != nil {
		return err
	}
	if err := ws.endPartition(); err != nil {
		return err
	}
	sp.count.files += s.files
	sp.count.wrote += s.wrote
	return ws.flush()
}

// newBuffer reserves and makes a buffer of rows: half the free memory, at
// least a block.
func (ws *windowStream) newBuffer() error {
	x := ws.sp.x
	// The input's columns and place, a value of each function and the
	// state of each SUM / AVG.
	width := rowWidth(ws.sp.types) + 9*int64(len(ws.vals)) + 40*int64(ws.sums)
	rows := int(min(max(x.mem.Free()/(4*width), spillBlockRows), 1<<20))
	// The rows, and their copy in place order while they are written.
	ws.held = 2 * int64(rows) * width
	if err := x.reserve(ws.sp.n, ws.held); err != nil {
		ws.held = 0
		return err
	}
	ws.buf = &rel{types: ws.sp.types, rows: rows, cols: make([]*columnar.Column, len(ws.sp.types))}
	for c, t := range ws.sp.types {
		ws.buf.cols[c] = newColumn(t, rows, true)
	}
	ws.build = newRelBuilder(ws.buf)
	for f := range ws.vals {
		ws.vals[f] = make([]int64, rows)
	}
	ws.sumBuf = make([][]sumState, ws.sums)
	for i := range ws.sumBuf {
		ws.sumBuf[i] = make([]sumState, rows)
	}
	ws.bufRows = 0
	if len(ws.refCols) > 0 {
		ws.refBuf = &rel{types: make([]columnar.Type, len(ws.refCols)), rows: rows, cols: make([]*columnar.Column, len(ws.refCols))}
		for i, c := range ws.refCols {
			t := ws.sort.runTypes[c]
			ws.refBuf.types[i], ws.refBuf.cols[i] = t, newColumn(t, rows, true)
		}
		ws.refBuild = newRelBuilder(ws.refBuf)
	}
	return nil
}

// write puts a row with its values in the buffer, flushing a full one.
func (ws *windowStream) write(e *pendingRow) error {
	cols := e.row.cols
	// The input's columns, then the place (the run's last two).
	ws.row = append(append(ws.row[:0], cols[:ws.sp.inN]...), cols[len(cols)-2:]...)
	if err := ws.build.add(ws.row, e.row.p); err != nil {
		return err
	}
	for f, v := range e.vals {
		ws.vals[f][ws.bufRows] = v
	}
	for i, st := range e.sums {
		ws.sumBuf[i][ws.bufRows] = st
	}
	if ws.refBuild != nil {
		for k, r := range e.refs {
			ws.refBuild.set(k, r.v, r.p)
		}
		ws.refBuild.k++
	}
	if ws.bufRows++; ws.bufRows < ws.buf.rows {
		return nil
	}
	if err := ws.flush(); err != nil {
		return err
	}
	ws.build = newRelBuilder(ws.buf)
	if ws.refBuf != nil {
		ws.refBuild = newRelBuilder(ws.refBuf)
	}
	ws.bufRows = 0
	return nil
}

// flush writes the buffered rows, in place order, as a run of the merge.
func (ws *windowStream) flush() error {
	k := ws.bufRows
	if k == 0 {
		return nil
	}
	part := firstRows(ws.buf, ws.build, k)
	place := ws.sp.inN
	hi, lo := part.cols[place].I64, part.cols[place+1].I64
	perm := identityPerm(k)
	slices.SortFunc(perm, func(a, b int32) int {
		if c := cmp3(hi[a], hi[b]); c != 0 {
			return c
		}
		return cmp3(lo[a], lo[b])
	})
	ordered := gatherRel(part, perm)
	var refs *rel
	if ws.refBuf != nil {
		refs = gatherRel(firstRows(ws.refBuf, ws.refBuild, k), perm)
	}
	cols := append([]*columnar.Column{}, ordered.cols[:place]...)
	for f, fn := range ws.funcs {
		if fn.byRef() {
			cols = append(cols, refs.cols[fn.ref])
			continue
		}
		if fn.kind == streamSum {
			cols = append(cols, ws.sumColumn(&ws.funcs[f], perm))
			continue
		}
		col := newColumn(columnar.TInt64, k, false)
		for i, r := range perm {
			col.I64[i] = ws.vals[f][r]
		}
		cols = append(cols, col)
	}
	cols = append(cols, ordered.cols[place:]...)
	return ws.sp.writeRun(cols, k)
}

// firstRows finishes b's first k rows of buf (the builder recodes their
// strings) and returns them as a rel viewing buf's columns.
func firstRows(buf *rel, b *relBuilder, k int) *rel {
	part := &rel{types: buf.types, rows: k, cols: make([]*columnar.Column, len(buf.cols))}
	for _, col := range buf.cols {
		col.Len = k
	}
	b.finish()
	for c, col := range buf.cols {
		view := *col
		col.Len = buf.rows
		switch {
		case view.I32 != nil:
			view.I32 = view.I32[:k]
		case view.I64 != nil:
			view.I64 = view.I64[:k]
		default:
			view.F64 = view.F64[:k]
		}
		part.cols[c] = &view
	}
	return part
}
