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

// Cold reads in place (planner/gpu_cold_reads.go): a fact column the plan
// sends packed and marks ColdInPlace, when its 4-byte form is not on the
// device, reaches the fused kernel as its packed host copy read in place
// over PCIe (zero-copy), so a cold query fetches only the lines that hold
// live rows. While the kernel runs, the run allocates the column's 4-byte
// cache entry; when the query ends it loads that form behind it:
// unpack_packed reads the same pinned copy over the link into a new cache
// entry, queued on the default stream after the query's kernels, and
// nobody waits for it but the next work on that stream, which is the next
// query's. The entry holds the packed copy until the device is known to
// have passed its unpack (reclaim, at the end of a later query) or it is
// dropped; a drop or a reader on another stream waits for the device
// first while the unpack may still run (settle).

// coldInPlace returns col read in place when the plan says so and its
// 4-byte form is not cached; nil when it is (or no pinned memory holds its
// packed copy), and the caller loads it as getUnpacked does.
func (r *queryRun) coldInPlace(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	cc := r.d.cache
	if e, ok := cc.m[cacheKey{col, formWhole}]; ok {
		if e.host == hostPtr(col) && e.n == col.Len && !e.zeroCopy {
			return nil, nil
		}
		if e.pins == 0 {
			cc.drop(e) // stale: its packed copy goes with it
		}
	}
	if !gc.HasRange || col.Len == 0 {
		return nil, nil
	}
	e, err := cc.inPlacePacked(col, gc)
	if errors.Is(err, errNoRoom) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.inPlace = append(r.inPlace, e)
	coldInPlaceReads.Add(1)
	return e, nil
}

// coldInPlaceReads counts columns read in place (tests).
var coldInPlaceReads atomic.Int64

// inPlacePacked is col's packed host copy (made now or kept) as a column
// the kernels read over UVA, its validity bitmap on the device.
func (cc *columnCache) inPlacePacked(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	pk := gc.Packing
	if pk.ChunkShift != columnar.PackChunkShift {
		return nil, fmt.Errorf("gpu: internal error: the plan packs frames per 2^%d rows, storage per 2^%d", pk.ChunkShift, columnar.PackChunkShift)
	}
	pc, err := cc.packed.getTransfer(col, pk, false)
	if errors.Is(err, errNoRoom) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: %s.%s: %w", gc.Table, gc.Column, err)
	}
	dp, err := hostDevicePtr(pc.mem)
	if err != nil {
		cc.packed.release(pc)
		return nil, err
	}
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len, width: 4, packing: pk, zeroCopy: true,
		data: dp, frame: dp + cu.DevicePtr(4*pc.words), packedCopy: pc, min: gc.Min, max: gc.Max}
	if err := cc.loadValid(e, col); err != nil {
		cc.releaseInPlace(e)
		return nil, err
	}
	return e, nil
}

// releaseInPlace gives back what an in-place column holds.
func (cc *columnCache) releaseInPlace(e *devColumn) {
	if e.valid != 0 {
		cu.MemFree(e.valid)
	}
	cc.packed.release(e.packedCopy)
}

// behindLoad is a column to load behind a query: the packed view it was
// read in place from, and its 4-byte cache entry, allocated and pinned
// until its unpack is launched.
type behindLoad struct {
	from colView
	to   *devColumn
}

// allocBehind allocates the 4-byte entries of the in-place columns of a
// run whose fact kernel is launched, while the host would wait for it
// anyway: an allocation (or a free it evicts) may wait for the device.
// A column whose form was cached meanwhile, is pinned stale, or does not
// fit the budget is not loaded (a later query loads it).
func (cc *columnCache) allocBehind(cols []*devColumn) []behindLoad {
	var loads []behindLoad
	start := time.Now()
	for _, e := range cols {
		if w := cc.behindEntry(e); w != nil {
			loads = append(loads, behindLoad{e.view(), w})
		}
	}
	if cacheTrace {
		fmt.Fprintf(os.Stderr, "gpu cache: %d of %d columns read in place to load behind, allocated in %.3f ms\n", len(loads), len(cols), time.Since(start).Seconds()*1e3)
	}
	return loads
}

// launchBehind starts the unpacks of a run that ended, without waiting
// for them, and unpins their entries.
func (cc *columnCache) launchBehind(loads []behindLoad) {
	quiet := cc.d.syncedSince()
	defer func() {
		if quiet {
			cc.d.idleAt = launches.Load() // the query's own kernels are done
		}
	}()
	for _, l := range loads {
		w := l.to
		cc.unpin(w)
		if err := cc.launchUnpack(l.from, int64(w.n), w.data, true); err != nil {
			// The device failed: the entry's values are unknown.
			cc.drop(w)
			continue
		}
		w.behind = launches.Load()
		cc.behind = append(cc.behind, w)
	}
}

// behindEntry is in-place column e's 4-byte cache entry, allocated and
// pinned, holding e's validity bitmap and packed copy; nil (e given back)
// when it is not to be loaded.
func (cc *columnCache) behindEntry(e *devColumn) *devColumn {
	if old, ok := cc.m[cacheKey{e.col, formWhole}]; ok {
		if old.pins > 0 || old.host == e.host && old.n == e.n && !old.zeroCopy {
			cc.releaseInPlace(e)
			return nil
		}
		cc.drop(old)
	}
	n := int64(e.n)
	if !cc.reserve(4*n + e.bytes) {
		cc.releaseInPlace(e)
		return nil
	}
	out, err := cu.MemAlloc(4 * n)
	if err != nil {
		cc.releaseInPlace(e)
		return nil
	}
	w := &devColumn{col: e.col, host: e.host, n: e.n, data: out, valid: e.valid, width: 4, min: e.min, max: e.max,
		bytes: 4*n + e.bytes, packedCopy: e.packedCopy}
	cc.insert(w)
	cc.used += w.bytes
	return w
}

// launchUnpack starts unpack_packed from packed view c into n 4-byte
// values at out: inside the running query's kernel profile, or (behind)
// outside it, for a query that is done.
func (cc *columnCache) launchUnpack(c colView, n int64, out cu.DevicePtr, behind bool) error {
	f, err := cc.d.fn("unpack_packed")
	if err != nil {
		return err
	}
	a := unpackArgs{c, n, uint64(out)}
	grid := min(grid1D(n, threads), cc.d.sms*8)
	if behind {
		return launchNow(cu.Stream{}, f, grid, threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
	}
	return launch(f, grid, threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
}

// unpackArgs are unpack_packed's parameters.
type unpackArgs struct {
	C   colView
	N   int64
	Out uint64
}

// settle waits for the device when e's unpack behind may still be
// running, for a reader on another stream or a drop of its memory, and
// for e's copy ahead (column_ahead.go) while it is in flight.
func (cc *columnCache) settle(e *devColumn) error {
	if e.sending != nil {
		return cc.settleAhead(e)
	}
	if e.behind == 0 {
		return nil
	}
	if e.behind > cc.d.syncedAt {
		if err := cc.d.sync(); err != nil {
			return err
		}
	}
	cc.finishBehind(e)
	return nil
}

// reclaim gives back the packed copies of the columns loaded behind whose
// unpacks the device has synchronized past, without waiting for the
// others: the copies stay within packedCopies' budget once unused.
func (cc *columnCache) reclaim() {
	keep := cc.behind[:0]
	for _, e := range cc.behind {
		switch {
		case e.behind == 0:
		case e.behind <= cc.d.syncedAt:
			cc.finishBehind(e)
		default:
			keep = append(keep, e)
		}
	}
	clear(cc.behind[len(keep):])
	cc.behind = keep
}

// finishBehind marks e's unpack done and releases the copy it read.
func (cc *columnCache) finishBehind(e *devColumn) {
	e.behind = 0
	if e.packedCopy != nil {
		cc.packed.release(e.packedCopy)
		e.packedCopy = nil
	}
}
