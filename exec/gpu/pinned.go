//go:build cuda

package gpu

import (
	"sync"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// pinnedMin is the smallest allocation served from pinned memory. Builders
// start small and grow by half; pinning every small step would cost a
// driver call (and page locking) each, for vectors that are copied in
// microseconds anyway.
const pinnedMin = 1 << 20

// pinnedKeep bounds the freed pinned memory kept for reuse.
const pinnedKeep = 4 << 30

// pinnedPool hands out page-locked, device-mapped host memory: copies from
// it run at full PCIe/NVLink speed, and kernels can read it in place over
// unified virtual addressing (zero-copy) when a column does not fit in the
// device cache.
type pinnedPool struct {
	mu    sync.Mutex
	live  map[uintptr]pinnedBuf // by host address
	free  map[int64][]pinnedBuf
	kept  int64
	total int64
}

type pinnedBuf struct {
	host unsafe.Pointer
	dev  cu.DevicePtr
	size int64
}

func newPinnedPool() *pinnedPool {
	return &pinnedPool{live: map[uintptr]pinnedBuf{}, free: map[int64][]pinnedBuf{}}
}

// devicePtr returns the device address of host memory at p when p lies in
// a live pinned allocation: its start (a whole column) or inside it (a
// column's row range, as a device of a split plan reads it).
func (pp *pinnedPool) devicePtr(p uintptr) (cu.DevicePtr, bool) {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if b, ok := pp.live[p]; ok {
		return b.dev, true
	}
	for base, b := range pp.live {
		if p > base && p < base+uintptr(b.size) {
			return b.dev + cu.DevicePtr(p-base), true
		}
	}
	return 0, false
}

// pinnedAllocator is the columnar.Allocator over the device's pinned pool.
type pinnedAllocator struct{ d *device }

// PinnedAllocator returns an allocator of pinned, device-mapped host memory
// for column vectors (columnar.SetDefaultAllocator before loading), or the
// Go heap when no GPU is available.
func PinnedAllocator() columnar.Allocator {
	d, err := getDevice()
	if err != nil {
		return columnar.HeapAllocator
	}
	return pinnedAllocator{d}
}

func (a pinnedAllocator) Alloc(n int) []byte {
	if n < pinnedMin {
		return make([]byte, n)
	}
	pp := a.d.pinned
	c := sizeClass(int64(n))
	pp.mu.Lock()
	if l := pp.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		pp.free[c] = l[:len(l)-1]
		pp.kept -= c
		pp.live[uintptr(b.host)] = b
		pp.mu.Unlock()
		buf := unsafe.Slice((*byte)(b.host), n)
		clear(buf)
		return buf
	}
	pp.mu.Unlock()
	var b pinnedBuf
	err := a.d.do(func() error {
		h, dp, err := hostAlloc(int(c))
		b = pinnedBuf{h, dp, c}
		return err
	})
	if err != nil {
		// Out of pinned memory: the column still works from the heap,
		// copied through a staging buffer by the driver.
		return make([]byte, n)
	}
	pp.mu.Lock()
	pp.live[uintptr(b.host)] = b
	pp.total += c
	pp.mu.Unlock()
	buf := unsafe.Slice((*byte)(b.host), n)
	clear(buf)
	return buf
}

func (a pinnedAllocator) Free(buf []byte) {
	if len(buf) < pinnedMin {
		return
	}
	pp := a.d.pinned
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	pp.mu.Lock()
	b, ok := pp.live[p]
	if !ok {
		pp.mu.Unlock()
		return // a heap fallback
	}
	delete(pp.live, p)
	if pp.kept+b.size <= pinnedKeep {
		pp.free[b.size] = append(pp.free[b.size], b)
		pp.kept += b.size
		pp.mu.Unlock()
		return
	}
	pp.total -= b.size
	pp.mu.Unlock()
	a.d.do(func() error { return hostFree(b.host) })
}
