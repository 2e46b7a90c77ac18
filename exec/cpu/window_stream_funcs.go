package cpu

import (
	"fmt"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The window functions that stream over one window partition larger than
// the memory limit (window_stream.go), each row in window order updating
// their state: ROW_NUMBER, RANK and DENSE_RANK count; LAG reads a ring of
// the partition's last rows; COUNT, MIN, MAX, SUM and AVG of a column from
// the partition's start to the current row (ROWS) keep a running count,
// extreme or sum (SUM and AVG finish through the hash aggregate's sumAcc,
// as frameAggregate does), and to the current row's last peer (RANGE, the
// default frame: the whole partition without ORDER BY) hold the peer
// group's rows until it ends; LEAD holds each row until the rows after it
// have come. What is held is charged: a peer group that does not fit
// stops with the memory limit error naming the functions. The others
// (frames ending after the current row, NTILE, PERCENT_RANK, CUME_DIST,
// FIRST / LAST / NTH_VALUE, the statistical and JSON aggregates, ...)
// read their whole partition and stop likewise.

// streamKind is how a function's value comes.
type streamKind int

const (
	streamRowNumber streamKind = iota
	streamRank
	streamDenseRank
	streamCount  // COUNT(*) or COUNT(col) from the partition's start
	streamMinMax // MIN(col) or MAX(col) from the partition's start
	streamSum    // SUM(col) or AVG(col) from the partition's start
	streamLag
	streamLead
)

// streamedFunc is one function as it streams.
type streamedFunc struct {
	kind  streamKind
	col   int  // the run column read (-1: none, COUNT(*))
	n     int  // LAG / LEAD's offset
	def   *vec // LAG / LEAD's default (nil: NULL)
	max   bool // MAX, not MIN
	peers bool // the frame ends at the current row's last peer (RANGE)
	ref   int  // the function's column among the buffer's by-reference ones
	// agg is SUM's or AVG's call; sumAt its place among the sums.
	agg   sql.AggExpr
	sumAt int
	// count, ext and sum are COUNT's, MIN / MAX's and SUM / AVG's state
	// in the partition.
	count int64
	ext   valueRef
	sum   sumState
}

// sumState is a running SUM or AVG: a 128-bit integer (raw decimal) or
// double sum of the c non-NULL values among rows.
type sumState struct {
	s, hi   int64
	f       float64
	c, rows int64
}

// byRef says whether the value is a reference to a row's value (a column
// of the input's type), not a count.
func (f *streamedFunc) byRef() bool {
	return f.kind == streamMinMax || f.kind == streamLag || f.kind == streamLead
}

// maxStreamedOffset bounds LAG's and LEAD's offset when they stream: the
// rows before and after that are held hold their blocks (charged).
const maxStreamedOffset = 16

// streamedFuncOf is how w streams; ok false: it does not.
func streamedFuncOf(n *planner.Window, w *sql.WindowFunc) (f streamedFunc, ok bool) {
	f.col = -1
	switch w.Func {
	case sql.WinRowNumber:
		return streamedFunc{kind: streamRowNumber, col: -1}, true
	case sql.WinRank:
		return streamedFunc{kind: streamRank, col: -1}, true
	case sql.WinDenseRank:
		return streamedFunc{kind: streamDenseRank, col: -1}, true
	case sql.WinLag, sql.WinLead:
		f.kind = streamLag
		if w.Func == sql.WinLead {
			f.kind = streamLead
		}
		f.n = int(w.N)
		f.col, ok = inputColumn(n, w.Args[0], w.T)
		if !ok || w.N > maxStreamedOffset {
			return f, false
		}
		if len(w.Args) > 1 {
			d, isConst := w.Args[1].(*sql.Const)
			if !isConst || (!d.Null && d.T != w.T) {
				return f, false
			}
			if !d.Null {
				f.def = newConstEval(d).out
			}
		}
		return f, true
	case sql.WinAgg:
		return streamedAggregate(n, w)
	}
	return f, false
}

// streamedAggregate is COUNT, MIN or MAX over the frame from the
// partition's start to the current row (ROWS) or its last peer (RANGE).
func streamedAggregate(n *planner.Window, w *sql.WindowFunc) (f streamedFunc, ok bool) {
	f.col = -1
	fr := w.Frame
	if w.Agg.Distinct || fr.Start.Kind != sql.BoundUnboundedPreceding || fr.End.Kind != sql.BoundCurrentRow {
		return f, false
	}
	f.peers = !fr.Rows
	switch w.Agg.Func {
	case sql.AggCountStar:
		f.kind = streamCount
		return f, true
	case sql.AggCount:
		f.kind = streamCount
		if c, isCol := w.Agg.Arg.(*sql.ColRef); isCol && c.Index < len(n.Input.Schema()) {
			f.col = c.Index
			return f, true
		}
	case sql.AggMin, sql.AggMax:
		f.kind, f.max = streamMinMax, w.Agg.Func == sql.AggMax
		f.col, ok = inputColumn(n, w.Agg.Arg, w.T)
		return f, ok
	case sql.AggSum, sql.AggAvg:
		t := w.Agg.Arg.Type()
		if t.Unsigned || t.ID == columnar.String || t.Physical() == columnar.PhysVector {
			return f, false
		}
		f.kind, f.agg = streamSum, w.Agg
		f.col, ok = inputColumn(n, w.Agg.Arg, t)
		return f, ok
	}
	return f, false
}

// inputColumn is the input column e is, where it has type t.
func inputColumn(n *planner.Window, e sql.Expr, t columnar.Type) (int, bool) {
	c, ok := e.(*sql.ColRef)
	if !ok || c.Index >= len(n.Input.Schema()) || c.Col.Type != t {
		return -1, false
	}
	return c.Index, true
}

// windowStreams says whether n's functions can be computed by one pass
// over its input sorted by their one window.
func windowStreams(n *planner.Window) bool {
	for i := range n.Funcs {
		w := &n.Funcs[i]
		if _, ok := streamedFuncOf(n, w); !ok || w.SortKey() != n.Funcs[0].SortKey() {
			return false
		}
	}
	return true
}

// windowStream is the pass over the sorted rows.
type windowStream struct {
	sp    *windowSpill
	sort  *sortSink
	np    int // partition keys: the sort's first keys, then the order keys
	funcs []streamedFunc
	// prev is the row before (nil: none), in a block the merge has moved
	// past but not changed.
	prev  []*vec
	prevP int
	// rowNum, rank and dense are the current row's in its partition.
	rowNum, rank, dense int64
	// buf holds rows (the input's columns and the place) until it is
	// written as a run; vals are each function's counts for them, refBuf
	// the by-reference values (a column each, in order).
	buf      *rel
	build    *relBuilder
	vals     [][]int64
	refBuf   *rel
	refBuild *relBuilder
	refCols  []int // the run column each by-reference value comes from
	bufRows  int
	held     int64
	row      []*vec // the columns of the row written
	// ring holds the partition's last rows (ringN so far) for LAG.
	ring  []rowRef
	ringN int64
	// wait are the rows added but not written, oldest first: a row
	// waits for lead rows after it, and for its peer group to end where a
	// function's frame takes its peers; peerAt is where the current peer
	// group starts in wait. waitHeld is what the rows past the first
	// lead+1 are charged.
	wait     []*pendingRow
	peerAt   int
	lead     int
	peers    bool
	free     []*pendingRow
	waitHeld int64
	// sums is the SUM / AVG functions; sumBuf their states for the
	// buffer's rows.
	sums   int
	sumBuf [][]sumState
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

// pendingRow is a row with its values, waiting to be written.
type pendingRow struct {
	row  rowRef
	vals []int64    // each function's count (ROW_NUMBER ... COUNT)
	refs []valueRef // each by-reference function's value
	sums []sumState // each SUM's or AVG's state
}

func newWindowStream(sp *windowSpill, s *sortSink) *windowStream {
	n := sp.n
	ws := &windowStream{sp: sp, sort: s, np: len(n.Funcs[0].Partition), vals: make([][]int64, len(n.Funcs))}
	back := 0
	for i := range n.Funcs {
		f, _ := streamedFuncOf(n, &n.Funcs[i])
		if f.byRef() {
			f.ref = len(ws.refCols)
			ws.refCols = append(ws.refCols, f.col)
		}
		if f.kind == streamSum {
			f.sumAt = ws.sums
			ws.sums++
		}
		switch f.kind {
		case streamLag:
			back = max(back, f.n)
		case streamLead:
			ws.lead = max(ws.lead, f.n)
		}
		ws.peers = ws.peers || f.peers
		ws.funcs = append(ws.funcs, f)
	}
	ws.ring = make([]rowRef, back+1)
	return ws
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
	if newPeer {
		ws.endPeers()
	}
	if newPart {
		if err := ws.endPartition(); err != nil {
			return err
		}
		ws.rowNum, ws.rank, ws.dense, ws.ringN = 0, 0, 0, 0
		for i := range ws.funcs {
			ws.funcs[i].count, ws.funcs[i].ext, ws.funcs[i].sum = 0, valueRef{}, sumState{}
		}
	}
	ws.rowNum++
	if newPeer {
		ws.rank, ws.dense = ws.rowNum, ws.dense+1
	}
	ws.ring[ws.ringN%int64(len(ws.ring))] = rowRef{cols: cols, p: p}
	ws.ringN++
	e := ws.newPending(rowRef{cols: cols, p: p})
	for i := range ws.funcs {
		ws.value(&ws.funcs[i], i, e, cols, p)
	}
	if err := ws.hold(); err != nil {
		return err
	}
	ws.wait = append(ws.wait, e)
	return ws.drain(false)
}

// value updates function f (the i-th) with the row and sets its value
// for it, where it is known now.
func (ws *windowStream) value(f *streamedFunc, i int, e *pendingRow, cols []*vec, p int) {
	switch f.kind {
	case streamRowNumber:
		e.vals[i] = ws.rowNum
	case streamRank:
		e.vals[i] = ws.rank
	case streamDenseRank:
		e.vals[i] = ws.dense
	case streamCount:
		if f.col < 0 || !isNullAt(cols[f.col], p) {
			f.count++
		}
		e.vals[i] = f.count
	case streamMinMax:
		if v := cols[f.col]; !isNullAt(v, p) {
			if f.ext.v == nil {
				f.ext = valueRef{v: v, p: p}
			} else if c := compareSpilled(v.t, v, p, f.ext.v, f.ext.p); (c > 0) == f.max && c != 0 {
				f.ext = valueRef{v: v, p: p}
			}
		}
		e.refs[f.ref] = f.ext
	case streamSum:
		f.sum.add(cols[f.col], p)
		e.sums[f.sumAt] = f.sum
	case streamLag:
		e.refs[f.ref] = valueRef{v: f.def}
		if int64(f.n) < ws.ringN {
			back := ws.ring[(ws.ringN-1-int64(f.n))%int64(len(ws.ring))]
			e.refs[f.ref] = valueRef{v: back.cols[f.col], p: back.p}
		}
	}
}

func isNullAt(v *vec, p int) bool { return v == nil || v.isNull(int32(p)) }

// add counts row p of v into the sum.
func (st *sumState) add(v *vec, p int) {
	st.rows++
	if isNullAt(v, p) {
		return
	}
	st.c++
	switch {
	case v.f64 != nil:
		st.f += v.f64[p]
	case v.i32 != nil:
		add128(&st.s, &st.hi, int64(v.i32[p]))
	default:
		add128(&st.s, &st.hi, v.i64[p])
	}
}

// sumColumn is SUM's or AVG's column for the buffer's first k rows in
// the order perm, from their states through the hash aggregate's sumAcc
// (as frameAggregate does), so types, rounding and the NULL of no value
// follow GROUP BY.
func (ws *windowStream) sumColumn(f *streamedFunc, perm []int32) *columnar.Column {
	k := len(perm)
	float := f.agg.Arg.Type().Physical() == columnar.PhysFloat64
	acc := &sumAcc{avg: f.agg.Func == sql.AggAvg, argT: f.agg.Arg.Type(), t: f.agg.T, float: float, expr: f.agg}
	acc.grow(k)
	rc := make([]int64, k)
	groups := make([]int32, k)
	for i, r := range perm {
		st := ws.sumBuf[f.sumAt][r]
		groups[i], rc[i], acc.nulls[i] = int32(i), st.rows, st.rows-st.c
		if float {
			acc.f[i] = st.f
		} else {
			acc.s[i], acc.hi[i] = st.s, st.hi
		}
	}
	return acc.result(groups, rc)
}

// endPeers gives the waiting rows of the peer group that ended the values
// of the functions whose frame takes the peers: the state after its last
// row.
func (ws *windowStream) endPeers() {
	for _, e := range ws.wait[ws.peerAt:] {
		for i := range ws.funcs {
			f := &ws.funcs[i]
			switch {
			case !f.peers:
			case f.kind == streamCount:
				e.vals[i] = f.count
			case f.kind == streamMinMax:
				e.refs[f.ref] = f.ext
			case f.kind == streamSum:
				e.sums[f.sumAt] = f.sum
			}
		}
	}
	ws.peerAt = len(ws.wait)
}

// endPartition writes every waiting row (a LEAD past the partition's end
// reads its default).
func (ws *windowStream) endPartition() error {
	ws.endPeers()
	return ws.drain(true)
}

// drain writes the waiting rows that are ready, oldest first: those of an
// ended peer group (where a frame takes the peers) with lead rows after
// them, or all (all).
func (ws *windowStream) drain(all bool) error {
	for len(ws.wait) > 0 {
		if !all && (len(ws.wait) <= ws.lead || (ws.peers && ws.peerAt == 0)) {
			break
		}
		e := ws.wait[0]
		for i := range ws.funcs {
			f := &ws.funcs[i]
			if f.kind != streamLead {
				continue
			}
			e.refs[f.ref] = valueRef{v: f.def}
			if f.n < len(ws.wait) {
				after := ws.wait[f.n].row
				e.refs[f.ref] = valueRef{v: after.cols[f.col], p: after.p}
			}
		}
		if err := ws.write(e); err != nil {
			return err
		}
		ws.wait[0] = nil
		ws.wait = ws.wait[1:]
		ws.peerAt = max(ws.peerAt-1, 0)
		ws.free = append(ws.free, e)
	}
	if len(ws.wait) == 0 {
		ws.wait = ws.wait[:0:0]
		ws.release()
	}
	return nil
}

func (ws *windowStream) newPending(row rowRef) *pendingRow {
	var e *pendingRow
	if k := len(ws.free); k > 0 {
		e, ws.free = ws.free[k-1], ws.free[:k-1]
	} else {
		e = &pendingRow{vals: make([]int64, len(ws.funcs)), refs: make([]valueRef, len(ws.refCols)), sums: make([]sumState, ws.sums)}
	}
	e.row = row
	return e
}

// waitStep is the rows a reservation for waiting rows covers.
const waitStep = 1024

// hold charges the rows waiting past the first lead+1 (a peer group's),
// a step at a time: each holds its block's share and its own record.
func (ws *windowStream) hold() error {
	over := int64(len(ws.wait) + 1 - (ws.lead + 1))
	per := rowWidth(ws.sort.runTypes) + 64
	if over <= 0 || over*per <= ws.waitHeld {
		return nil
	}
	step := waitStep * per
	if err := ws.sp.x.reserve(ws.sp.n, step); err != nil {
		return windowTooLarge(ws.sp.n, err, fmt.Sprintf("a peer group of over %d rows does not fit", len(ws.wait)))
	}
	ws.waitHeld += step
	return nil
}

// release gives back what waiting rows were charged, once none waits.
func (ws *windowStream) release() {
	ws.sp.x.release(ws.waitHeld)
	ws.waitHeld = 0
}
