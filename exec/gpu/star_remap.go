//go:build cuda

package gpu

import (
	"fmt"

	"gpusql/storage/columnar"
)

// A star dimension whose payload the plan reads in the fact key's
// remapped layout (planner/gpu_payload.go, kernels/star_pipeline.cu's
// load_remapped_dims): the kernel reads the fact rows' slots instead of
// their keys (4 B a row either way, cached like any column) and the
// payloads from a per-block shared-memory table of the remap's slots.

// remapParams points dp at remap r: its slot column replaces the key, its
// slot → code map is uploaded, and its table takes the next ints of the
// dimensions' shared memory (sp.DimSh counts them until launchStar places
// them past the group table).
func (r *queryRun) remapParams(dp *dimParam, rm *columnar.ColumnRemap, sp *starParams) error {
	sc, err := r.column(rm.SlotColumn(), false)
	if err != nil {
		return fmt.Errorf("remap of %s: %w", rm.Column, err)
	}
	sv, err := r.upload(bytesOf(rm.SlotValue))
	if err != nil {
		return err
	}
	dp.Key = sc.view()
	dp.SlotValue, dp.RemapMin = uint64(sv), rm.Min
	dp.NSlots, dp.NullCode = int32(len(rm.SlotValue)), rm.NullCode
	dp.ShOffset = sp.DimSh
	sp.DimSh += int32(len(rm.SlotValue))
	return nil
}

// placeRemappedDims moves the remapped payload tables (dimInts ints, as
// remapParams counted them) past the first base bytes of shared memory,
// and returns the shared memory the launch needs.
func placeRemappedDims(sp *starParams, base int) int {
	dimInts := int(sp.DimSh)
	sp.DimSh = int32((base + 3) / 4)
	return 4*int(sp.DimSh) + 4*dimInts
}
