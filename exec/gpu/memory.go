//go:build cuda

package gpu

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"gorgonia.org/cu"
)

// devPool recycles device allocations by size class. cuMemAlloc and
// cuMemFree synchronize the device and cost tens of microseconds each; a
// warm query allocates the same few hash and group tables every time, so it
// gets them from the free lists instead. Only code inside the device's do uses it.
type devPool struct {
	free   map[int64][]cu.DevicePtr
	held   int64 // bytes on the free lists
	inUse  int64
	ptrCls map[cu.DevicePtr]int64
}

func newDevPool() *devPool {
	return &devPool{free: map[int64][]cu.DevicePtr{}, ptrCls: map[cu.DevicePtr]int64{}}
}

// sizeClass rounds n up to 256 B, then to a quarter power of two (at most
// 19% slack for large tables, few distinct classes).
func sizeClass(n int64) int64 {
	if n <= 256 {
		return 256
	}
	e := 63 - bits.LeadingZeros64(uint64(n-1)) // 2^e < n <= 2^(e+1)
	step := int64(1) << max(e-2, 0)
	return (n + step - 1) / step * step
}

// get returns an allocation of at least n bytes (contents undefined).
func (p *devPool) get(n int64) (cu.DevicePtr, error) {
	c := sizeClass(n)
	if l := p.free[c]; len(l) > 0 {
		ptr := l[len(l)-1]
		p.free[c] = l[:len(l)-1]
		p.held -= c
		p.inUse += c
		return ptr, nil
	}
	if lim := poolLimit.Load(); lim > 0 && p.inUse+c > lim {
		return 0, errDeviceMemory(c, fmt.Errorf("the test limit of %d bytes", lim))
	}
	ptr, err := cu.MemAlloc(c)
	if err != nil {
		p.trim()
		if ptr, err = cu.MemAlloc(c); err != nil {
			return 0, errDeviceMemory(c, err)
		}
	}
	p.ptrCls[ptr] = c
	p.inUse += c
	return ptr, nil
}

// errDeviceMemory is a query's working memory not fitting on the device:
// an intermediate result the plan cannot bound (a join's pairs, a window's
// scans over a large input). It wraps ErrUnsupported, so the engine's
// auto executor answers the query on the CPU, which spills past its own
// memory limit, instead of failing it; with --executor gpu it is the
// query's error.
func errDeviceMemory(n int64, err error) error {
	return fmt.Errorf("gpu: allocating %d bytes of device memory: %v (%w: the query's working memory does not fit the device)", n, err, ErrUnsupported)
}

// poolLimit, when positive, caps the bytes a device's pool hands out
// (tests of running out of device memory).
var poolLimit atomic.Int64

// put returns an allocation from get.
func (p *devPool) put(ptr cu.DevicePtr) {
	if ptr == 0 {
		return
	}
	c := p.ptrCls[ptr]
	p.free[c] = append(p.free[c], ptr)
	p.held += c
	p.inUse -= c
}

// trim frees every pooled allocation (before retrying a failed cuMemAlloc).
func (p *devPool) trim() {
	for c, l := range p.free {
		for _, ptr := range l {
			cu.MemFree(ptr)
			delete(p.ptrCls, ptr)
		}
		delete(p.free, c)
	}
	p.held = 0
}

// scratch is the set of pool allocations of one query, returned together.
type scratch struct {
	d    *device
	ptrs []cu.DevicePtr
}

func (s *scratch) alloc(n int64) (cu.DevicePtr, error) {
	ptr, err := s.d.pool.get(n)
	if err != nil {
		return 0, err
	}
	s.ptrs = append(s.ptrs, ptr)
	return ptr, nil
}

func (s *scratch) release() {
	for _, p := range s.ptrs {
		s.d.pool.put(p)
	}
	s.ptrs = nil
}
