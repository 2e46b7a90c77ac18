//go:build cuda

package engine

import "gpusql/exec/gpu"

// With the cuda tag the GPU executor is linked in and queries can run on it.
func init() {
	gpuRunner = gpu.Run
	gpuDeviceProfile = gpu.DeviceProfile
	gpuAvailable = gpu.Available
	gpuPinned = gpu.PinnedAllocator
	gpuDropCache = gpu.DropColumnCache
	errGPUUnsupported = gpu.ErrUnsupported
}
