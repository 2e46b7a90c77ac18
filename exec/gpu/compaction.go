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

const maxEmit = 8 // MAX_EMIT in kernels/select.cu

// emitCol mirrors EmitCol in kernels/select.cu.
type emitCol struct {
	In       colView
	Out      uint64
	OutValid uint64
}

// emitParams mirrors EmitParams.
type emitParams struct {
	N       int64
	Offsets uint64
	Mask    uint64
	RowIDs  uint64
	NCols   int32
	Pad     int32
	Cols    [maxEmit]emitCol
}

// selectedColumn is a plain output column of a select on the device: its
// source and the selected values (4 or 8 B each) and validity bitmap (0
// when the source has none).
type selectedColumn struct {
	src         *devColumn
	data, valid cu.DevicePtr
}

// compactEmit is compact writing the selected rows of the plain output
// columns srcs directly (select_count also keeps each row's pass bit,
// select_emit writes the values at their ranks): no row-number list and
// no gather unless rowids is asked for (computed columns evaluate at the
// selected rows). The predicate columns are read once, not twice.
func (r *queryRun) compactEmit(sp *selectParams, srcs []*devColumn, wantRows bool) (rows cu.DevicePtr, m int64, outs []selectedColumn, err error) {
	offsets, mask, m, err := r.countPassing(sp)
	if err != nil {
		return 0, 0, nil, err
	}
	if wantRows {
		if rows, err = r.s.alloc(4 * max(m, 2)); err != nil {
			return 0, 0, nil, err
		}
	}
	for _, dc := range srcs {
		o := selectedColumn{src: dc}
		if o.data, err = r.s.alloc(max(m*emitWidth(dc), 8)); err != nil {
			return 0, 0, nil, err
		}
		if dc.valid != 0 {
			words := max((m+63)/64, 1)
			if o.valid, err = r.s.alloc(8 * words); err != nil {
				return 0, 0, nil, err
			}
			if err := cu.MemsetD32(o.valid, 0, 2*words); err != nil {
				return 0, 0, nil, err
			}
		}
		outs = append(outs, o)
	}
	if m > 0 {
		err = r.emitSelected(sp.N, m, offsets, mask, rows, outs)
	}
	return rows, m, outs, err
}

// countPassing is select_count keeping every row's pass bit (mask, a byte
// a thread) and the device scan of the tile counts into offsets; it
// returns them and the number of passing rows.
func (r *queryRun) countPassing(sp *selectParams) (offsets, mask cu.DevicePtr, m int64, err error) {
	tiles := (sp.N + 256*selectItems - 1) / (256 * selectItems)
	if offsets, err = r.s.alloc(8 * max(tiles, 1)); err != nil {
		return 0, 0, 0, err
	}
	if mask, err = r.s.alloc(max(256*tiles, 8)); err != nil {
		return 0, 0, 0, err
	}
	total, err := r.s.alloc(8)
	if err != nil {
		return 0, 0, 0, err
	}
	sp.Counts, sp.Mask = uint64(offsets), uint64(mask)
	f, err := r.d.fn("select_count")
	if err != nil {
		return 0, 0, 0, err
	}
	// A few blocks an SM loop over the tiles (select_count's launch bounds
	// keep five resident).
	if err := launch(f, int(min(tiles, int64(r.d.sms)*5)), 256, 0, unsafe.Pointer(sp), unsafe.Sizeof(*sp)); err != nil {
		return 0, 0, 0, err
	}
	noteKernel(predsBytes(sp.Preds[:sp.NPreds], sp.N), 8*tiles+256*tiles, sp.N, tiles)
	if err := r.scanInPlace(offsets, tiles, total); err != nil {
		return 0, 0, 0, err
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&m), total, 8); err != nil {
		return 0, 0, 0, fmt.Errorf("gpu: select failed: %v", err)
	}
	return offsets, mask, m, nil
}

// emitSelected launches select_emit over n rows (m pass) for outs, one
// launch per maxEmit columns; the first also writes the row numbers when
// rows is set (a launch with no column when only they are wanted).
func (r *queryRun) emitSelected(n, m int64, offsets, mask, rows cu.DevicePtr, outs []selectedColumn) error {
	f, err := r.d.fn("select_emit")
	if err != nil {
		return err
	}
	tiles := (n + 256*selectItems - 1) / (256 * selectItems)
	for lo := 0; lo == 0 || lo < len(outs); lo += maxEmit {
		ep := emitParams{N: n, Offsets: uint64(offsets), Mask: uint64(mask)}
		if lo == 0 {
			ep.RowIDs = uint64(rows)
		}
		read, written := tiles*256+8*tiles, int64(0)
		if ep.RowIDs != 0 {
			written += 4 * m
		}
		for i, o := range outs[lo:min(lo+maxEmit, len(outs))] {
			v := o.src.view()
			ep.Cols[i] = emitCol{In: v, Out: uint64(o.data), OutValid: uint64(o.valid)}
			ep.NCols++
			// The selected rows of the source, a 32-byte sector each at
			// most (the whole column when most rows pass).
			read += min(v.readBytes(n), m*32)
			written += m * emitWidth(o.src)
			if o.valid != 0 {
				written += (m + 7) / 8
			}
		}
		if ep.NCols == 0 && ep.RowIDs == 0 {
			return nil
		}
		if err := launch(f, int(min(tiles, int64(r.d.sms)*4)), 256, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
			return err
		}
		noteKernel(read, written, n, m)
	}
	return nil
}

// emitWidth is the bytes select_emit writes a value of dc in: 8 for an
// 8-byte column, else 4 (a narrowed BIGINT widens on the host).
func emitWidth(dc *devColumn) int64 {
	if v := dc.view(); v.Width == 8 && v.Frame == 0 {
		return 8
	}
	return 4
}
