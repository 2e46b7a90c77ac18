//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// compact runs the select skeleton's partition–compute–gather stages
// (Diamos et al.) for the predicates in sp: select_count writes each tile's
// number of passing rows, scan_exclusive_i64 turns the counts into tile
// offsets in place on the device, and select_scatter writes the passing
// row numbers in row order. Only the 8-byte total crosses to the host (the
// caller needs it to size what follows); the per-tile counts never do.
func (r *queryRun) compact(sp *selectParams) (rows cu.DevicePtr, m int64, err error) {
	tile := int64(256 * selectItems)
	tiles := (sp.N + tile - 1) / tile
	if tiles == 0 {
		p, err := r.s.alloc(8)
		return p, 0, err
	}
	counts, err := r.s.alloc(8 * tiles)
	if err != nil {
		return 0, 0, err
	}
	total, err := r.s.alloc(8)
	if err != nil {
		return 0, 0, err
	}
	sp.Counts = uint64(counts)
	f, err := r.d.fn("select_count")
	if err != nil {
		return 0, 0, err
	}
	if err := launch(f, int(tiles), 256, 0, unsafe.Pointer(sp), unsafe.Sizeof(*sp)); err != nil {
		return 0, 0, err
	}
	predBytes := predsBytes(sp.Preds[:sp.NPreds], sp.N)
	noteKernel(predBytes, 8*tiles, sp.N, tiles)
	if err := r.scanInPlace(counts, tiles, total); err != nil {
		return 0, 0, err
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&m), total, 8); err != nil {
		return 0, 0, fmt.Errorf("gpu: select failed: %v", err)
	}
	if rows, err = r.s.alloc(4 * max(m, 2)); err != nil {
		return 0, 0, err
	}
	sp.Offsets, sp.RowIDs = uint64(counts), uint64(rows)
	if f, err = r.d.fn("select_scatter"); err != nil {
		return 0, 0, err
	}
	if err := launch(f, int(tiles), 256, 0, unsafe.Pointer(sp), unsafe.Sizeof(*sp)); err != nil {
		return 0, 0, err
	}
	noteKernel(predBytes+8*tiles, 4*m, sp.N, m)
	return rows, m, nil
}
