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
// functions whose value needs a bounded number of rows around the current
// one stream: ROW_NUMBER, RANK and DENSE_RANK, and LAG and LEAD of a
// column (a ring of the rows before; rows wait for the rows after), over
// one window; the others read frames or the partition's size, and stop
// with the memory limit error naming them. The rows, with their
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
		case sql.WinLag, sql.WinLead:
			if streamedOffset(n, w) == nil {
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

// maxStreamedOffset bounds LAG's and LEAD's offset when they stream: the
// rows before and after that are held hold their blocks (charged).
const maxStreamedOffset = 16

// streamedOffset is the column LAG or LEAD function w reads, where it
// streams: an input column of its own type, an offset up to
// maxStreamedOffset and no default or a constant one of that type (nil:
// it does not stream).
func streamedOffset(n *planner.Window, w *sql.WindowFunc) *sql.ColRef {
	c, ok := w.Args[0].(*sql.ColRef)
	if !ok || c.Index >= len(n.Input.Schema()) || c.Col.Type != w.T || w.N > maxStreamedOffset {
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
	row     []*vec // the columns of the row written
	// The LAG and LEAD functions' values go to offBuf (a column each,
	// in order), read from the rows the ring holds (the partition's last
	// ones, ringN in it so far) or from the rows waiting after.
	offBuf   *rel
	offBuild *relBuilder
	offCols  []int  // the run column each reads
	offDefs  []*vec // each one's default (nil: NULL)
	ring     []rowRef
	ringN    int64
	// pending are the rows added but not written, oldest first from
	// pendHead (a ring of lead+1): a row waits for lead rows after it.
	pending  []pendingRow
	pendHead int
	pendN    int
	lead     int64
}

// rowRef is a row of a run block.
type rowRef struct {
	cols []*vec
	p    int
}

// valueRef is a value: row p of v (v nil: NULL).
type valueRef struct {
	v *vec
	p int
}

// pendingRow is a row with its values, waiting for its LEADs.
type pendingRow struct {
	row  rowRef
	vals []int64    // each function's (ROW_NUMBER, RANK, DENSE_RANK)
	offs []valueRef // each LAG's and LEAD's
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
	ws := &windowStream{sp: sp, sort: s, np: len(w.Partition), vals: make([][]int64, len(n.Funcs))}
	ws.offsetSetup()
	ring := int64(len(ws.ring)+len(ws.pending)) * spillBlockRows * rowWidth(s.runTypes)
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
	if err := ws.drain(0); err != nil {
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
	if len(ws.offCols) > 0 {
		ws.offBuf = &rel{types: make([]columnar.Type, len(ws.offCols)), rows: rows, cols: make([]*columnar.Column, len(ws.offCols))}
		for i, c := range ws.offCols {
			t := ws.sort.runTypes[c]
			ws.offBuf.types[i], ws.offBuf.cols[i] = t, newColumn(t, rows, true)
		}
		ws.offBuild = newRelBuilder(ws.offBuf)
	}
	return nil
}

// offsetSetup notes the LAG and LEAD functions' columns and defaults and
// makes the ring of rows before and the rows waiting.
func (ws *windowStream) offsetSetup() {
	var back int64
	for i := range ws.sp.n.Funcs {
		w := &ws.sp.n.Funcs[i]
		if w.Func != sql.WinLag && w.Func != sql.WinLead {
			continue
		}
		ws.offCols = append(ws.offCols, streamedOffset(ws.sp.n, w).Index)
		var def *vec
		if len(w.Args) > 1 && !w.Args[1].(*sql.Const).Null {
			def = newConstEval(w.Args[1].(*sql.Const)).out
		}
		ws.offDefs = append(ws.offDefs, def)
		if w.Func == sql.WinLag {
			back = max(back, w.N)
		} else {
			ws.lead = max(ws.lead, w.N)
		}
	}
	ws.ring = make([]rowRef, back+1)
	ws.pending = make([]pendingRow, ws.lead+1)
	for i := range ws.pending {
		ws.pending[i].vals = make([]int64, len(ws.sp.n.Funcs))
		ws.pending[i].offs = make([]valueRef, len(ws.offCols))
	}
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
	ws.prev, ws.prevP = cols, p
	ws.rowNum++
	if newPart {
		// The partition before has no more rows for its LEADs.
		if err := ws.drain(0); err != nil {
			return err
		}
		ws.rowNum, ws.rank, ws.dense, ws.ringN = 1, 0, 0, 0
	}
	if newPeer {
		ws.rank, ws.dense = ws.rowNum, ws.dense+1
	}
	ws.ring[ws.ringN%int64(len(ws.ring))] = rowRef{cols: cols, p: p}
	ws.ringN++
	e := &ws.pending[(ws.pendHead+ws.pendN)%len(ws.pending)]
	ws.pendN++
	e.row = rowRef{cols: cols, p: p}
	k := 0
	for f, w := range ws.sp.n.Funcs {
		switch w.Func {
		case sql.WinRowNumber:
			e.vals[f] = ws.rowNum
		case sql.WinRank:
			e.vals[f] = ws.rank
		case sql.WinDenseRank:
			e.vals[f] = ws.dense
		case sql.WinLag:
			e.offs[k] = ws.offDefault(k)
			if w.N < ws.ringN {
				back := ws.ring[(ws.ringN-1-w.N)%int64(len(ws.ring))]
				e.offs[k] = valueRef{v: back.cols[ws.offCols[k]], p: back.p}
			}
			k++
		default: // LEAD: when the row is written
			k++
		}
	}
	return ws.drain(int(ws.lead))
}

func (ws *windowStream) offDefault(k int) valueRef {
	return valueRef{v: ws.offDefs[k], p: 0}
}

// drain writes the waiting rows but the last keep, each LEAD reading the
// row its offset after (its default where that is not in the partition).
func (ws *windowStream) drain(keep int) error {
	for ws.pendN > keep {
		e := &ws.pending[ws.pendHead]
		k := 0
		for _, w := range ws.sp.n.Funcs {
			switch w.Func {
			case sql.WinLead:
				e.offs[k] = ws.offDefault(k)
				if int(w.N) < ws.pendN {
					after := ws.pending[(ws.pendHead+int(w.N))%len(ws.pending)].row
					e.offs[k] = valueRef{v: after.cols[ws.offCols[k]], p: after.p}
				}
				k++
			case sql.WinLag:
				k++
			}
		}
		if err := ws.write(e); err != nil {
			return err
		}
		ws.pendHead = (ws.pendHead + 1) % len(ws.pending)
		ws.pendN--
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
	if ws.offBuild != nil {
		for k, r := range e.offs {
			ws.offBuild.set(k, r.v, r.p)
		}
		ws.offBuild.k++
	}
	if ws.bufRows++; ws.bufRows < ws.buf.rows {
		return nil
	}
	if err := ws.flush(); err != nil {
		return err
	}
	ws.build = newRelBuilder(ws.buf)
	if ws.offBuf != nil {
		ws.offBuild = newRelBuilder(ws.offBuf)
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
	var offs *rel
	if ws.offBuf != nil {
		offs = gatherRel(firstRows(ws.offBuf, ws.offBuild, k), perm)
	}
	cols := append([]*columnar.Column{}, ordered.cols[:place]...)
	off := 0
	for f, w := range ws.sp.n.Funcs {
		if w.Func == sql.WinLag || w.Func == sql.WinLead {
			cols = append(cols, offs.cols[off])
			off++
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
