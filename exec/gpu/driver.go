//go:build cuda

package gpu

// The few driver calls gorgonia.org/cu lacks, and one it gets wrong for us.
//
// cu's package init calls cuInit and exits the process when it fails, so a
// cuda build would die on a machine with the driver library but no GPU
// instead of reporting "no device" and running on the CPU. This file defines
// cuInit itself: the linker resolves cu's reference to this definition
// (objects of the executable come before libcuda.so), which calls the real
// cuInit through dlsym(RTLD_NEXT), remembers its result for Available and
// reports success to cu. Every later driver call then fails cleanly with
// CUDA_ERROR_NOT_INITIALIZED, which openDevice never reaches.

/*
#cgo LDFLAGS: -lcuda -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <cuda.h>

static CUresult gpusql_init_status = CUDA_SUCCESS;

CUresult CUDAAPI cuInit(unsigned int flags) {
	typedef CUresult (*init_fn)(unsigned int);
	init_fn real = (init_fn)dlsym(RTLD_NEXT, "cuInit");
	if (real == NULL) {
		gpusql_init_status = CUDA_ERROR_NOT_INITIALIZED;
		return CUDA_SUCCESS;
	}
	gpusql_init_status = real(flags);
	return CUDA_SUCCESS;
}

static CUresult gpusql_init_result(void) { return gpusql_init_status; }

static long gpusql_tid(void) { return (long)syscall(SYS_gettid); }

static const char* gpusql_error_name(CUresult r) {
	const char* s = NULL;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "CUDA_ERROR_UNKNOWN";
	return s;
}

static CUresult gpusql_launch(CUfunction f, unsigned gx, unsigned bx, unsigned shmem, CUstream st, void* params, size_t size) {
	void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
	return cuLaunchKernel(f, gx, 1, 1, bx, 1, 1, shmem, st, NULL, extra);
}

static CUresult gpusql_set_max_shared(CUfunction f, int bytes) {
	return cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

static CUresult gpusql_host_alloc(void** p, size_t n) {
	return cuMemHostAlloc(p, n, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
}

static CUresult gpusql_host_device_ptr(CUdeviceptr* d, void* p) {
	return cuMemHostGetDevicePointer(d, p, 0);
}

static CUresult gpusql_host_free(void* p) { return cuMemFreeHost(p); }

static CUresult gpusql_host_register(void* p, size_t n) {
	return cuMemHostRegister(p, n, CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_PORTABLE);
}

static CUresult gpusql_host_unregister(void* p) { return cuMemHostUnregister(p); }

static void* gpusql_reserve(size_t n, size_t align) {
	void* p = NULL;
	if (posix_memalign(&p, align, n) != 0) return NULL;
	if (align >= (2 << 20)) madvise(p, n, MADV_HUGEPAGE);
	return p;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// driverError names a failed driver call.
func driverError(call string, r C.CUresult) error {
	return fmt.Errorf("gpu: %s: %s", call, C.GoString(C.gpusql_error_name(r)))
}

// initResult is the real cuInit's result.
func initResult() error {
	if r := C.gpusql_init_result(); r != C.CUDA_SUCCESS {
		return driverError("cuInit", r)
	}
	return nil
}

func threadID() int64 { return int64(C.gpusql_tid()) }

func cfunc(f cu.Function) C.CUfunction { return *(*C.CUfunction)(unsafe.Pointer(&f)) }

// cstream is st's driver handle (cu.Stream wraps exactly one CUstream).
func cstream(st cu.Stream) C.CUstream { return *(*C.CUstream)(unsafe.Pointer(&st)) }

// launch starts f on a 1-D grid with params (a struct of the kernel's
// parameter layout, without Go pointers) as its parameter buffer.
func launch(f cu.Function, grid, block, shmem int, params unsafe.Pointer, size uintptr) error {
	return launchOn(cu.Stream{}, f, grid, block, shmem, params, size)
}

// launchOn is launch on stream st (the zero Stream is the default stream).
func launchOn(st cu.Stream, f cu.Function, grid, block, shmem int, params unsafe.Pointer, size uintptr) error {
	if grid == 0 {
		return nil
	}
	if kp := kprof(); kp != nil {
		return kp.around(kp.d.fnNames[f], st, func() error { return launchNow(st, f, grid, block, shmem, params, size) })
	}
	return launchNow(st, f, grid, block, shmem, params, size)
}

func launchNow(st cu.Stream, f cu.Function, grid, block, shmem int, params unsafe.Pointer, size uintptr) error {
	launches.Add(1)
	return launchUncounted(st, f, grid, block, shmem, params, size)
}

// launchUncounted is launchNow for work whose end an event tells, which
// the launch count (syncedSince) leaves out.
func launchUncounted(st cu.Stream, f cu.Function, grid, block, shmem int, params unsafe.Pointer, size uintptr) error {
	// The parameters are copied to C memory first: params may point into a
	// Go object that also holds Go pointers, which cgo may not be handed.
	buf := C.malloc(C.size_t(size))
	defer C.free(buf)
	copy(unsafe.Slice((*byte)(buf), size), unsafe.Slice((*byte)(params), size))
	if r := C.gpusql_launch(cfunc(f), C.uint(grid), C.uint(block), C.uint(shmem), cstream(st), buf, C.size_t(size)); r != C.CUDA_SUCCESS {
		return driverError("cuLaunchKernel", r)
	}
	return nil
}

func setMaxDynamicShared(f cu.Function, bytes int) error {
	if r := C.gpusql_set_max_shared(cfunc(f), C.int(bytes)); r != C.CUDA_SUCCESS {
		return driverError("cuFuncSetAttribute", r)
	}
	return nil
}

// hostAlloc returns n bytes of pinned, device-mapped host memory and the
// address kernels reach it at.
func hostAlloc(n int) (unsafe.Pointer, cu.DevicePtr, error) {
	var p unsafe.Pointer
	if r := C.gpusql_host_alloc(&p, C.size_t(n)); r != C.CUDA_SUCCESS {
		return nil, 0, driverError(fmt.Sprintf("cuMemHostAlloc(%d)", n), r)
	}
	var d C.CUdeviceptr
	if r := C.gpusql_host_device_ptr(&d, p); r != C.CUDA_SUCCESS {
		C.gpusql_host_free(p)
		return nil, 0, driverError("cuMemHostGetDevicePointer", r)
	}
	return p, cu.DevicePtr(d), nil
}

// hostDevicePtr is the address kernels reach pinned, device-mapped host
// memory p (from hostAlloc) at.
func hostDevicePtr(p unsafe.Pointer) (cu.DevicePtr, error) {
	var d C.CUdeviceptr
	if r := C.gpusql_host_device_ptr(&d, p); r != C.CUDA_SUCCESS {
		return 0, driverError("cuMemHostGetDevicePointer", r)
	}
	return cu.DevicePtr(d), nil
}

// Host memory that is filled first and pinned after (packed copies):
// reserved unpinned, 2 MiB aligned with huge pages advised when large,
// written by the caller's threads (which fault its pages in parallel),
// then registered, page-locked and device-mapped. On the H100's host,
// registering 128 MiB of written memory took 5.4 ms where cuMemHostAlloc
// took 57 ms for the same bytes (BenchmarkPinning): cuMemHostAlloc zeroes
// and locks page by page on one thread.

// hostRounded is the bytes hostReserve takes for n.
func hostRounded(n int) (size, align int) {
	align = 4096
	if n >= 2<<20 {
		align = 2 << 20
	}
	return (max(n, 1) + align - 1) / align * align, align
}

// hostReserve returns n bytes of unpinned host memory outside the Go heap.
func hostReserve(n int) (unsafe.Pointer, error) {
	size, align := hostRounded(n)
	p := C.gpusql_reserve(C.size_t(size), C.size_t(align))
	if p == nil {
		return nil, fmt.Errorf("gpu: reserving %d bytes of host memory: out of memory", size)
	}
	return p, nil
}

// hostRegister pins memory from hostReserve(n) and maps it for the device.
func hostRegister(p unsafe.Pointer, n int) error {
	size, _ := hostRounded(n)
	if r := C.gpusql_host_register(p, C.size_t(size)); r != C.CUDA_SUCCESS {
		return driverError(fmt.Sprintf("cuMemHostRegister(%d)", size), r)
	}
	return nil
}

// hostRelease frees memory from hostReserve, unpinning it first when
// registered.
func hostRelease(p unsafe.Pointer, registered bool) {
	if registered {
		C.gpusql_host_unregister(p)
	}
	C.free(p)
}

func hostFree(p unsafe.Pointer) error {
	if r := C.gpusql_host_free(p); r != C.CUDA_SUCCESS {
		return driverError("cuMemFreeHost", r)
	}
	return nil
}
