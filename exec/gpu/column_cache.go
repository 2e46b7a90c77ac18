//go:build cuda

package gpu

import (
	"container/list"
	"fmt"
	"math"
	"os"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// devColumn is a column resident on the device (or read in place from
// pinned host memory).
type devColumn struct {
	col      *columnar.Column
	host     uintptr // the host vector it was copied from (staleness check)
	n        int
	data     cu.DevicePtr
	valid    cu.DevicePtr
	width    int // 4 or 8 bytes per value on the device (1 or 2 narrow)
	isFloat  bool
	min, max int64 // of the non-NULL integer values (codes, dates, ints)
	bytes    int64 // device bytes owned (0 for zero-copy)
	zeroCopy bool
	// pinnedCopy is the pinned host copy a zero-copy column owns when its
	// vector was not in pinned memory (zero_copy.go).
	pinnedCopy unsafe.Pointer
	// packing is a packed column's form (column_pack.go): data are its
	// words, frame its frames (inside the same allocation), packedCopy
	// the packed host copy the cold transfer moved (held while the entry
	// lives, kept after it within packedCopies' budget).
	packing    *planner.GPUPacking
	frame      cu.DevicePtr
	packedCopy *packedCopy
	// narrow is a narrow column's form (column_narrow.go): data are its
	// 1- or 2-byte offsets (width), frame its frames.
	narrow *planner.GPUNarrow
	// behind, when not 0, is the launch count after the unpack that
	// fills a column loaded behind a query (column_in_place.go): until
	// the device has synchronized past it, the values may not be there.
	behind uint64
	// sending is the copy that fills the entry while it is in flight
	// (column_ahead.go, column_unpack.go).
	sending *sendingCopy
	// pooled: data came from the device's pool (allocData).
	pooled bool
	pins   int
	elem   *list.Element
}

// cacheKey is a cache entry's identity: a column in one device form (a
// packed, a narrow and the 4-byte form are distinct entries).
type cacheKey struct {
	col  *columnar.Column
	form deviceForm
}

// deviceForm is how a cached column's values are stored on the device.
type deviceForm int

const (
	formWhole  deviceForm = iota // 4 or 8 bytes a value
	formPacked                   // bit-packed (column_pack.go)
	formNarrow                   // 1 or 2 bytes from frames (column_narrow.go)
)

func (c *devColumn) key() cacheKey {
	switch {
	case c.packing != nil:
		return cacheKey{c.col, formPacked}
	case c.narrow != nil:
		return cacheKey{c.col, formNarrow}
	}
	return cacheKey{c.col, formWhole}
}

// view is the kernel's Col of the column.
func (c *devColumn) view() colView {
	v := colView{Data: uint64(c.data), Valid: uint64(c.valid), Width: int32(c.width)}
	if c.isFloat {
		v.IsFloat = 1
	}
	if c.packing != nil {
		v.Frame, v.Bits, v.Shift = uint64(c.frame), int32(c.packing.Bits), int32(c.packing.ChunkShift)
	}
	if c.narrow != nil {
		v.Frame, v.Bits, v.Shift = uint64(c.frame), int32(8*c.narrow.Width), int32(c.narrow.ChunkShift)
	}
	return v
}

// columnCache keeps the columns queries touch on the device, least recently
// used evicted first, within a byte budget; keyed by column identity (tables
// are immutable snapshots, so a *Column's values never change). Integer
// vectors whose values fit in 32 bits are stored narrowed, so every later
// scan reads half the bytes. A column that cannot fit even after eviction is
// read in place from pinned host memory (zero-copy over UVA) when it lives
// there. Only code inside the device's do uses the cache.
type columnCache struct {
	d      *device
	budget int64
	used   int64
	m      map[cacheKey]*devColumn
	lru    list.List    // front = most recent
	mm     cu.DevicePtr // 16 B: cache_scan's min and max
	// packed holds packed columns' pinned host copies (column_pack.go).
	packed *packedCopies
	// behind are the entries loaded behind a query whose unpacks may run
	// still (column_in_place.go).
	behind []*devColumn
	// heldCopies are whole copies that loads in flight read from, given
	// back at the device's next synchronization (releaseHeld).
	heldCopies []*packedCopy
}

func newColumnCache(d *device, budget int64) *columnCache {
	mem := hostMemory{reserve: hostReserve, release: hostRelease, pin: func(p unsafe.Pointer, n int) error {
		start := time.Now()
		err := hostRegister(p, n)
		if cacheTrace {
			fmt.Fprintf(os.Stderr, "gpu cache: pinned %d bytes of a packed copy in %.3f ms\n", n, time.Since(start).Seconds()*1e3)
		}
		return err
	}}
	return &columnCache{d: d, budget: budget, m: map[cacheKey]*devColumn{}, packed: newPackedCopies(min(budget, packedKeep()), mem)}
}

func hostPtr(c *columnar.Column) uintptr {
	b := c.Data()
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

// get makes col resident and pins it until unpinAll.
func (cc *columnCache) get(col *columnar.Column) (*devColumn, error) {
	return cc.getAs(col, false, nil)
}

// getAs returns col resident, or (zeroCopy) read in place from pinned host
// memory with its validity bitmap on the device, pinned until unpin. A
// zero-copy column takes its value range from the plan's statistics (in)
// when they have one, instead of reading it across PCIe once more. A
// cached entry of the other kind is replaced.
func (cc *columnCache) getAs(col *columnar.Column, zeroCopy bool, in *planner.GPUColumn) (*devColumn, error) {
	// An empty vector has nothing to read in place: its 8-byte stand-in
	// lives on the device.
	zeroCopy = zeroCopy && len(col.Data()) > 0
	if e, ok := cc.m[cacheKey{col: col}]; ok {
		// A pinned entry serves the query that pinned it as it is: a
		// column that did not fit the cache and is read zero-copy stays
		// so for the whole query.
		if e.host == hostPtr(col) && e.n == col.Len && (e.zeroCopy == zeroCopy || e.pins > 0) {
			cc.lru.MoveToFront(e.elem)
			e.pins++
			return e, nil
		}
		cc.drop(e)
	}
	var e *devColumn
	var err error
	if zeroCopy {
		e, err = cc.loadZeroCopy(col, in)
	} else {
		e, err = cc.load(col, in)
	}
	if err != nil {
		return nil, err
	}
	cc.insert(e)
	return e, nil
}

// insert adds a loaded entry, pinned once.
func (cc *columnCache) insert(e *devColumn) {
	e.pins = 1
	e.elem = cc.lru.PushFront(e)
	cc.m[e.key()] = e
}

func (cc *columnCache) unpin(e *devColumn) {
	if e.pins > 0 {
		e.pins--
	}
}

func (cc *columnCache) drop(e *devColumn) {
	cc.settle(e)
	if !e.zeroCopy {
		cc.freeData(e)
	}
	if e.valid != 0 {
		cu.MemFree(e.valid)
	}
	if e.pinnedCopy != nil {
		hostFree(e.pinnedCopy)
	}
	if e.packedCopy != nil {
		cc.packed.release(e.packedCopy)
		e.packedCopy = nil
	}
	e.behind = 0
	cc.used -= e.bytes
	cc.lru.Remove(e.elem)
	delete(cc.m, e.key())
}

// reserve evicts unpinned columns until n more bytes fit the budget.
func (cc *columnCache) reserve(n int64) bool {
	for el := cc.lru.Back(); el != nil && cc.used+n > cc.budget; {
		prev := el.Prev()
		if e := el.Value.(*devColumn); e.pins == 0 {
			cc.drop(e)
		}
		el = prev
	}
	// Cached dimension builds count in the budget too; they go after the
	// columns, since a build is rebuilt from columns.
	for cc.used+n > cc.budget && cc.d.dims != nil && cc.d.dims.evictOldest() {
	}
	return cc.used+n <= cc.budget
}

// Clear empties the cache (benchmarks of cold runs; tests).
func (cc *columnCache) clear() {
	for _, e := range cc.m {
		if e.pins == 0 {
			cc.drop(e)
		}
	}
}

// cacheTrace (GPUSQL_CACHE_TRACE=1) prints each column load's time and
// host-to-device rate, to tell a cold query's copies from its other work.
var cacheTrace = os.Getenv("GPUSQL_CACHE_TRACE") != ""

// load makes col resident. The host-to-device traffic is the cold cost of a
// query, so each byte crosses PCIe once and nothing scans the column on the
// host: int32 and float vectors go by DMA straight into their device
// buffer; an int64 vector is read in place from pinned host memory by
// cache_scan, which writes its int32 form into device memory (half the
// device bytes and no staging copy) and its min and max, and only if the
// values do not fit 32 bits is it copied whole. A vector of a megabyte or
// more in pageable memory is loaded from its pinned whole copy
// (packed_copies.go), made on its first load. Integer min/max come from
// the plan's statistics (in) when it has them, so that the load does not
// wait for its copy, else from cache_scan over the device copy
// (microseconds at device bandwidth, and a synchronization).
func (cc *columnCache) load(col *columnar.Column, in *planner.GPUColumn) (*devColumn, error) {
	if cacheTrace {
		start := time.Now()
		defer func() {
			s := time.Since(start).Seconds()
			b := len(col.Data()) + 8*len(col.Valid)
			fmt.Fprintf(os.Stderr, "gpu cache: load %d rows, %d host bytes in %.3f ms (%.1f GB/s)\n", col.Len, b, s*1e3, float64(b)/s/1e9)
		}()
	}
	if col.Type.ID == columnar.Vector {
		// The planner keeps plans that read vectors on the CPU
		// (planner/vector.go); this is the backstop.
		return nil, fmt.Errorf("gpu: %w: VECTOR columns", ErrUnsupported)
	}
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len, min: math.MaxInt64, max: math.MinInt64}
	src := col.Data()
	srcWidth := 4
	if col.F64 != nil || col.I64 != nil {
		srcWidth = 8
	}
	e.width, e.isFloat = srcWidth, col.F64 != nil
	hostDev, pinned := cu.DevicePtr(0), false
	if len(src) > 0 {
		hostDev, pinned = cc.d.pinned.devicePtr(e.host)
	}
	var hc *packedCopy
	if len(src) >= pinnedMin && !pinned {
		var dev cu.DevicePtr
		if hc, dev = cc.wholeCopy(col); hc != nil {
			src, hostDev, pinned = hc.bytes(), dev, true
		}
	}
	n := int64(col.Len)
	vbytes := int64(len(col.Valid)) * 8
	if col.I64 != nil {
		e.width = 4 // until the values say otherwise
	}
	if !cc.reserve(n*int64(e.width) + vbytes) {
		// The cache is full of this query's own columns (the plan's
		// budget is more than the device has free): read this one in
		// place rather than fail the query.
		if len(src) > 0 {
			return cc.loadZeroCopy(col, nil)
		}
	}
	var err error
	if err := cc.loadValid(e, col); err != nil {
		cc.free(e)
		return nil, err
	}
	if n == 0 || len(src) == 0 {
		if e.data, err = cu.MemAlloc(8); err != nil {
			cc.free(e)
			return nil, err
		}
		e.bytes += 8
		cc.used += e.bytes
		return e, nil
	}
	waited := true
	if col.I64 != nil {
		err = cc.loadInt64(e, src, hostDev, pinned)
	} else {
		waited, err = cc.loadDirect(e, src, in)
	}
	if hc != nil {
		// A copy in flight reads the whole copy until the next
		// synchronization.
		if waited || err != nil {
			cc.packed.release(hc)
		} else {
			cc.heldCopies = append(cc.heldCopies, hc)
		}
	}
	if err != nil {
		cc.free(e)
		return nil, err
	}
	cc.used += e.bytes
	return e, nil
}

// releaseHeld gives back the whole copies loads without a wait read from:
// the device has synchronized past their copies.
func (cc *columnCache) releaseHeld() {
	for _, hc := range cc.heldCopies {
		cc.packed.release(hc)
	}
	clear(cc.heldCopies)
	cc.heldCopies = cc.heldCopies[:0]
}

// wholeCopy is col's pinned host copy (made now or kept), or nil when
// pinned memory is short (the load copies from pageable memory then).
func (cc *columnCache) wholeCopy(col *columnar.Column) (*packedCopy, cu.DevicePtr) {
	hc, err := cc.packed.get(col, wholeCopy)
	if err != nil {
		return nil, 0
	}
	dev, err := hostDevicePtr(hc.mem)
	if err != nil {
		cc.packed.release(hc)
		return nil, 0
	}
	return hc, dev
}

// loadDirect copies an int32 or float64 vector to the device by DMA and
// takes an integer vector's min/max from the plan's statistics (in), or
// from the device copy, waiting for it (waited).
func (cc *columnCache) loadDirect(e *devColumn, src []byte, in *planner.GPUColumn) (waited bool, err error) {
	need := int64(len(src))
	if e.data, err = cc.allocData(e, need); err != nil {
		return false, fmt.Errorf("gpu: caching a column of %d bytes: %v", need, err)
	}
	e.bytes += need
	if err := cu.MemcpyHtoDAsync(e.data, unsafe.Pointer(unsafe.SliceData(src)), need, cu.NoStream); err != nil {
		return false, fmt.Errorf("gpu: copying a column to the device: %v", err)
	}
	switch {
	case e.isFloat:
		return true, cc.d.sync()
	case in != nil && in.HasRange:
		e.min, e.max = in.Min, in.Max
		return false, nil
	}
	e.min, e.max, err = cc.scan(e.data, int64(e.width), 0, e.valid, int64(e.n))
	return true, err
}

// loadInt64 stores an int64 vector as int32 when its values fit, else as
// int64. From pinned memory, cache_scan narrows it in place over UVA (8 B
// per row across PCIe, once); from the Go heap it goes through a staging
// copy on the device.
func (cc *columnCache) loadInt64(e *devColumn, src []byte, hostDev cu.DevicePtr, pinned bool) error {
	n := int64(e.n)
	in := hostDev
	if !pinned {
		tmp, err := cc.d.pool.get(8 * n)
		if err != nil {
			return err
		}
		defer cc.d.pool.put(tmp)
		if err := cu.MemcpyHtoDAsync(tmp, unsafe.Pointer(unsafe.SliceData(src)), 8*n, cu.NoStream); err != nil {
			return fmt.Errorf("gpu: copying a column to the device: %v", err)
		}
		in = tmp
	}
	var err error
	if e.data, err = cu.MemAlloc(4 * n); err != nil {
		return fmt.Errorf("gpu: caching a column of %d bytes: %v", 4*n, err)
	}
	e.bytes += 4 * n
	if e.min, e.max, err = cc.scan(in, 8, e.data, e.valid, n); err != nil {
		return err
	}
	if e.max < e.min || (e.min >= math.MinInt32 && e.max <= math.MaxInt32) {
		return nil
	}
	// Wide values: keep all 8 bytes (a second transfer, paid only by
	// columns that need 64 bits).
	cu.MemFree(e.data)
	e.data, e.bytes, e.width = 0, e.bytes-4*n, 8
	if !cc.reserve(8*n + e.bytes) {
		return fmt.Errorf("gpu: column of %d bytes does not fit the device cache (%d of %d bytes in use)", 8*n, cc.used, cc.budget)
	}
	if e.data, err = cu.MemAlloc(8 * n); err != nil {
		return fmt.Errorf("gpu: caching a column of %d bytes: %v", 8*n, err)
	}
	e.bytes += 8 * n
	if !pinned {
		err = cu.MemcpyDtoD(e.data, in, 8*n)
	} else {
		err = cu.MemcpyHtoDAsync(e.data, unsafe.Pointer(unsafe.SliceData(src)), 8*n, cu.NoStream)
	}
	if err != nil {
		return fmt.Errorf("gpu: copying a column to the device: %v", err)
	}
	return cc.d.sync()
}

// loadValid copies col's validity bitmap, if it has one, to the device
// as e's.
func (cc *columnCache) loadValid(e *devColumn, col *columnar.Column) error {
	vbytes := int64(len(col.Valid)) * 8
	if vbytes == 0 {
		return nil
	}
	var err error
	if e.valid, err = cu.MemAlloc(vbytes); err == nil {
		err = cu.MemcpyHtoDAsync(e.valid, unsafe.Pointer(unsafe.SliceData(col.Valid)), vbytes, cu.NoStream)
	}
	if err != nil {
		return fmt.Errorf("gpu: copying a validity bitmap: %v", err)
	}
	e.bytes += vbytes
	return nil
}

// smallColumn bounds the columns whose device memory comes from the
// device's pool (memory.go) and goes back to it when dropped: a fresh
// cuMemAlloc costs up to a millisecond where the driver maps new pages
// for it, which a cold query's dimension columns paid one by one.
const smallColumn = 16 << 20

// allocData allocates n bytes for e's values: small ones from the pool.
func (cc *columnCache) allocData(e *devColumn, n int64) (cu.DevicePtr, error) {
	if n > smallColumn {
		return cu.MemAlloc(n)
	}
	p, err := cc.d.pool.get(n)
	e.pooled = err == nil
	return p, err
}

// freeData gives back e's values' memory.
func (cc *columnCache) freeData(e *devColumn) {
	if e.pooled {
		cc.d.pool.put(e.data)
	} else {
		cu.MemFree(e.data)
	}
	e.data, e.pooled = 0, false
}

// free releases what a failed load allocated.
func (cc *columnCache) free(e *devColumn) {
	if e.data != 0 {
		cc.freeData(e)
	}
	if e.valid != 0 {
		cu.MemFree(e.valid)
	}
}

// scan runs cache_scan over n values of width bytes at in (device memory or
// the device alias of pinned host memory), narrowing them into out when out
// is set, and returns the min and max of the non-NULL values (max < min
// when there are none). It waits for the device: the caller needs the range
// now.
func (cc *columnCache) scan(in cu.DevicePtr, width int64, out, valid cu.DevicePtr, n int64) (int64, int64, error) {
	if err := cc.ensureScratch(); err != nil {
		return 0, 0, err
	}
	mm := [2]int64{math.MaxInt64, math.MinInt64}
	if err := cu.MemcpyHtoD(cc.mm, unsafe.Pointer(&mm[0]), 16); err != nil {
		return 0, 0, err
	}
	f, err := cc.d.fn("cache_scan")
	if err != nil {
		return 0, 0, err
	}
	p := struct {
		In    uint64
		Width int64
		Out   uint64
		Valid uint64
		N     int64
		MM    uint64
	}{uint64(in), width, uint64(out), uint64(valid), n, uint64(cc.mm)}
	grid := int(min((n+255)/256, int64(cc.d.sms*8)))
	if err := launch(f, grid, 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return 0, 0, err
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&mm[0]), cc.mm, 16); err != nil {
		return 0, 0, fmt.Errorf("gpu: loading a column: %v", err)
	}
	return mm[0], mm[1], nil
}

// ensureScratch allocates cc.mm, the 16 bytes of device memory a load's
// kernels leave their results in (a column's min and max; a narrowing's
// flag), read back at once.
func (cc *columnCache) ensureScratch() error {
	if cc.mm != 0 {
		return nil
	}
	p, err := cu.MemAlloc(16)
	if err != nil {
		return err
	}
	cc.mm = p
	return nil
}
