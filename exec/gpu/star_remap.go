//go:build cuda

package gpu

import (
	"fmt"

	"gpusql/planner"
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
	sv, err := r.remapSlotValues(rm)
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

// groupRemapParams lays the group table out by the plan's remapped fact
// group column (planner/gpu_group_remap.go) when the groups that survived
// still let it: the column is the group index's outermost digit, its codes
// are the remap's (same minimum, NULL in the last slot), and the shared
// table of slots fits. Its group column then reads the slot column (digit
// = slot) and the slot → code map is uploaded for the flush. It reports
// whether it did; otherwise the layout rule decides as without a remap.
func (r *queryRun) groupRemapParams(q *starQuery, sp *starParams, fkeys []factKey, ngroups, W int64, prof *planner.GPUProfile) (bool, error) {
	j := len(q.nFact) - 1
	g := q.groups
	if g.Layout != planner.GroupSharedRemapped || ngroups <= 1 || j < 0 || q.nFact[j] != g.RemapCol {
		return false, nil
	}
	rm, fk, stride := g.Remap, fkeys[j], sp.GCols[j].Stride
	aligned := rm.Min == fk.lo && int64(rm.Codes) <= fk.size && (rm.NullCode < 0 || int64(rm.NullCode) == fk.size-1)
	shGroups := int64(len(rm.SlotValue)) * stride
	if !aligned || stride*fk.size != ngroups || !planner.GroupRemapFits(prof, shGroups, W) || 8*(shGroups*W|1) > int64(r.d.maxShared) {
		return false, nil
	}
	sc, err := r.column(rm.SlotColumn(), false)
	if err != nil {
		return false, fmt.Errorf("remap of %s: %w", rm.Column, err)
	}
	sv, err := r.remapSlotValues(rm)
	if err != nil {
		return false, err
	}
	sp.GCols[j].Col, sp.GCols[j].Min, sp.GCols[j].NullSlot = sc.view(), 0, 0
	sp.ShGroups, sp.GroupSlotValue, sp.GroupRemapStride = shGroups, uint64(sv), stride
	return true, nil
}
