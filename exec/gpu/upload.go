//go:build cuda

package gpu

import (
	"unsafe"

	"gorgonia.org/cu"
)

// storeWords is the most 4-byte words store_words carries in its launch
// parameters (kernels/column_cache.cu, STORE_WORDS).
const storeWords = 1000

// storeArgs is store_words's parameter block.
type storeArgs struct {
	Dst uint64
	N   int32
	W   [storeWords]uint32
}

// upload copies b into scratch memory of the run. A small b goes in a
// kernel's parameters (store_words) on the default stream instead of a
// synchronous copy: the copy engine serves copies in the order they are
// queued, so during a cold run such a copy waited behind the copies ahead
// (Q4.2 at SF 10: a dimension's predicate set waited 5 ms for 254 MB of
// fact columns), and a launch costs the host less than a synchronous copy
// from pageable memory.
func (r *queryRun) upload(b []byte) (cu.DevicePtr, error) {
	words := (len(b) + 3) / 4
	p, err := r.s.alloc(int64(max(4*words, 8)))
	if err != nil || len(b) == 0 {
		return p, err
	}
	if words > storeWords {
		return p, cu.MemcpyHtoD(p, unsafe.Pointer(unsafe.SliceData(b)), int64(len(b)))
	}
	f, err := r.d.fn("store_words")
	if err != nil {
		return 0, err
	}
	a := storeArgs{Dst: uint64(p), N: int32(words)}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&a.W[0])), 4*words), b)
	return p, launchUncounted(cu.Stream{}, f, 1, threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
}
