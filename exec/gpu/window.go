//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Window on the materializing executor (kernels/window.cu): for each
// distinct (partition, order) of its functions the input's rows are
// sorted once by the radix sort (partition keys, then order keys, NULLs
// first as MySQL sorts), adjacent rows compared into partition and peer
// starts, and each function computed from segmented scans over that order
// and written back at its rows' input positions, so the output keeps the
// input's rows in their order with one column per function appended, as
// exec/cpu's Window does. The planner sends only the functions and frames
// planner/gpu_window.go accepts.

// winOrder is the input sorted for one window, with what its functions
// share: each sorted position's flags, partition and peer-group starts,
// and (made when a frame needs them) the groups' last positions.
type winOrder struct {
	perm                 cu.DevicePtr
	flags                cu.DevicePtr
	partStart, peerStart cu.DevicePtr
	partEndAt, peerEndAt cu.DevicePtr
}

// Scan operators and sources, as kernels/window.cu numbers them.
const (
	winSum, winMin, winMax = 0, 1, 2

	winSrcColumn, winSrcValid, winSrcFlag, winSrcPosition = 0, 1, 2, 3

	winPartBit, winPeerBit = 1, 2
)

// winScanParams mirrors WinScanParams in kernels/window.cu.
type winScanParams struct {
	Col                                    colView
	Perm, Flags                            uint64
	N                                      int64
	Out, TileVal, TileFirst                uint64
	SegBit, Op, IsFloat, Source, SrcBit, _ int32
}

// winBoundsParams mirrors WinBoundsParams.
type winBoundsParams struct {
	Keys         [maxWinKeys]colView
	Perm         uint64
	N            int64
	Flags        uint64
	NPart, NKeys int32
}

// winEndsParams mirrors WinEndsParams.
type winEndsParams struct {
	Flags, Start, EndAt uint64
	N                   int64
	Bit, _              int32
}

// winFinishParams mirrors WinFinishParams.
type winFinishParams struct {
	Perm, PartStart, PeerStart, PartEndAt, PeerEndAt uint64
	Vals, Counts, Out, OutValid                      uint64
	N                                                int64
	Func, Rows                                       int32
	Src, Dflt                                        colView
	Arg, StartN, EndN                                int64
	StartKind, EndKind                               int32
	AvgMul, AvgDiv                                   int64
	HasDefault, AvgCut                               int32
	RangeKey                                         colView
	KeyMul, StartOff, EndOff                         int64
	StartOffF, EndOffF                               float64
	RangeDesc, StartFloat, EndFloat, Pad             int32
	Tree                                             uint64
	TreeSize                                         int64
	TreeOp, ArgFloat                                 int32
}

// winTreeParams mirrors WinTreeParams.
type winTreeParams struct {
	Src          winScanParams
	Nodes        uint64
	Size, Lo, Hi int64
}

// maxWinKeys is MAX_WIN_KEYS: partition and order keys of one window.
const maxWinKeys = 8

const winTile = 256 * 8 // WIN_TILE

func (r *queryRun) windowRel(ctx context.Context, x *planner.Window) (*relation, error) {
	in, err := r.rel(ctx, x.Input)
	if err != nil {
		return nil, err
	}
	out := &relation{n: in.n, cols: append([]*columnar.Column{}, in.cols...)}
	orders := map[string]*winOrder{}
	for i := range x.Funcs {
		w := &x.Funcs[i]
		if in.n == 0 {
			col, err := r.winColumn(w.T, 0)
			if err != nil {
				return nil, err
			}
			out.cols = append(out.cols, r.newDevCol(w.T, nil, 0, col))
			continue
		}
		key := w.SortKey()
		wo := orders[key]
		if wo == nil {
			if wo, err = r.windowOrder(in, w, x); err != nil {
				return nil, err
			}
			orders[key] = wo
		}
		col, err := r.windowFunc(in, w, wo, x)
		if err != nil {
			return nil, err
		}
		out.cols = append(out.cols, col)
	}
	return out, nil
}

// winColumn allocates a function's output: n 8-byte values and a cleared
// validity bitmap.
func (r *queryRun) winColumn(t columnar.Type, n int64) (colView, error) {
	data, err := r.s.alloc(max(8*n, 8))
	if err != nil {
		return colView{}, err
	}
	words := (n + 63) / 64
	valid, err := r.s.alloc(max(8*words, 8))
	if err != nil {
		return colView{}, err
	}
	if words > 0 {
		if err := cu.MemsetD32(valid, 0, 2*words); err != nil {
			return colView{}, err
		}
	}
	isFloat := int32(0)
	if t.ID == columnar.Float64 {
		isFloat = 1
	}
	return colView{Data: uint64(data), Valid: uint64(valid), Width: 8, IsFloat: isFloat}, nil
}

// windowOrder sorts in for w's partition and order and marks its groups.
func (r *queryRun) windowOrder(in *relation, w *sql.WindowFunc, op planner.Node) (*winOrder, error) {
	exprs := append([]sql.Expr{}, w.Partition...)
	keys := make([]sortKey, len(w.Partition))
	for _, k := range w.Order {
		exprs = append(exprs, k.Expr)
		keys = append(keys, sortKey{desc: k.Desc})
	}
	if len(keys) > maxWinKeys {
		return nil, unsupported(op, fmt.Sprintf("more than %d partition and order keys", maxWinKeys))
	}
	for i, e := range exprs {
		v, err := r.keyView(in, e, op)
		if err != nil {
			return nil, err
		}
		keys[i].v = v
	}
	wo := &winOrder{}
	var err error
	if wo.perm, err = r.sortPerm(in.n, keys, false); err != nil {
		return nil, err
	}
	if wo.flags, err = r.s.alloc(max(in.n, 8)); err != nil {
		return nil, err
	}
	bp := winBoundsParams{Perm: uint64(wo.perm), N: in.n, Flags: uint64(wo.flags), NPart: int32(len(w.Partition)), NKeys: int32(len(keys))}
	for i, k := range keys {
		bp.Keys[i] = k.v
	}
	if err := r.winLaunch("win_bounds", r.d.grid(in.n), unsafe.Pointer(&bp), unsafe.Sizeof(bp)); err != nil {
		return nil, err
	}
	noteKernel(in.n*(8+2*int64(len(keys))*8), in.n, in.n, in.n)
	if wo.partStart, err = r.winScan(in.n, winScanParams{Flags: uint64(wo.flags), Op: winMax, Source: winSrcPosition, SrcBit: winPartBit}); err != nil {
		return nil, err
	}
	if wo.peerStart, err = r.winScan(in.n, winScanParams{Flags: uint64(wo.flags), Op: winMax, Source: winSrcPosition, SrcBit: winPeerBit}); err != nil {
		return nil, err
	}
	return wo, nil
}

// keyView is the device column of a key expression over in.
func (r *queryRun) keyView(in *relation, e sql.Expr, op planner.Node) (colView, error) {
	v, _, err := r.exprView(in, e, op)
	return v, err
}

// exprView is the device column of e over in, with its dictionary (a
// string's).
func (r *queryRun) exprView(in *relation, e sql.Expr, op planner.Node) (colView, *columnar.Dictionary, error) {
	col := (*columnar.Column)(nil)
	if ref, ok := e.(*sql.ColRef); ok && ref.Index < len(in.cols) {
		col = in.cols[ref.Index]
	} else {
		var err error
		if col, err = r.exprCol(in, e, e.Type(), op); err != nil {
			return colView{}, nil, err
		}
	}
	v, err := r.devView(col)
	return v, col.Dict, err
}

// ends returns the groups' last positions (partitions or peer groups),
// made on first use.
func (r *queryRun) ends(wo *winOrder, n int64, bit int32) (cu.DevicePtr, error) {
	at, start := &wo.peerEndAt, wo.peerStart
	if bit == winPartBit {
		at, start = &wo.partEndAt, wo.partStart
	}
	if *at != 0 {
		return *at, nil
	}
	p, err := r.s.alloc(8 * n)
	if err != nil {
		return 0, err
	}
	ep := winEndsParams{Flags: uint64(wo.flags), Start: uint64(start), EndAt: uint64(p), N: n, Bit: bit}
	if err := r.winLaunch("win_ends", r.d.grid(n), unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
		return 0, err
	}
	noteKernel(9*n, 8*n, n, n)
	*at = p
	return p, nil
}

// winScan runs the three-kernel segmented scan p describes over n
// positions into a new array.
func (r *queryRun) winScan(n int64, p winScanParams) (cu.DevicePtr, error) {
	tiles := (n + winTile - 1) / winTile
	out, err := r.s.alloc(8 * n)
	if err != nil {
		return 0, err
	}
	tv, err := r.s.alloc(8 * tiles)
	if err != nil {
		return 0, err
	}
	tf, err := r.s.alloc(8 * tiles)
	if err != nil {
		return 0, err
	}
	p.N, p.Out, p.TileVal, p.TileFirst = n, uint64(out), uint64(tv), uint64(tf)
	if err := r.winLaunch("win_scan_tiles", int(tiles), unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return 0, err
	}
	noteKernel(9*n, 8*n, n, n)
	if tiles > 1 {
		cp := struct {
			P     winScanParams
			Tiles int64
		}{p, tiles}
		if err := r.winLaunchBlock("win_scan_carry", 1, 1024, unsafe.Pointer(&cp), unsafe.Sizeof(cp)); err != nil {
			return 0, err
		}
		noteKernel(16*tiles, 8*tiles, tiles, tiles)
		if err := r.winLaunch("win_scan_apply", r.d.grid(n-winTile), unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return 0, err
		}
		noteKernel(16*n, 8*n, n, n)
	}
	return out, nil
}

func (r *queryRun) winLaunch(name string, grid int, params unsafe.Pointer, size uintptr) error {
	return r.winLaunchBlock(name, grid, 256, params, size)
}

func (r *queryRun) winLaunchBlock(name string, grid, block int, params unsafe.Pointer, size uintptr) error {
	f, err := r.d.fn(name)
	if err != nil {
		return err
	}
	return launch(f, grid, block, 0, params, size)
}
