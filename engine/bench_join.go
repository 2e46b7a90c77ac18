package engine

import (
	"time"

	"gpusql/planner"
)

// IntersectTiming is one algorithm's GPU intersection of two key sets
// (gpusql bench join): Kernel with both key vectors on the device, Total
// with copying them there first; Matches is the intersection's size.
type IntersectTiming struct {
	Algorithm     string
	Kernel, Total time.Duration
	Matches       int64
}

// GPUIntersectAlgorithms are the algorithms BenchIntersectGPU runs: the
// hash join, one global bitmap, the bucketed bitmap, the sort-merge join
// (merge path; on presorted keys; with the binary-search join stage).
var GPUIntersectAlgorithms = []string{"hash", "bitmap", "bucketed", "merge", "merge-sorted", "merge-search"}

// gpuIntersect is set by gpu_cuda.go.
var gpuIntersect func(r, s []int64, algos []string, bucketBits, runs int) ([]IntersectTiming, error)

// BenchIntersectGPU intersects r and s on the GPU with each algorithm
// (the fastest of runs each); bucketBits sizes the bucketed bitmap's
// buckets.
func BenchIntersectGPU(r, s []int64, algos []string, bucketBits, runs int) ([]IntersectTiming, error) {
	if err := gpuStatus(); err != nil {
		return nil, err
	}
	return gpuIntersect(r, s, algos, bucketBits, runs)
}

// GPUBandwidthProfile is the GPU in use (or, without one, the named
// built-in profile): what bench join states its GB/s against.
func GPUBandwidthProfile(fallback string) (*planner.GPUProfile, error) {
	if gpuStatus() == nil && gpuDeviceProfile != nil {
		if p, err := gpuDeviceProfile(); err == nil {
			return p, nil
		}
	}
	return planner.LookupGPUProfile(fallback)
}
