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
// sort of a window, whose merge hands the rows over one at a time. Only
// functions whose value needs no row after the current one's peers and
// nothing but counts stream: ROW_NUMBER, RANK and DENSE_RANK over one
// window (the others read frames, offsets or the partition's size, and
// stop with the memory limit error naming them). The rows, with their
// values and places, are gathered in buffers as large as the memory
// allows, each sorted by place into a run of the window's merge, which
// returns them in input order.

// windowStreams says whether n's functions can be computed by one pass
// over its input sorted by their one window.
func windowStreams(n *planner.Window) bool {
	for i := range n.Funcs {
		w := &n.Funcs[i]
		switch w.Func {
		case sql.WinRowNumber, sql.WinRank, sql.WinDenseRank:
		default:
			return false
		}
		if windowSortKey(w) != windowSortKey(&n.Funcs[0]) {
			return false
		}
	}
	return true
}

// windowStream is the pass over the sorted rows.
type windowStream struct {
	sp   *windowSpill
	sort *sortSink
	np   int // partition keys: the sort's first keys, then the order keys
	// prev is the row before (nil: none), in a block the merge has moved
	// past but not changed.
	prev  []*vec
	prevP int
	// rowNum, rank and dense are the current row's in its partition.
	rowNum, rank, dense int64
	// buf holds rows (the input's columns and the place) until it is
	// written as a run; vals are each function's values for them.
	buf     *rel
	build   *relBuilder
	vals    [][]int64
	bufRows int
	held    int64
	row     []*vec // the columns of the row added
}

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
	perRun, err := s.mergeDown(0)
	if err != nil {
		return err
	}
	cursors := int64(len(s.runs)) * perRun
	if err := x.reserve(n, cursors); err != nil {
		return err
	}
	defer x.release(cursors)
	ws := &windowStream{sp: sp, sort: s, np: len(w.Partition), vals: make([][]int64, len(n.Funcs))}
	defer func() { x.release(ws.held) }()
	if err := ws.newBuffer(); err != nil {
		return err
	}
	if err := s.merge(s.runs, ws.add); err != nil {
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
	width := rowWidth(ws.sp.types) + 9*int64(len(ws.vals))
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
	ws.bufRows = 0
	return nil
}

// add takes the next row in window order: row p of a run block's cols.
func (ws *windowStream) add(cols []*vec, p int) error {
	s := ws.sort
	newPart, newPeer := ws.prev == nil, ws.prev == nil
	for i, c := range s.keyCol {
		if newPeer {
			break
		}
		if compareSpilled(s.runTypes[c], ws.prev[c], ws.prevP, cols[c], p) != 0 {
			newPart = newPart || i < ws.np
			newPeer = true
		}
	}
	ws.rowNum++
	if newPart {
		ws.rowNum, ws.rank, ws.dense = 1, 0, 0
	}
	if newPeer {
		ws.rank, ws.dense = ws.rowNum, ws.dense+1
	}
	ws.prev, ws.prevP = cols, p
	// The input's columns, then the place (the run's last two).
	ws.row = append(append(ws.row[:0], cols[:ws.sp.inN]...), cols[len(cols)-2:]...)
	if err := ws.build.add(ws.row, p); err != nil {
		return err
	}
	for f, w := range ws.sp.n.Funcs {
		v := ws.rowNum
		switch w.Func {
		case sql.WinRank:
			v = ws.rank
		case sql.WinDenseRank:
			v = ws.dense
		}
		ws.vals[f][ws.bufRows] = v
	}
	if ws.bufRows++; ws.bufRows == ws.buf.rows {
		if err := ws.flush(); err != nil {
			return err
		}
		ws.build = newRelBuilder(ws.buf)
		ws.bufRows = 0
	}
	return nil
}

// flush writes the buffered rows, in place order, as a run of the merge.
func (ws *windowStream) flush() error {
	k := ws.bufRows
	if k == 0 {
		return nil
	}
	// The buffer's first k rows (the builder recodes those strings).
	part := &rel{types: ws.buf.types, rows: k, cols: make([]*columnar.Column, len(ws.buf.cols))}
	for _, col := range ws.buf.cols {
		col.Len = k
	}
	ws.build.finish()
	for c, col := range ws.buf.cols {
		view := *col
		col.Len = ws.buf.rows
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
	cols := append([]*columnar.Column{}, ordered.cols[:place]...)
	for f := range ws.vals {
		col := newColumn(columnar.TInt64, k, false)
		for i, r := range perm {
			col.I64[i] = ws.vals[f][r]
		}
		cols = append(cols, col)
	}
	cols = append(cols, ordered.cols[place:]...)
	return ws.sp.writeRun(cols, k)
}
