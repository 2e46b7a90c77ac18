//go:build cuda

package gpu

import (
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Function codes of kernels/window.cu's win_finish (WIN_F_*).
const (
	winRowNumber = iota + 1
	winRank
	winDenseRank
	winAggValue
	winAggCount
	winPercentRank
	winCumeDist
	winNtile
	winLag
	winLead
	winFirstValue
	winLastValue
	winNthValue
	winAggSum
	winAggAvg
)

// winFinishFuncs maps the functions win_finish computes from the sort's
// groups alone, or by gathering a value, to its codes.
var winFinishFuncs = map[sql.WinFunc]int32{
	sql.WinRowNumber: winRowNumber, sql.WinRank: winRank, sql.WinDenseRank: winDenseRank,
	sql.WinPercentRank: winPercentRank, sql.WinCumeDist: winCumeDist, sql.WinNtile: winNtile,
	sql.WinLag: winLag, sql.WinLead: winLead, sql.WinFirstValue: winFirstValue,
	sql.WinLastValue: winLastValue, sql.WinNthValue: winNthValue,
}

// windowFunc computes w over in, sorted as wo, into a column in in's row
// order.
func (r *queryRun) windowFunc(in *relation, w *sql.WindowFunc, wo *winOrder, op planner.Node) (*columnar.Column, error) {
	n := in.n
	out, err := r.winColumn(w.T, n)
	if err != nil {
		return nil, err
	}
	fp := winFinishParams{Perm: uint64(wo.perm), PartStart: uint64(wo.partStart), PeerStart: uint64(wo.peerStart),
		Out: out.Data, OutValid: out.Valid, N: n, Arg: w.N}
	var dict *columnar.Dictionary
	if w.Func == sql.WinAgg {
		err = r.windowAggregate(in, w, wo, op, &fp)
	} else {
		dict, err = r.windowRanking(in, w, wo, op, &fp)
	}
	if err != nil {
		return nil, err
	}
	if err := r.winLaunch("win_finish", r.d.grid(n), unsafe.Pointer(&fp), unsafe.Sizeof(fp)); err != nil {
		return nil, err
	}
	noteKernel(40*n, 8*n+n/8, n, n)
	return r.newDevCol(w.T, dict, n, out), nil
}

// windowRanking sets fp up for a function that is not an aggregate: the
// group ends it reads, DENSE_RANK's scan, the value (and default) columns
// LAG, LEAD and the value functions gather, and the value's dictionary.
func (r *queryRun) windowRanking(in *relation, w *sql.WindowFunc, wo *winOrder, op planner.Node, fp *winFinishParams) (*columnar.Dictionary, error) {
	f, ok := winFinishFuncs[w.Func]
	if !ok {
		return nil, unsupported(op, w.String())
	}
	fp.Func = f
	needPart := f == winPercentRank || f == winCumeDist || f == winNtile || f == winLag || f == winLead
	needPeer := f == winCumeDist
	if f >= winFirstValue {
		if err := r.winFrame(in, w, wo, op, fp); err != nil {
			return nil, err
		}
	}
	if err := r.winEnds(wo, in.n, needPart, needPeer, fp); err != nil {
		return nil, err
	}
	if f == winDenseRank {
		// The peer starts counted from the partition's: the partition's
		// first row starts a peer group, so its value is 1.
		d, err := r.winScan(in.n, winScanParams{Flags: uint64(wo.flags), SegBit: winPartBit, Op: winSum, Source: winSrcFlag, SrcBit: winPeerBit})
		if err != nil {
			return nil, err
		}
		fp.Vals = uint64(d)
	}
	if f < winLag {
		return nil, nil
	}
	src, dict, err := r.exprView(in, w.Args[0], op)
	if err != nil {
		return nil, err
	}
	fp.Src = src
	if len(w.Args) > 1 {
		if fp.Dflt, err = r.keyView(in, w.Args[1], op); err != nil {
			return nil, err
		}
		fp.HasDefault = 1
	}
	return dict, nil
}

// winEnds makes the groups' last positions fp reads.
func (r *queryRun) winEnds(wo *winOrder, rows int64, part, peer bool, fp *winFinishParams) error {
	if part {
		at, err := r.ends(wo, rows, winPartBit)
		if err != nil {
			return err
		}
		fp.PartEndAt = uint64(at)
	}
	if peer {
		at, err := r.ends(wo, rows, winPeerBit)
		if err != nil {
			return err
		}
		fp.PeerEndAt = uint64(at)
	}
	return nil
}

// winFrame sets w's frame bounds in fp, with the group ends they read:
// the partition's always, the peers' for a RANGE frame's CURRENT ROW end
// or offsets (a NULL key's frame is its peers).
func (r *queryRun) winFrame(in *relation, w *sql.WindowFunc, wo *winOrder, op planner.Node, fp *winFinishParams) error {
	if why := planner.GPUFrameRefusal(w); why != "" {
		return unsupported(op, why)
	}
	f := w.Frame
	if f.Rows {
		fp.Rows = 1
	}
	fp.StartKind, fp.StartN = int32(f.Start.Kind), f.Start.N
	fp.EndKind, fp.EndN = int32(f.End.Kind), f.End.N
	offsets := f.RangeOffsets()
	if offsets {
		if err := r.winRange(in, w, op, fp); err != nil {
			return err
		}
	}
	return r.winEnds(wo, in.n, true, offsets || !f.Rows && f.End.Kind == sql.BoundCurrentRow, fp)
}

// winRange sets up a RANGE frame's offsets as planner.GPURangeOffset gives
// them: the order key's view and each bound's offset in the key's units.
func (r *queryRun) winRange(in *relation, w *sql.WindowFunc, op planner.Node, fp *winFinishParams) error {
	key, err := r.keyView(in, w.Order[0].Expr, op)
	if err != nil {
		return err
	}
	fp.RangeKey = key
	if w.Order[0].Desc {
		fp.RangeDesc = 1
	}
	var start, end planner.GPURangeBound
	if start, err = planner.GPURangeOffset(w, w.Frame.Start); err != nil {
		return unsupported(op, err.Error())
	}
	if end, err = planner.GPURangeOffset(w, w.Frame.End); err != nil {
		return unsupported(op, err.Error())
	}
	fp.KeyMul = max(start.KeyMul, end.KeyMul, 1)
	fp.StartOff, fp.StartOffF, fp.StartFloat = start.Off, start.OffF, b2i(start.Float)
	fp.EndOff, fp.EndOffF, fp.EndFloat = end.Off, end.OffF, b2i(end.Float)
	return nil
}

// windowAggregate sets fp up for an aggregate over its frame: a segmented
// scan of the argument (reset at each partition) and, where the argument
// has NULLs, one of its non-NULL count; a frame's count and integer SUM
// are differences of two running values, MIN / MAX and a DOUBLE's SUM the
// running value at the frame's end when it starts at the partition's
// first row, else a segment tree's (winTree).
func (r *queryRun) windowAggregate(in *relation, w *sql.WindowFunc, wo *winOrder, op planner.Node, fp *winFinishParams) error {
	n := in.n
	if err := r.winFrame(in, w, wo, op, fp); err != nil {
		return err
	}
	fp.Func = winAggValue
	if w.Agg.Func == sql.AggCountStar {
		fp.Func = winAggCount
		return nil
	}
	arg, err := r.keyView(in, w.Agg.Arg, op)
	if err != nil {
		return err
	}
	if arg.Valid != 0 {
		c, err := r.winScan(n, winScanParams{Col: arg, Perm: uint64(wo.perm), Flags: uint64(wo.flags), SegBit: winPartBit, Op: winSum, Source: winSrcValid})
		if err != nil {
			return err
		}
		fp.Counts = uint64(c)
	}
	scanOp := int32(winSum)
	switch w.Agg.Func {
	case sql.AggCount:
		fp.Func = winAggCount
		return nil
	case sql.AggMin:
		scanOp = winMin
	case sql.AggMax:
		scanOp = winMax
	case sql.AggSum:
		fp.Func = winAggSum
	case sql.AggAvg:
		fp.Func = winAggAvg
		setAvgScale(w, fp)
	default:
		return unsupported(op, w.String())
	}
	src := winScanParams{Col: arg, Perm: uint64(wo.perm), Flags: uint64(wo.flags), SegBit: winPartBit, Op: scanOp, IsFloat: arg.IsFloat, Source: winSrcColumn}
	v, err := r.winScan(n, src)
	if err != nil {
		return err
	}
	fp.Vals = uint64(v)
	fp.ArgFloat = arg.IsFloat
	if planner.GPUWindowTree(w) {
		tree, size, err := r.winTree(n, src)
		if err != nil {
			return err
		}
		fp.Tree, fp.TreeSize, fp.TreeOp = uint64(tree), size, scanOp
	}
	return nil
}

// winTree builds the segment tree of src's values in sorted order
// (kernels/window.cu, WinTreeParams): leaves, then a launch per level.
func (r *queryRun) winTree(n int64, src winScanParams) (cu.DevicePtr, int64, error) {
	size := int64(1)
	for size < n {
		size *= 2
	}
	nodes, err := r.s.alloc(16 * size)
	if err != nil {
		return 0, 0, err
	}
	src.N = n
	tp := winTreeParams{Src: src, Nodes: uint64(nodes), Size: size}
	if err := r.winLaunch("win_tree_leaves", r.d.grid(size), unsafe.Pointer(&tp), unsafe.Sizeof(tp)); err != nil {
		return 0, 0, err
	}
	noteKernel(12*n, 8*size, n, size)
	for lo := size / 2; lo >= 1; lo /= 2 {
		tp.Lo, tp.Hi = lo, 2*lo
		if err := r.winLaunch("win_tree_level", r.d.grid(lo), unsafe.Pointer(&tp), unsafe.Sizeof(tp)); err != nil {
			return 0, 0, err
		}
		noteKernel(16*lo, 8*lo, 2*lo, lo)
	}
	return nodes, size, nil
}

// checkWindow checks that x's keys and arguments compile for the
// expression VM (the planner checked the functions and frames).
func checkWindow(x *planner.Window) error {
	for i := range x.Funcs {
		w := &x.Funcs[i]
		es := append(append([]sql.Expr{}, w.Partition...), sortExprs(w.Order)...)
		if w.Func == sql.WinAgg && w.Agg.Arg != nil {
			es = append(es, w.Agg.Arg)
		}
		if err := checkExprs(x, x.Input, es...); err != nil {
			return err
		}
	}
	return nil
}

// setAvgScale sets how an AVG's exact sum becomes its result: rescaled from
// the argument's scale to the result's and divided by the count, cut where
// the result has MySQL's division digits and rounded where it has fewer, as
// exec/cpu's sumAcc.exactResult.
func setAvgScale(w *sql.WindowFunc, fp *winFinishParams) {
	s, ts := w.Agg.Arg.Type().DecimalScale(), w.T.DecimalScale()
	fp.AvgMul, fp.AvgDiv = 1, 1
	if ts >= s {
		fp.AvgMul = pow10(ts - s)
	} else {
		fp.AvgDiv = pow10(s - ts)
	}
	if ts == sql.DivisionScale(s, 0) {
		fp.AvgCut = 1
	}
}
