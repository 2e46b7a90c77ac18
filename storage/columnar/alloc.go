package columnar

import (
	"unsafe"

	"gpusql/internal/decimal"
)

// Allocator hands out the memory that column vectors live in. The default uses
// the Go heap; a GPU build substitutes pinned, device-mapped host memory so that
// kernels can read columns in place (zero-copy over UVA) or copy them at full
// PCIe speed.
type Allocator interface {
	Alloc(nbytes int) []byte
	Free(buf []byte)
}

type heapAllocator struct{}

func (heapAllocator) Alloc(nbytes int) []byte { return make([]byte, nbytes) }
func (heapAllocator) Free([]byte)             {}

// HeapAllocator allocates from the Go heap.
var HeapAllocator Allocator = heapAllocator{}

// defaultAllocator is what new columns use; SetDefaultAllocator changes it.
var defaultAllocator = HeapAllocator

// SetDefaultAllocator makes a (e.g. pinned-memory) allocator the one new
// columns are built in. Call it before loading data.
func SetDefaultAllocator(a Allocator) { defaultAllocator = a }

// DefaultAllocator returns the allocator new columns use.
func DefaultAllocator() Allocator { return defaultAllocator }

func allocSlice[T int32 | int64 | float64 | uint64 | float32 | decimal.Num](a Allocator, n int) []T {
	if n == 0 {
		return nil
	}
	var zero T
	buf := a.Alloc(n * int(unsafe.Sizeof(zero)))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf))), n)
}

func asBytes[T int32 | int64 | float64 | uint64 | float32 | decimal.Num](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
