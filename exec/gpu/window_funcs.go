//go:build cuda

package gpu

import (
	"unsafe"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Function codes of kernels/window.cu's win_finish.
const (
	winRowNumber, winRank, winDenseRank, winAggValue, winAggCount = 1, 2, 3, 4, 5
)

// windowFunc computes w over in, sorted as wo, into a column in in's row
// order.
func (r *queryRun) windowFunc(in *relation, w *sql.WindowFunc, wo *winOrder, op planner.Node) (*columnar.Column, error) {
	n := in.n
	out, err := r.winColumn(w.T, n)
	if err != nil {
		return nil, err
	}
	fp := winFinishParams{Perm: uint64(wo.perm), PartStart: uint64(wo.partStart), PeerStart: uint64(wo.peerStart),
		Out: out.Data, OutValid: out.Valid, N: n}
	switch w.Func {
	case sql.WinRowNumber:
		fp.Func = winRowNumber
	case sql.WinRank:
		fp.Func = winRank
	case sql.WinDenseRank:
		// The peer starts counted from the partition's: the partition's
		// first row starts a peer group, so its value is 1.
		fp.Func = winDenseRank
		d, err := r.winScan(n, winScanParams{Flags: uint64(wo.flags), SegBit: winPartBit, Op: winSum, Source: winSrcFlag, SrcBit: winPeerBit})
		if err != nil {
			return nil, err
		}
		fp.Vals = uint64(d)
	case sql.WinAgg:
		if err := r.windowAggregate(in, w, wo, op, &fp); err != nil {
			return nil, err
		}
	default:
		return nil, unsupported(op, w.String())
	}
	if err := r.winLaunch("win_finish", r.d.grid(n), unsafe.Pointer(&fp), unsafe.Sizeof(fp)); err != nil {
		return nil, err
	}
	noteKernel(40*n, 8*n+n/8, n, n)
	return r.newDevCol(w.T, nil, n, out), nil
}

// windowAggregate sets fp up for an aggregate over the frame the planner
// classified: a segmented scan of the argument (reset at each partition)
// and, where the argument has NULLs, one of its non-NULL count, both read
// at the frame's last position.
func (r *queryRun) windowAggregate(in *relation, w *sql.WindowFunc, wo *winOrder, op planner.Node, fp *winFinishParams) error {
	n := in.n
	switch fp.Frame = int32(planner.GPUWindowFrame(w)); fp.Frame {
	case planner.GPUFramePeers:
		at, err := r.ends(wo, n, winPeerBit)
		if err != nil {
			return err
		}
		fp.PeerEndAt = uint64(at)
	case planner.GPUFramePartition:
		at, err := r.ends(wo, n, winPartBit)
		if err != nil {
			return err
		}
		fp.PartEndAt = uint64(at)
	case planner.GPUFrameRow:
	default:
		return unsupported(op, w.String())
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
	default:
		return unsupported(op, w.String())
	}
	v, err := r.winScan(n, winScanParams{Col: arg, Perm: uint64(wo.perm), Flags: uint64(wo.flags), SegBit: winPartBit, Op: scanOp, IsFloat: arg.IsFloat, Source: winSrcColumn})
	if err != nil {
		return err
	}
	fp.Vals = uint64(v)
	return nil
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
