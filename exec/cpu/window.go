package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"runtime"
)

// Window materializes its input and computes each window function as one
// column: a permutation of the rows is sorted stably by the function's
// partition keys and then its order keys (NULLs first ascending, as MySQL
// sorts), which lays every partition out contiguously with its peers
// (rows equal on the order keys) adjacent; then one pass per partition
// computes the values. Frames slide forward only, so aggregates read prefix
// sums and MIN/MAX a monotonic deque: O(n) per function after the sort,
// never O(n * frame) (except JSON_ARRAYAGG / JSON_OBJECTAGG, whose every
// value holds its frame). Functions over the same window share the sort.
// Output rows keep the input order. Past the memory limit the input is
// partitioned into files, or sorted on disk (window_spill.go).

func (x *executor) runWindow(n *planner.Window) (*rel, error) {
	restore := x.attemptMark()
	in, err := x.collect(n.Input, -1, n)
	if err != nil {
		return x.windowSpilled(n, err, restore)
	}
	cols, err := x.windowColumns(n, in)
	if err != nil {
		x.free(in)
		return x.windowSpilled(n, err, restore)
	}
	out := &rel{types: typesOf(n.Out), rows: in.rows, mem: in.mem,
		cols: append(append([]*columnar.Column{}, in.cols...), cols...)}
	return out, nil
}

// windowColumns computes n's function columns over in (whose first
// columns are n's input's), in in's row order.
func (x *executor) windowColumns(n *planner.Window, in *rel) ([]*columnar.Column, error) {
	var cols []*columnar.Column
	sorted := map[string]*windowOrder{}
	for i := range n.Funcs {
		if err := x.ctx.Err(); err != nil {
			return nil, err
		}
		w := &n.Funcs[i]
		k := w.SortKey()
		wo, ok := sorted[k]
		if !ok {
			// The sort's rank words, their radix buffer and the sorted
			// ranks are charged while it runs.
			sortScratch := windowSortBytes * int64(in.rows)
			if err := x.reserve(n, sortScratch); err != nil {
				return nil, err
			}
			var err error
			wo, err = x.sortWindow(in, w)
			x.release(sortScratch)
			if err != nil {
				return nil, err
			}
			sorted[k] = wo
		}
		// The function's working state (frames, prefix sums or a queue,
		// its column) is charged while it is computed.
		scratch := (windowScratchBytes + floatFrameBytes(w)) * int64(in.rows)
		if err := x.reserve(n, scratch); err != nil {
			return nil, err
		}
		col, err := x.windowColumn(in, w, wo, func(b int64) error { return x.reserve(n, b) })
		x.release(scratch)
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
	}
	return cols, nil
}

// windowSortBytes bounds a window sort's transient bytes per row: 16-byte
// (ranks, row) pairs, a radix buffer of as many, and 8 of sorted ranks.
const windowSortBytes = 40

// windowScratchBytes bounds a window function's working bytes per row:
// frame bounds (16), prefix count and sums (24), its output column (8);
// a DOUBLE aggregate's tree adds floatFrameBytes.
const windowScratchBytes = 48

// windowOrder is the input sorted for one window: perm lists the rows in
// partition and order; partStart and peerStart mark the sorted positions
// that begin a partition and a peer group.
type windowOrder struct {
	perm      []int32
	partStart []bool
	peerStart []bool
	// order holds the evaluated order keys (for RANGE offsets).
	order *sortKeyCols
}

func (x *executor) sortWindow(in *rel, w *sql.WindowFunc) (*windowOrder, error) {
	keys := make([]sql.SortKey, 0, len(w.Partition)+len(w.Order))
	for _, e := range w.Partition {
		keys = append(keys, sql.SortKey{Expr: e})
	}
	keys = append(keys, w.Order...)
	all, err := x.sortKeys(in, keys)
	if err != nil {
		return nil, err
	}
	np := len(w.Partition)
	part := &sortKeyCols{cols: all.cols[:np], desc: all.desc[:np]}
	ord := &sortKeyCols{cols: all.cols[np:], desc: all.desc[np:]}
	wo := &windowOrder{perm: make([]int32, in.rows), partStart: make([]bool, in.rows),
		peerStart: make([]bool, in.rows), order: ord}
	for i := range wo.perm {
		wo.perm[i] = int32(i)
	}
	ranks, widths, err := x.sortRowsRanked(wo.perm, all)
	if err != nil {
		return nil, err
	}
	if ranks != nil {
		// Equal ranks are equal keys; the partition keys' ranks are the
		// high bits, above the order keys'.
		orderBits := 0
		for _, b := range widths[np:] {
			orderBits += b
		}
		for i := range ranks {
			switch {
			case i == 0 || ranks[i-1]>>orderBits != ranks[i]>>orderBits:
				wo.partStart[i], wo.peerStart[i] = true, true
			case ranks[i-1] != ranks[i]:
				wo.peerStart[i] = true
			}
		}
		return wo, nil
	}
	for i := range wo.perm {
		if i == 0 || part.compare(wo.perm[i-1], wo.perm[i]) != 0 {
			wo.partStart[i] = true
			wo.peerStart[i] = true
		} else if ord.compare(wo.perm[i-1], wo.perm[i]) != 0 {
			wo.peerStart[i] = true
		}
	}
	return wo, nil
}

// partitions calls fn with each partition's sorted positions [ps, pe).
func (wo *windowOrder) partitions(fn func(ps, pe int)) {
	n := len(wo.perm)
	for ps := 0; ps < n; {
		pe := ps + 1
		for pe < n && !wo.partStart[pe] {
			pe++
		}
		fn(ps, pe)
		ps = pe
	}
}

// eachPartition calls fn for every partition as partitions does, from
// several goroutines at once: the partitions are cut into one run of
// about n / workers rows per worker, at partition boundaries (one large
// partition stays one call). fn may write only at its partition's sorted
// positions.
func (wo *windowOrder) eachPartition(fn func(ps, pe int)) {
	n := len(wo.perm)
	workers := runtime.GOMAXPROCS(0)
	if n < 1<<16 || workers == 1 {
		wo.partitions(fn)
		return
	}
	// cuts[w] is the first sorted position of worker w's run.
	cuts := make([]int, workers+1)
	cuts[workers] = n
	for w := 1; w < workers; w++ {
		c := max(n*w/workers, cuts[w-1])
		for c < n && !wo.partStart[c] {
			c++
		}
		cuts[w] = c
	}
	parallelWorkers(workers, workers, func(w, _, _ int) {
		for ps := cuts[w]; ps < cuts[w+1]; {
			pe := ps + 1
			for pe < n && !wo.partStart[pe] {
				pe++
			}
			fn(ps, pe)
			ps = pe
		}
	})
}

// peerEnds returns, for every sorted position, the end of its peer group;
// peerStarts the start.
func (wo *windowOrder) peerBounds() (starts, ends []int) {
	n := len(wo.perm)
	starts, ends = make([]int, n), make([]int, n)
	for i := 0; i < n; i++ {
		if wo.peerStart[i] {
			starts[i] = i
		} else {
			starts[i] = starts[i-1]
		}
	}
	for i := n - 1; i >= 0; i-- {
		if i == n-1 || wo.peerStart[i+1] {
			ends[i] = i + 1
		} else {
			ends[i] = ends[i+1]
		}
	}
	return starts, ends
}

// windowColumn computes one function's column, in input row order.
// charge reserves the bytes of results that grow with the frames (the
// JSON aggregates' texts) for the rest of the query.
func (x *executor) windowColumn(in *rel, w *sql.WindowFunc, wo *windowOrder, charge func(int64) error) (*columnar.Column, error) {
	switch w.Func {
	case sql.WinRowNumber, sql.WinRank, sql.WinDenseRank, sql.WinNtile:
		return rankColumn(w, wo), nil
	case sql.WinPercentRank, sql.WinCumeDist:
		return distColumn(w, wo), nil
	}
	args := make([]*columnar.Column, len(w.Args))
	for i, a := range w.Args {
		c, err := x.evalColumn(in, a)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	switch w.Func {
	case sql.WinLag, sql.WinLead:
		return offsetColumn(w, wo, args), nil
	}
	fr := newFrames(w, wo)
	switch w.Func {
	case sql.WinFirstValue, sql.WinLastValue, sql.WinNthValue:
		return gatherColumn(args[0], fr.valueRows(w, wo)), nil
	}
	if w.Agg.Func == sql.AggJSONArrayAgg || w.Agg.Func == sql.AggJSONObjectAgg {
		return frameJSONAgg(w.Agg, wo, fr, args[0], charge)
	}
	return frameAggregate(w, wo, fr, args)
}

// rankColumn is ROW_NUMBER, RANK, DENSE_RANK or NTILE.
func rankColumn(w *sql.WindowFunc, wo *windowOrder) *columnar.Column {
	col := newColumn(columnar.TInt64, len(wo.perm), false)
	wo.partitions(func(ps, pe int) {
		var rank, dense int64
		n := int64(pe - ps)
		for i := ps; i < pe; i++ {
			k := int64(i - ps)
			if wo.peerStart[i] {
				rank, dense = k+1, dense+1
			}
			var v int64
			switch w.Func {
			case sql.WinRowNumber:
				v = k + 1
			case sql.WinRank:
				v = rank
			case sql.WinDenseRank:
				v = dense
			default:
				v = ntileBucket(k, n, w.N)
			}
			col.I64[wo.perm[i]] = v
		}
	})
	return col
}

// ntileBucket is the bucket (from 1) of the k-th of n rows split into
// buckets of sizes differing by at most one, larger ones first (MySQL).
func ntileBucket(k, n, buckets int64) int64 {
	q, r := n/buckets, n%buckets
	if k < r*(q+1) {
		return k/(q+1) + 1
	}
	return (k-r*(q+1))/q + r + 1
}

// distColumn is PERCENT_RANK ((rank-1)/(rows-1), 0 for one row) or
// CUME_DIST (rows up to the last peer / rows).
func distColumn(w *sql.WindowFunc, wo *windowOrder) *columnar.Column {
	col := newColumn(columnar.TFloat64, len(wo.perm), false)
	_, ends := wo.peerBounds()
	wo.partitions(func(ps, pe int) {
		n := float64(pe - ps)
		rank := 0
		for i := ps; i < pe; i++ {
			if wo.peerStart[i] {
				rank = i - ps + 1
			}
			var v float64
			if w.Func == sql.WinPercentRank {
				if n > 1 {
					v = float64(rank-1) / (n - 1)
				}
			} else {
				v = float64(ends[i]-ps) / n
			}
			col.F64[wo.perm[i]] = v
		}
	})
	return col
}

// offsetColumn is LAG or LEAD: the value N rows before or after in the
// partition, else the default (NULL without one).
func offsetColumn(w *sql.WindowFunc, wo *windowOrder, args []*columnar.Column) *columnar.Column {
	idx := make([]int32, len(wo.perm))
	var missing []int32
	wo.partitions(func(ps, pe int) {
		for i := ps; i < pe; i++ {
			// An offset past the partition lands outside it (i + 2^63-1
			// would wrap).
			off := min(int(w.N), pe-ps)
			j := i - off
			if w.Func == sql.WinLead {
				j = i + off
			}
			row := wo.perm[i]
			if j >= ps && j < pe {
				idx[row] = wo.perm[j]
			} else {
				idx[row] = -1
				missing = append(missing, row)
			}
		}
	})
	col := gatherColumn(args[0], idx)
	if len(args) < 2 || len(missing) == 0 {
		return col
	}
	return withDefaults(col, args[1], missing)
}

// withDefaults returns col with rows taken from def (a column over the same
// rows).
func withDefaults(col, def *columnar.Column, rows []int32) *columnar.Column {
	if col.Type.ID == columnar.String {
		b := columnar.NewBuilder(col.Type)
		take := make([]bool, col.Len)
		for _, r := range rows {
			take[r] = true
		}
		for i := 0; i < col.Len; i++ {
			src := col
			if take[i] {
				src = def
			}
			if src.IsNull(i) {
				b.AppendNull()
			} else {
				b.AppendString(src.StringAt(i))
			}
		}
		return b.Column()
	}
	out := newColumn(col.Type, col.Len, col.Valid != nil || def.Valid != nil)
	copy(out.I32, col.I32)
	copy(out.I64, col.I64)
	copy(out.F64, col.F64)
	copy(out.W, col.W) // a wide DECIMAL: LAG(x, 1, 5) of DECIMAL(30,0), LAG(u, 1, -1) of BIGINT UNSIGNED
	if out.Valid != nil {
		for i := 0; i < col.Len; i++ {
			if col.IsNull(i) {
				out.SetNull(i)
			} else {
				out.SetValid(i)
			}
		}
	}
	for _, r := range rows {
		i := int(r)
		switch {
		case out.I32 != nil:
			out.I32[i] = def.I32[i]
		case out.I64 != nil:
			out.I64[i] = def.I64[i]
		case out.W != nil:
			out.W[i] = def.W[i]
		default:
			out.F64[i] = def.F64[i]
		}
		if out.Valid != nil {
			if def.IsNull(i) {
				out.SetNull(i)
			} else {
				out.SetValid(i)
			}
		}
	}
	return dropValidity(out)
}
