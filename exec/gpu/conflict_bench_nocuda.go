//go:build !cuda

package gpu

import "gpusql/planner"

// RunConflictKernel fails: this build has no GPU.
func RunConflictKernel(r ConflictRun) (*ConflictResult, error) { return nil, errNoCUDA }

// DeviceProfile fails: this build has no GPU to describe.
func DeviceProfile() (*planner.GPUProfile, error) { return nil, errNoCUDA }
