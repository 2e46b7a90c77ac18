//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Packed transfers (planner/gpu_packing.go, SET gpu_packing = TRANSFER): a
// column the plan sends packed crosses the link in its bit-packed form,
// from the pinned host copy packed once and kept (packed_copies.go), into
// a staging buffer, and unpack_packed (kernels/column_cache.cu) writes
// its 4-byte form, which the cache then holds as it holds a column copied
// whole: every operator reads it, warm queries run the 4-byte kernels. A
// cold query pays b/32 of the link's bytes and one pass at device
// bandwidth.

// getUnpacked returns col's 4-byte device form, loaded through its packed
// form when it is not cached, pinned until unpin. Without room for the
// packed host copy it is copied whole, as get would.
func (cc *columnCache) getUnpacked(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	if e, ok := cc.m[cacheKey{col: col}]; ok {
		if e.host == hostPtr(col) && e.n == col.Len && (!e.zeroCopy || e.pins > 0) {
			cc.lru.MoveToFront(e.elem)
			e.pins++
			return e, nil
		}
		cc.drop(e)
	}
	if !gc.HasRange || col.Len == 0 {
		return cc.get(col) // the range comes from a scan of the copy
	}
	e, err := cc.loadUnpacked(col, gc)
	if errors.Is(err, errNoRoom) {
		return cc.get(col)
	}
	if err != nil {
		return nil, err
	}
	cc.insert(e)
	return e, nil
}

// loadUnpacked copies col's packed host copy to a staging buffer and
// unpacks it into a new 4-byte device column, waiting for the device. Its
// value range is the plan's (statistics), as a packed column's is.
func (cc *columnCache) loadUnpacked(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	e, err := cc.sendUnpacked(col, gc, cu.Stream{})
	if err != nil {
		return nil, err
	}
	l := e.sending
	e.sending = nil
	err = cc.d.sync()
	l.release(cc)
	if err != nil {
		cc.free(e)
		return nil, err
	}
	cc.used += e.bytes
	return e, nil
}

// sendUnpacked starts the copy of col's packed host copy to a staging
// buffer and its unpack into a new 4-byte device column, on stream st,
// without waiting: e.sending holds what the copy reads until it is done.
// The entry's bytes are not yet counted in the cache.
func (cc *columnCache) sendUnpacked(col *columnar.Column, gc *planner.GPUColumn, st cu.Stream) (*devColumn, error) {
	pk := gc.Packing
	if pk.ChunkShift != columnar.PackChunkShift {
		return nil, fmt.Errorf("gpu: internal error: the plan packs frames per 2^%d rows, storage per 2^%d", pk.ChunkShift, columnar.PackChunkShift)
	}
	n := int64(col.Len)
	vbytes := int64(len(col.Valid)) * 8
	if !cc.reserve(4*n + vbytes) {
		return nil, errNoRoom
	}
	start := time.Now()
	pc, err := cc.packed.getTransfer(col, pk, pk.RunBytes > 0)
	if errors.Is(err, errNoRoom) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: %s.%s: %w", gc.Table, gc.Column, err)
	}
	packed := time.Now()
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len, width: 4, min: gc.Min, max: gc.Max}
	e.sending = &sendingCopy{pc: pc}
	if cacheTrace {
		defer func() {
			fmt.Fprintf(os.Stderr, "gpu cache: %s.%s %s copy %.3f ms, send and unpack started in %.3f ms (%d bytes)\n",
				gc.Table, gc.Column, pc.form(), packed.Sub(start).Seconds()*1e3, time.Since(packed).Seconds()*1e3, pc.size)
		}()
	}
	err = cc.unpackInto(e, pc, pk.Bits, st)
	if err == nil {
		err = cc.loadValid(e, col)
	}
	if err != nil {
		// A copy started on st may still read the staging buffer.
		st.Synchronize()
		e.sending.release(cc)
		cc.free(e)
		return nil, err
	}
	return e, nil
}

// unpackInto allocates e's 4-byte data and starts filling it from packed
// copy pc (packed or runs) through a staging buffer (kept in e.sending
// until the device is past the unpack), on stream st.
func (cc *columnCache) unpackInto(e *devColumn, pc *packedCopy, bits int, st cu.Stream) error {
	n := int64(e.n)
	size := pc.size
	tmp, err := cc.d.pool.get(size)
	if err != nil {
		return err
	}
	e.sending.stage = tmp
	if e.data, err = cu.MemAlloc(4 * n); err != nil {
		return fmt.Errorf("gpu: caching a column of %d bytes: %v", 4*n, err)
	}
	e.bytes += 4 * n
	e.sending.traceMark(st)
	if err := cu.MemcpyHtoDAsync(tmp, pc.mem, size, st); err != nil {
		return fmt.Errorf("gpu: copying a packed column to the device: %v", err)
	}
	e.sending.traceMark(st)
	if pc.runs != nil {
		runCopies.Add(1)
		err := cc.launchUnpackRuns(st, tmp, pc.runs, e.data)
		e.sending.traceMark(st)
		return err
	}
	view := colView{Data: uint64(tmp), Width: 4, Frame: uint64(tmp) + 4*uint64(pc.words), Bits: int32(bits), Shift: columnar.PackChunkShift}
	if st != (cu.Stream{}) {
		err := cc.launchUnpackOn(st, view, n, e.data)
		e.sending.traceMark(st)
		return err
	}
	if err := cc.launchUnpack(view, n, e.data, false); err != nil {
		return err
	}
	noteKernel(size, 4*n, n, n)
	return nil
}

// launchUnpackRuns starts unpack_runs (kernels/column_cache.cu) expanding
// the run-length form at form into out's 4-byte rows, on stream st: on
// the copy stream outside the query's kernel profile (the copy's event
// says when it is done), on the default stream as one of its kernels.
func (cc *columnCache) launchUnpackRuns(st cu.Stream, form cu.DevicePtr, f *columnar.RunForm, out cu.DevicePtr) error {
	fn, err := cc.d.fn("unpack_runs")
	if err != nil {
		return err
	}
	a := unpackRunsArgs{Form: uint64(form), Chunks: int64(f.Chunks()), N: int64(f.Rows), Bits: int32(f.Bits), Out: uint64(out)}
	grid := min(f.Chunks(), cc.d.sms*8)
	if st != (cu.Stream{}) {
		return launchUncounted(st, fn, grid, runsThreads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
	}
	if err := launch(fn, grid, runsThreads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
		return err
	}
	noteKernel(4*int64(f.Words()), 4*int64(f.Rows), int64(f.Rows), int64(f.Rows))
	return nil
}

// runCopies counts the columns copied in their run-length form (tests
// check plans that say so do).
var runCopies atomic.Int64

// runsThreads is unpack_runs's block size (RUNS_THREADS).
const runsThreads = 256

// unpackRunsArgs are unpack_runs's parameters.
type unpackRunsArgs struct {
	Form   uint64
	Chunks int64
	N      int64
	Bits   int32
	_      int32
	Out    uint64
}
