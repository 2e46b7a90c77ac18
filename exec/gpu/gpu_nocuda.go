//go:build !cuda

package gpu

import (
	"context"
	"errors"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

var errNoCUDA = errors.New("built without CUDA support (build with -tags cuda)")

// Available reports that this build cannot use a GPU.
func Available() (bool, string) { return false, errNoCUDA.Error() }

// DeviceName is empty without CUDA.
func DeviceName() string { return "" }

// DeviceCount is 0 without CUDA.
func DeviceCount() int { return 0 }

// Run fails: this build has no GPU executor.
func Run(ctx context.Context, p *planner.Physical) (*exec.Result, error) { return nil, errNoCUDA }

// Supports says this build has no GPU executor.
func Supports(p *planner.Physical) error { return errNoCUDA }

// PinnedAllocator is the Go heap without CUDA.
func PinnedAllocator() columnar.Allocator { return columnar.HeapAllocator }

// DropColumnCache reports that this build has no GPU.
func DropColumnCache() error { return errNoCUDA }

// BenchUVA needs a GPU.
func BenchUVA(ctx context.Context, opt UVABenchOptions, progress func(UVAResult)) (*UVAReport, error) {
	return nil, errNoCUDA
}

// RunProfiled fails: this build has no GPU executor.
func RunProfiled(ctx context.Context, p *planner.Physical) (*exec.Result, *QueryProfile, error) {
	return nil, nil, errNoCUDA
}

// MeasureLink needs a GPU.
func MeasureLink(bytes int64, runs int) (float64, error) { return 0, errNoCUDA }

// MeasureDeviceCopy needs a GPU.
func MeasureDeviceCopy(bytes int64, runs int) (float64, error) { return 0, errNoCUDA }
