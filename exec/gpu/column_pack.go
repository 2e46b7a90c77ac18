//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Packed device columns (planner/gpu_packing.go): the fused star kernel's
// resident fact columns in bit-packed form, b bits a row and a frame per
// 4,096 rows (storage/columnar/packed.go), decoded in registers by the
// kernel's tile loads (kernels/common.cuh, load_packed). A packed column
// is its own cache entry beside the column's 4-byte form (which other
// operators read), with its own bytes, evicted, checked for staleness and
// pinned as any other entry.
//
// The host packs the column once, in parallel by chunk, straight into
// pinned memory kept across evictions (packed_copies.go), and the cold
// transfer moves the packed bytes: a 4-bit column crosses PCIe in an
// eighth of the time of its 4-byte form, which is what lifts a cold query
// above the link's rate in rows per second.

// packedKeep bounds the pinned bytes of packed (and whole) host copies
// kept for later loads (as narrowKeep bounds narrowed ones): an eighth of
// the host's memory, 8 GiB at least. SSB SF 100's Q4.x pack their six
// fact columns into 8.9 GB, which an 8 GiB bound made them pack again
// query after query.
func packedKeep() int64 { return max(8<<30, exec.HostMemory()/8) }

// getPacked returns col's packed form as gc plans it, pinned until unpin.
// When the cache has no room for it (the plan's budget is more than the
// device has free) or pinned memory for its host copy is short, the
// 4-byte form serves, as load would.
func (cc *columnCache) getPacked(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	pk := gc.Packing
	if e, ok := cc.m[cacheKey{col, formPacked}]; ok {
		if e.host == hostPtr(col) && e.n == col.Len && *e.packing == *pk {
			cc.lru.MoveToFront(e.elem)
			e.pins++
			return e, nil
		}
		cc.drop(e)
	}
	e, err := cc.loadPacked(col, pk, gc)
	if errors.Is(err, errNoRoom) {
		return cc.getAs(col, false, nil)
	}
	if err != nil {
		return nil, err
	}
	cc.insert(e)
	return e, nil
}

// loadPacked copies col's packed host copy (made now, or kept from an
// earlier load) to the device: words, then frames, in one allocation.
// Its value range is the plan's (statistics), as a zero-copy column's is.
func (cc *columnCache) loadPacked(col *columnar.Column, pk *planner.GPUPacking, gc *planner.GPUColumn) (*devColumn, error) {
	if pk.ChunkShift != columnar.PackChunkShift {
		return nil, fmt.Errorf("gpu: internal error: the plan packs frames per 2^%d rows, storage per 2^%d", pk.ChunkShift, columnar.PackChunkShift)
	}
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len, width: 4, packing: pk, min: math.MaxInt64, max: math.MinInt64}
	if gc.HasRange {
		e.min, e.max = gc.Min, gc.Max
	}
	size := columnar.PackedBytes(col.Len, pk.Bits)
	vbytes := int64(len(col.Valid)) * 8
	if !cc.reserve(size + vbytes) {
		return nil, errNoRoom
	}
	pc, err := cc.packed.get(col, pk.Bits)
	if errors.Is(err, errNoRoom) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: %s.%s: %w", gc.Table, gc.Column, err)
	}
	e.packedCopy = pc
	// An empty column's stand-in is 8 bytes, as load's.
	if e.data, err = cu.MemAlloc(max(size, 8)); err != nil {
		cc.freePacked(e)
		return nil, fmt.Errorf("gpu: caching a packed column of %d bytes: %v", size, err)
	}
	e.frame = e.data + cu.DevicePtr(4*pc.words)
	e.bytes = max(size, 8)
	if size > 0 {
		if err := cu.MemcpyHtoDAsync(e.data, pc.mem, size, cu.NoStream); err != nil {
			cc.freePacked(e)
			return nil, fmt.Errorf("gpu: copying a packed column to the device: %v", err)
		}
	}
	if err := cc.loadValid(e, col); err != nil {
		cc.freePacked(e)
		return nil, err
	}
	cc.used += e.bytes
	return e, nil
}

// freePacked releases what a failed packed load took.
func (cc *columnCache) freePacked(e *devColumn) {
	cc.free(e)
	cc.packed.release(e.packedCopy)
}
