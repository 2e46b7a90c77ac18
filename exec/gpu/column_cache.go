//go:build cuda

package gpu

import (
	"container/list"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"gorgonia.org/cu"

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
	width    int // 4 or 8 bytes per value on the device
	isFloat  bool
	min, max int64 // of the non-NULL integer values (codes, dates, ints)
	bytes    int64 // device bytes owned (0 for zero-copy)
	zeroCopy bool
	pins     int
	elem     *list.Element
}

// view is the kernel's Col of the column.
func (c *devColumn) view() colView {
	v := colView{Data: uint64(c.data), Valid: uint64(c.valid), Width: int32(c.width)}
	if c.isFloat {
		v.IsFloat = 1
	}
	return v
}

// columnCache keeps the columns queries touch on the device, least recently
// used evicted first, within a byte budget; keyed by column identity (tables
// are immutable snapshots, so a *Column's values never change). Integer
// vectors whose values fit in 32 bits are stored narrowed, so every later
// scan reads half the bytes. A column that cannot fit even after eviction is
// read in place from pinned host memory (zero-copy over UVA) when it lives
// there. Only the device goroutine uses the cache.
type columnCache struct {
	d      *device
	budget int64
	used   int64
	m      map[*columnar.Column]*devColumn
	lru    list.List // front = most recent
}

func newColumnCache(d *device, budget int64) *columnCache {
	return &columnCache{d: d, budget: budget, m: map[*columnar.Column]*devColumn{}}
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
	if e, ok := cc.m[col]; ok {
		if e.host == hostPtr(col) && e.n == col.Len {
			cc.lru.MoveToFront(e.elem)
			e.pins++
			return e, nil
		}
		cc.drop(e)
	}
	e, err := cc.load(col)
	if err != nil {
		return nil, err
	}
	e.pins = 1
	e.elem = cc.lru.PushFront(e)
	cc.m[col] = e
	return e, nil
}

func (cc *columnCache) unpin(e *devColumn) {
	if e.pins > 0 {
		e.pins--
	}
}

func (cc *columnCache) drop(e *devColumn) {
	if !e.zeroCopy {
		cu.MemFree(e.data)
		if e.valid != 0 {
			cu.MemFree(e.valid)
		}
	}
	cc.used -= e.bytes
	cc.lru.Remove(e.elem)
	delete(cc.m, e.col)
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

func (cc *columnCache) load(col *columnar.Column) (*devColumn, error) {
	e := &devColumn{col: col, host: hostPtr(col), n: col.Len}
	var src []byte
	switch {
	case col.F64 != nil:
		e.width, e.isFloat, src = 8, true, col.Data()
	case col.I64 != nil:
		e.min, e.max = minMax64(col)
		e.width, src = 8, col.Data()
		if e.min >= -1<<31 && e.max < 1<<31 {
			e.width = 4
		}
	default:
		e.min, e.max = minMax32(col)
		e.width, src = 4, col.Data()
	}
	need := int64(col.Len) * int64(e.width)
	vbytes := int64(len(col.Valid)) * 8
	if !cc.reserve(need + vbytes) {
		dp, ok := cc.d.pinned.devicePtr(e.host)
		if !ok || e.width != len(src)/max(col.Len, 1) || col.Valid != nil {
			return nil, fmt.Errorf("gpu: column of %d bytes does not fit the device cache (%d of %d bytes in use) and is not in pinned host memory",
				need, cc.used, cc.budget)
		}
		e.data, e.zeroCopy = dp, true
		return e, nil
	}
	alloc := max(need, 8)
	var err error
	if e.data, err = cu.MemAlloc(alloc); err != nil {
		return nil, fmt.Errorf("gpu: caching a column of %d bytes: %v", need, err)
	}
	if len(src) > 0 {
		if e.width == 4 && col.I64 != nil {
			err = cc.narrow(e.data, src, col.Len)
		} else {
			err = cu.MemcpyHtoD(e.data, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src)))
		}
		if err != nil {
			cu.MemFree(e.data)
			return nil, fmt.Errorf("gpu: copying a column to the device: %v", err)
		}
	}
	e.bytes = alloc
	if col.Valid != nil && vbytes > 0 {
		if e.valid, err = cu.MemAlloc(vbytes); err == nil {
			err = cu.MemcpyHtoD(e.valid, unsafe.Pointer(unsafe.SliceData(col.Valid)), vbytes)
		}
		if err != nil {
			cu.MemFree(e.data)
			return nil, fmt.Errorf("gpu: copying a validity bitmap: %v", err)
		}
		e.bytes += vbytes
	}
	cc.used += e.bytes
	return e, nil
}

// narrow copies an int64 vector to the device and stores it as int32 at dst.
func (cc *columnCache) narrow(dst cu.DevicePtr, src []byte, n int) error {
	tmp, err := cc.d.pool.get(int64(len(src)))
	if err != nil {
		return err
	}
	defer cc.d.pool.put(tmp)
	if err := cu.MemcpyHtoD(tmp, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src))); err != nil {
		return err
	}
	f, err := cc.d.fn("narrow_i64_i32")
	if err != nil {
		return err
	}
	p := struct {
		In, Out uint64
		N       int64
	}{uint64(tmp), uint64(dst), int64(n)}
	grid := min((n+255)/256, cc.d.sms*8)
	if err := launch(f, grid, 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return err
	}
	return cc.d.sync()
}

// minMax64 scans the non-NULL values of an int64 column in parallel.
func minMax64(c *columnar.Column) (int64, int64) {
	return parallelMinMax(c.Len, func(i int) (int64, bool) { return c.I64[i], !c.IsNull(i) })
}

func minMax32(c *columnar.Column) (int64, int64) {
	return parallelMinMax(c.Len, func(i int) (int64, bool) { return int64(c.I32[i]), !c.IsNull(i) })
}

func parallelMinMax(n int, at func(int) (int64, bool)) (int64, int64) {
	workers := max(1, min(runtime.NumCPU(), n/(1<<16)))
	mins := make([]int64, workers)
	maxs := make([]int64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			lo, hi := int64(1<<63-1), int64(-1<<63)
			for i := w * n / workers; i < (w+1)*n/workers; i++ {
				if v, ok := at(i); ok {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
			mins[w], maxs[w] = lo, hi
		}(w)
	}
	wg.Wait()
	lo, hi := int64(1<<63-1), int64(-1<<63)
	for w := range mins {
		lo, hi = min(lo, mins[w]), max(hi, maxs[w])
	}
	return lo, hi
}
