//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Narrow columns (planner/gpu_narrow.go): a star fact column the plan
// narrows lives in the cache as 1- or 2-byte offsets from a frame per
// statistics chunk, which only the fused star kernel reads. It is made on
// the device from the column's 4-byte form, as that arrives (copied
// whole, or sent packed and unpacked), by narrow_column
// (kernels/column_cache.cu); the 4-byte form is then dropped unless it was
// cached before. Where the narrow form does not fit, the 4-byte form
// serves: the kernel reads either.

// planForm is the device form the plan gives column c on the star's fact
// side.
func planForm(c planner.GPUColumn) deviceForm {
	switch {
	case c.Packing != nil && !c.Packing.Transfer:
		return formPacked
	case c.Narrow != nil:
		return formNarrow
	}
	return formWhole
}

// getNarrow returns col's narrow form as gc plans it (or its 4-byte form
// where that does not fit), pinned until unpin.
func (cc *columnCache) getNarrow(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	if e, ok := cc.m[cacheKey{col, formNarrow}]; ok {
		if e.host == hostPtr(col) && e.n == col.Len {
			cc.lru.MoveToFront(e.elem)
			e.pins++
			return e, nil
		}
		cc.drop(e)
	}
	_, cached := cc.m[cacheKey{col, formWhole}]
	var src *devColumn
	var err error
	if gc.Packing != nil && gc.Packing.Transfer {
		src, err = cc.getUnpacked(col, gc)
	} else {
		src, err = cc.get(col)
	}
	if err != nil || !gc.HasRange || col.Len == 0 || src.width != 4 {
		return src, err
	}
	src.pins++ // held through the narrowing, whatever reserve evicts
	e, err := cc.loadNarrow(col, gc, src)
	src.pins--
	if errors.Is(err, errNoRoom) {
		return src, nil
	}
	cc.unpin(src)
	if src.pins == 0 && !cached {
		cc.drop(src)
	}
	if err != nil {
		return nil, err
	}
	cc.insert(e)
	return e, nil
}

// loadNarrow writes src's values (col's 4-byte form) into a new narrow
// device column: the offsets, padded to 16 bytes, then the plan's frames,
// in one allocation.
func (cc *columnCache) loadNarrow(col *columnar.Column, gc *planner.GPUColumn, src *devColumn) (*devColumn, error) {
	nw := gc.Narrow
	n := int64(col.Len)
	if nw.Width != 1 && nw.Width != 2 || int64(len(nw.Frames)) != (n+(1<<nw.ChunkShift)-1)>>nw.ChunkShift {
		return nil, fmt.Errorf("gpu: internal error: %s.%s narrowed to %d bytes with %d frames for %d rows", gc.Table, gc.Column, nw.Width, len(nw.Frames), n)
	}
	values := (n*int64(nw.Width) + 15) / 16 * 16
	size := values + 4*int64(len(nw.Frames))
	if !cc.reserve(size + int64(len(col.Valid))*8) {
		return nil, errNoRoom
	}
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len, width: nw.Width, min: gc.Min, max: gc.Max, narrow: nw}
	var err error
	if e.data, err = cu.MemAlloc(size); err != nil {
		return nil, fmt.Errorf("gpu: caching a narrow column of %d bytes: %v", size, err)
	}
	e.bytes += size
	e.frame = e.data + cu.DevicePtr(values)
	if err = cu.MemcpyHtoD(e.frame, unsafe.Pointer(&nw.Frames[0]), 4*int64(len(nw.Frames))); err == nil {
		err = cc.loadValid(e, col)
	}
	if err == nil {
		err = cc.narrowInto(e, src, gc)
	}
	if err != nil {
		cc.free(e)
		return nil, err
	}
	cc.used += e.bytes
	return e, nil
}

// narrowInto runs narrow_column from src into e and waits for it; a value
// outside its chunk's frame range (statistics that do not describe the
// column) is an error.
func (cc *columnCache) narrowInto(e, src *devColumn, gc *planner.GPUColumn) error {
	if err := cc.ensureScratch(); err != nil {
		return err
	}
	if err := cu.MemsetD32(cc.mm, 0, 1); err != nil {
		return err
	}
	f, err := cc.d.fn("narrow_column")
	if err != nil {
		return err
	}
	n := int64(e.n)
	a := struct {
		C      colView
		N      int64
		Width  int32
		_      int32
		Frames uint64
		Shift  int32
		_      int32
		Out    uint64
		Bad    uint64
	}{C: src.view(), N: n, Width: int32(e.width), Frames: uint64(e.frame), Shift: int32(e.narrow.ChunkShift), Out: uint64(e.data), Bad: uint64(cc.mm)}
	if err := launch(f, min(grid1D(n, threads), cc.d.sms*8), threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
		return err
	}
	noteKernel(4*n, int64(e.width)*n, n, n)
	var bad uint32
	if err := cu.MemcpyDtoH(unsafe.Pointer(&bad), cc.mm, 4); err != nil {
		return fmt.Errorf("gpu: narrowing a column: %v", err)
	}
	if bad != 0 {
		return fmt.Errorf("gpu: %s.%s: a value lies outside its chunk's %d-byte range from the statistics' least value (the statistics do not describe the column)", gc.Table, gc.Column, e.width)
	}
	return nil
}
