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
// functions whose value needs no row after the current one stream:
// ROW_NUMBER, RANK and DENSE_RANK, and LAG of a column (a ring of the
// rows before), over one window; the others read frames, rows ahead or
// the partition's size, and stop with the memory limit error naming them. The rows, with their
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
		case sql.WinLag:
			if streamedLag(n, w) == nil {
				return false
			}
		default:
			return false
		}
		if windowSortKey(w) != windowSortKey(&n.Funcs[0]) {
			return false
		}
	}
	return true
}

// maxStreamedLag bounds LAG's offset when it streams: the ring holds
// that many rows' blocks (charged).
const maxStreamedLag = 16

// streamedLag is the column LAG function w reads, where it streams: an
// input column of its own type, an offset up to maxStreamedLag and no
// default or a constant one of that type (nil: it does not stream).
func streamedLag(n *planner.Window, w *sql.WindowFunc) *sql.ColRef {
	c, ok := w.Args[0].(*sql.ColRef)
	if !ok || c.Index >= len(n.Input.Schema()) || c.Col.Type != w.T || w.N > maxStreamedLag {
		return nil
	}
	if len(w.Args) > 1 {
		if d, ok := w.Args[1].(*sql.Const); !ok || (!d.Null && d.T != w.T) {
			return nil
		}
	}
	return c
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
	// The LAG functions' values: lagBuf's columns (one per LAG, in
	// order), built from the rows the ring holds, the partition's last
	// ones (ringN in it so far).
	lagBuf   *rel
	lagBuild *relBuilder
	lagCols  []int  // the run column each LAG reads
	lagDefs  []*vec // each LAG's default (nil: NULL)
	ring     []rowRef
	ringN    int64
	lagRow   []*vec
}

// rowRef is a row of a run block.
type rowRef struct {
	cols []*vec
	p    int
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
	ws.lagSetup()
	ring := int64(len(ws.ring)) * spillBlockRows * rowWidth(s.runTypes)
	if err := x.reserve(n, ring); err != nil {
		return err
	}
	defer x.release(ring)
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
	// The input's columns and place, and a value of each function.
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
	if len(ws.lagCols) > 0 {
		ws.lagBuf = &rel{types: make([]columnar.Type, len(ws.lagCols)), rows: rows, cols: make([]*columnar.Column, len(ws.lagCols))}
		for i, c := range ws.lagCols {
			t := ws.sort.runTypes[c]
			ws.lagBuf.types[i], ws.lagBuf.cols[i] = t, newColumn(t, rows, true)
		}
		ws.lagBuild = newRelBuilder(ws.lagBuf)
	}
	return nil
}

// lagSetup notes the LAG functions' columns and defaults and makes the
// ring of rows they read.
func (ws *windowStream) lagSetup() {
	var most int64
	for i := range ws.sp.n.Funcs {
		w := &ws.sp.n.Funcs[i]
		if w.Func != sql.WinLag {
			continue
		}
		ws.lagCols = append(ws.lagCols, streamedLag(ws.sp.n, w).Index)
		var def *vec
		if len(w.Args) > 1 && !w.Args[1].(*sql.Const).Null {
			def = newConstEval(w.Args[1].(*sql.Const)).out
		}
		ws.lagDefs = append(ws.lagDefs, def)
		most = max(most, w.N)
	}
	ws.ring = make([]rowRef, most+1)
	ws.lagRow = make([]*vec, len(ws.lagCols))
}

// addLags appends the LAG functions' values for the row just added (the
// ring's newest).
func (ws *windowStream) addLags() error {
	if len(ws.lagCols) == 0 {
		return nil
	}
	k, size := 0, int64(len(ws.ring))
	for i := range ws.sp.n.Funcs {
		w := &ws.sp.n.Funcs[i]
		if w.Func != sql.WinLag {
			continue
		}
		ref := rowRef{}
		switch {
		case w.N < ws.ringN:
			back := ws.ring[(ws.ringN-1-w.N)%size]
			ref = rowRef{cols: back.cols[ws.lagCols[k] : ws.lagCols[k]+1], p: back.p}
		case ws.lagDefs[k] != nil:
			ref = rowRef{cols: []*vec{ws.lagDefs[k]}, p: 0}
		}
		ws.lagRow[k] = nil
		if ref.cols != nil {
			ws.lagRow[k] = ref.cols[0]
		}
		// Each LAG column is built from its own row of its own block.
		ws.lagBuild.set(k, ws.lagRow[k], ref.p)
		k++
	}
	ws.lagBuild.k++
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
	if newPart {
		ws.ringN = 0
	}
	ws.ring[ws.ringN%int64(len(ws.ring))] = rowRef{cols: cols, p: p}
	ws.ringN++
	if err := ws.addLags(); err != nil {
		return err
	}
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
		if ws.lagBuf != nil {
			ws.lagBuild = newRelBuilder(ws.lagBuf)
		}
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
	var lags *rel
	if ws.lagBuf != nil {
		lags = gatherRel(firstRows(ws.lagBuf, ws.lagBuild, k), perm)
	}
	cols := append([]*columnar.Column{}, ordered.cols[:place]...)
	lag := 0
	for f, w := range ws.sp.n.Funcs {
		if w.Func == sql.WinLag {
			cols = append(cols, lags.cols[lag])
			lag++
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
