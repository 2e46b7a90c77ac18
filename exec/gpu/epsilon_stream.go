//go:build cuda

package gpu

// Kernel launches on a CUDA stream, which driver.go's launch (the NULL
// stream) does not offer: the ε-join's batches run on several streams so
// that one batch's result copy overlaps the next one's kernel.

/*
#include <stdlib.h>
#include <cuda.h>

static CUresult gpusql_launch_on(CUfunction f, unsigned gx, unsigned bx, unsigned shmem, CUstream s, void* params, size_t size) {
	void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
	return cuLaunchKernel(f, gx, 1, 1, bx, 1, 1, shmem, s, NULL, extra);
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// cstream is the driver handle inside a cu.Stream (a struct of one CUstream).
func cstream(s cu.Stream) C.CUstream { return *(*C.CUstream)(unsafe.Pointer(&s)) }

// launchOn starts f on stream s; params as for launch.
func launchOn(s cu.Stream, f cu.Function, grid, block int, params unsafe.Pointer, size uintptr) error {
	if grid == 0 {
		return nil
	}
	buf := C.malloc(C.size_t(size))
	defer C.free(buf)
	copy(unsafe.Slice((*byte)(buf), size), unsafe.Slice((*byte)(params), size))
	cf := *(*C.CUfunction)(unsafe.Pointer(&f))
	if r := C.gpusql_launch_on(cf, C.uint(grid), C.uint(block), 0, cstream(s), buf, C.size_t(size)); r != C.CUDA_SUCCESS {
		return fmt.Errorf("gpu: cuLaunchKernel on a stream: CUresult %d", int(r))
	}
	return nil
}
