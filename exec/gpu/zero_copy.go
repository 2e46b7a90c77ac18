//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// loadZeroCopy serves col in place from pinned host memory: kernels read
// its values over unified virtual addressing at the link's rate, in its
// host width. Its validity bitmap (1 bit a row, 1/32 of a 4-byte column)
// is copied to the device, where the kernels test it per row; it counts
// against the cache's budget. The value range comes from the plan's
// statistics when they have one, else from cache_scan reading the column
// once across the link.
func (cc *columnCache) loadZeroCopy(col *columnar.Column, in *planner.GPUColumn) (*devColumn, error) {
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len, min: math.MaxInt64, max: math.MinInt64,
		isFloat: col.F64 != nil, zeroCopy: true}
	src := col.Data()
	e.width = 4
	if col.F64 != nil || col.I64 != nil {
		e.width = 8
	}
	dev, pinned := cc.d.pinned.devicePtr(e.host)
	if !pinned {
		// A vector outside the pinned pool (one under pinnedMin, a
		// memory-mapped database's) is copied once into pinned memory
		// the entry owns.
		h, dp, err := hostAlloc(len(src))
		if err != nil {
			return nil, fmt.Errorf("gpu: pinning a column of %d bytes to read it zero-copy: %w", len(src), err)
		}
		copy(unsafe.Slice((*byte)(h), len(src)), src)
		e.pinnedCopy, dev = h, dp
	}
	e.data = dev
	if vbytes := int64(len(col.Valid)) * 8; vbytes > 0 {
		// Evict for it, but never fail for want of room: a bitmap is
		// 1/32 of a 4-byte column, and a query must not fail because
		// the cache is full.
		cc.reserve(vbytes)
		var err error
		if e.valid, err = cu.MemAlloc(vbytes); err != nil {
			return nil, fmt.Errorf("gpu: allocating a validity bitmap of %d bytes: %v", vbytes, err)
		}
		if err := cu.MemcpyHtoD(e.valid, unsafe.Pointer(unsafe.SliceData(col.Valid)), vbytes); err != nil {
			cu.MemFree(e.valid)
			return nil, fmt.Errorf("gpu: copying a validity bitmap: %v", err)
		}
		e.bytes = vbytes
		cc.used += vbytes
	}
	switch {
	case e.isFloat:
	case in != nil && in.HasRange:
		e.min, e.max = in.Min, in.Max
	case in != nil:
		// Statistics say no non-NULL values: max < min.
	default:
		var err error
		if e.min, e.max, err = cc.scan(e.data, int64(e.width), 0, e.valid, int64(e.n)); err != nil {
			return nil, err
		}
	}
	return e, nil
}
