package engine

import (
	"context"
	"errors"
	"fmt"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// The GPU executor builds only with the cuda build tag, so the engine reaches
// it through these hooks, which gpu_cuda.go sets when the tag is on. Without
// it the engine still builds and runs everything on the CPU.
var (
	gpuRunner func(ctx context.Context, p *planner.Physical) (*exec.Result, error)
	// gpuDeviceProfile describes the GPU in use.
	gpuDeviceProfile func() (*planner.GPUProfile, error)
	gpuAvailable     func() (bool, string)
	// gpuDropCache empties the device column cache.
	gpuDropCache func() error
	// gpuPinned hands out pinned, device-mapped host memory for columns.
	gpuPinned func() columnar.Allocator
	// gpuCount is the number of GPUs in the device set.
	gpuCount func() int
	// errGPUUnsupported is wrapped by the GPU executor's errors for plans
	// whose shape it cannot run yet.
	errGPUUnsupported error
)

// gpuDeviceCount is how many GPUs queries can use (0 without one).
func gpuDeviceCount() int {
	if gpuCount == nil || gpuStatus() != nil {
		return 0
	}
	return gpuCount()
}

// gpuUnsupported reports whether err is the GPU executor saying a plan's
// shape is beyond it (not a failure of a plan it runs). With executor auto
// and with Check such plans run on the CPU.
func gpuUnsupported(err error) bool {
	return err != nil && errGPUUnsupported != nil && errors.Is(err, errGPUUnsupported)
}

// usePinnedMemory makes columns loaded from now on live in pinned host
// memory, so the first query that touches them copies at full PCIe speed
// (55 GB/s on the H100 host, against 8 GB/s from pageable memory) and kernels
// can read columns in place that do not fit on the device.
func usePinnedMemory() {
	if gpuPinned != nil {
		columnar.SetDefaultAllocator(gpuPinned())
	}
}

// errNoCUDA is what asking for the GPU says in a build without CUDA.
var errNoCUDA = errors.New("this gpusql was built without CUDA support (build with -tags cuda)")

// gpuStatus says why the GPU cannot be used, or nil when it can.
func gpuStatus() error {
	if gpuRunner == nil {
		return errNoCUDA
	}
	if gpuAvailable != nil {
		if ok, why := gpuAvailable(); !ok {
			return fmt.Errorf("no usable GPU: %s (a --gpu-profile plans for a GPU without one, for EXPLAIN; queries need the GPU)", why)
		}
	}
	return nil
}

// GPUStatus reports whether the GPU executor can be used and, if not, why.
func GPUStatus() (bool, string) {
	if err := gpuStatus(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// DropGPUCache empties the GPU's column cache so that the next query runs
// cold, copying its columns from host memory again.
func DropGPUCache() error {
	if err := gpuStatus(); err != nil {
		return err
	}
	return gpuDropCache()
}

// chooseGPUProfile sets the profile plans are made for: the named one, else
// the device's when queries run on the GPU (or are checked against it).
func (db *DB) chooseGPUProfile() error {
	if name := db.opts.GPUProfile; name != "" {
		p, err := planner.LookupGPUProfile(name)
		if err != nil {
			return fmt.Errorf("--gpu-profile: %w", err)
		}
		db.gpuProfile = p
		return nil
	}
	if (db.executor == "gpu" || db.opts.Check) && gpuDeviceProfile != nil {
		p, err := gpuDeviceProfile()
		if err != nil {
			return err
		}
		db.gpuProfile = p
	}
	return nil
}
