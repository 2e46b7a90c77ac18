package planner

import (
	"fmt"
	"sort"
	"strings"
)

// GPUProfile describes the GPU a plan is made for: what bounds the choices
// of the GPU planning pass (gpu_plan.go). The GPU executor fills one from
// the device (cuDeviceGetAttribute, cuMemGetInfo) when a GPU is present;
// --gpu-profile names a built-in one so that GPU plans can be made, shown
// and tested on a machine without a GPU.
type GPUProfile struct {
	// Name is the profile's name ("h100") or the device's name.
	Name string
	// GlobalMemory is the device memory in bytes.
	GlobalMemory int64
	// SharedPerBlock is the most dynamic shared memory one block may opt
	// into; SharedPerSM what one SM has in all.
	SharedPerBlock, SharedPerSM int64
	// SMs is the number of streaming multiprocessors.
	SMs int
	// WarpSize is the threads of a warp; Banks the shared-memory banks
	// (4 bytes wide), which a warp's accesses conflict on.
	WarpSize, Banks int
	// HBMGBs is the measured device-memory read bandwidth (GB/s),
	// NominalHBMGBs the datasheet's.
	HBMGBs, NominalHBMGBs float64
	// PinnedCopyGBs is host-to-device copy bandwidth from pinned memory;
	// ZeroCopyGBs what kernels reading pinned host memory in place over
	// unified virtual addressing get.
	PinnedCopyGBs, ZeroCopyGBs float64
	// MemoryBudget is the device memory a plan may use, columns and
	// working tables together (--gpu-memory, DSN gpu_memory=, SET
	// gpu_memory); 0 is Budget's default.
	MemoryBudget int64
	// ForcePlace, for tests, puts every column (zero-copy) or a star's
	// fact columns (streamed) in this place whatever the budget, and every
	// other column that cannot stay resident too where it applies.
	ForcePlace ColumnPlace
	// ForceSetOp, for tests, runs every DISTINCT and set operation by this
	// algorithm (gpu_set_op.go) whatever the cost says.
	ForceSetOp SetAlgorithm
	// ForceJoinPasses, for tests, runs every operator-at-a-time hash join
	// (not a bitmap) in at least this many passes (a power of two), and
	// ForceJoinReread makes their passes re-read both sides instead of
	// scattering them once (gpu_join_passes.go).
	ForceJoinPasses int
	ForceJoinReread bool
	// Devices are the GPUs (indices into the executor's device set) plans
	// may use: a star's fact table may be split over them and other
	// queries are placed on the least busy (--gpus, SET gpus); nil or one
	// entry is one device.
	Devices []int
	// ForceSplit, for tests, splits every star over Devices whatever the
	// cost says.
	ForceSplit bool
	// ForceGroupCompact, for tests, compacts every star group table of
	// more than one group on the device whatever the cost says
	// (gpu_group_compact.go).
	ForceGroupCompact bool
	// ForceDimBitmap, for tests, gives every direct star join table a
	// bitmap whatever its size and selectivity (planDimBuild).
	ForceDimBitmap bool
	// Packing bit-packs the star's resident fact columns (SET gpu_packing
	// = ON): the kernel decodes them; ForcePacking, for tests, packs them
	// even in 32 bits, where packing saves nothing. PackTransfer (SET
	// gpu_packing = TRANSFER) sends them packed and unpacks them on the
	// device into their 4-byte form (gpu_packing.go); with ForcePacking
	// even where that saves nothing.
	Packing, ForcePacking, PackTransfer bool
	// ForceNarrow, for tests, keeps the star's narrowable fact columns
	// narrow whatever the budget (gpu_narrow.go; otherwise only when their
	// 4-byte forms do not fit).
	ForceNarrow bool
	// ColdCopies has cold runs copy every column sent packed before the
	// kernel instead of reading selective ones in place
	// (gpu_cold_reads.go; GPUSQL_COLD_IN_PLACE=off, for comparison).
	ColdCopies bool
	// CopiesWhenRead has a cold run copy its fact columns when the fact
	// kernel's parameters read them, after the dimension builds, instead
	// of ahead of them (gpu_cold_reads.go; GPUSQL_COPY_AHEAD=off, for
	// comparison).
	CopiesWhenRead bool
	// ForceColdInPlace, for tests, reads every column sent packed in
	// place when cold, whatever the cost says.
	ForceColdInPlace bool
	// NoRunTransfer sends every column sent packed in its packed form,
	// never its run-length form (gpu_runs.go; GPUSQL_COLD_RUNS=off, for
	// comparison); ForceRunTransfer, for tests, sends every one whose
	// statistics count its runs as runs, whatever it saves.
	NoRunTransfer, ForceRunTransfer bool
}

// builtinGPUProfiles are the GPUs gpusql runs on. The H100 numbers are
// measured on the project's H100 SXM (kernels/bandwidth_probe.cu: device
// reads; pinned copies; zero-copy reads); the H200's bandwidths are scaled
// from its datasheet (4.8 TB/s nominal) by the H100's measured fraction.
var builtinGPUProfiles = map[string]GPUProfile{
	"h100": {
		Name: "h100", GlobalMemory: 80 << 30,
		SharedPerBlock: 227 << 10, SharedPerSM: 228 << 10, SMs: 132,
		WarpSize: 32, Banks: 32,
		HBMGBs: 2900, NominalHBMGBs: 3350, PinnedCopyGBs: 55, ZeroCopyGBs: 51,
	},
	"h200": {
		Name: "h200", GlobalMemory: 141 << 30,
		SharedPerBlock: 227 << 10, SharedPerSM: 228 << 10, SMs: 132,
		WarpSize: 32, Banks: 32,
		HBMGBs: 4000, NominalHBMGBs: 4800, PinnedCopyGBs: 55, ZeroCopyGBs: 51,
	},
}

// LookupGPUProfile returns the built-in profile called name (case
// insensitive), or an error listing the ones there are.
func LookupGPUProfile(name string) (*GPUProfile, error) {
	p, ok := builtinGPUProfiles[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown GPU profile %q (want one of %s)", name, strings.Join(GPUProfileNames(), ", "))
	}
	return &p, nil
}

// GPUProfileNames lists the built-in profiles.
func GPUProfileNames() []string {
	var names []string
	for n := range builtinGPUProfiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DefaultGPUProfile is what plans made without a device or a named profile
// (tests building plans by hand, scalar subqueries run by the executor)
// assume: the H100.
func DefaultGPUProfile() *GPUProfile {
	p := builtinGPUProfiles["h100"]
	return &p
}
