//go:build cuda

package engine

import "gpusql/exec/gpu"

// With the cuda tag the GPU executor is linked in and queries can run on it.
func init() {
	gpuRunner = gpu.Run
	gpuDeviceProfile = gpu.DeviceProfile
	gpuAvailable = gpu.Available
	gpuCount = gpu.DeviceCount
	gpuPinned = gpu.PinnedAllocator
	gpuDropCache = gpu.DropColumnCache
	errGPUUnsupported = gpu.ErrUnsupported
	gpuIntersect = func(r, s []int64, algos []string, bucketBits, runs int) ([]IntersectTiming, error) {
		ts, err := gpu.BenchIntersect(r, s, algos, bucketBits, runs)
		out := make([]IntersectTiming, len(ts))
		for i, t := range ts {
			out[i] = IntersectTiming(t)
		}
		return out, err
	}
}
