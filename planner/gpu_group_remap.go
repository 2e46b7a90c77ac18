package planner

import (
	"fmt"

	"gpusql/storage/columnar"
)

// GroupSharedRemapped: one table per block in shared memory laid out by a
// fact group column's remap (Sitaridi & Ross): the column's digit of the
// group index is the row's slot instead of its value, so the rows of a
// warp that group by one hot value update different copies of its slot,
// in distinct banks; the block's flush adds each copy into the value's
// slot of the global table.
const GroupSharedRemapped GPUGroupLayout = "remapped shared memory"

// remapGain is the share of the rounds without the remap that the remap
// must stay under to be used: its table has more slots to clear and
// flush, and each flush translates slots back to values.
const remapGain = 0.8

// planGroupRemap lays the group table out by the remap of the star's last
// fact group column (its digit is the group index's outermost, so a slot
// maps back to a value by one multiply) when the column has a current
// remap, the remapped table fits a block's shared memory, and the remap's
// measured rounds per warp are a fifth or more below the estimate for the
// layout chosen without it. Otherwise the table keeps that layout and Why says why not
// ("" when no fact group column is a remap candidate).
func planGroupRemap(q *GPUStar, lookup RemapLookup, prof *GPUProfile) {
	g := &q.Groups
	if lookup == nil || len(q.FactGroupCols) == 0 || g.Layout == GroupRegisters {
		return
	}
	t := q.Fact.Table
	c := q.FactGroupCols[len(q.FactGroupCols)-1]
	r := lookup(t, c)
	if r == nil {
		if _, _, ok := columnar.RemapCandidate(t, c, columnar.RemapMinRows); ok {
			g.RemapWhy = fmt.Sprintf("%s.%s has no remap yet: ANALYZE TABLE %s builds one", t.Name, t.Fields[c].Name, t.Name)
		}
		return
	}
	inner := max(g.EstGroups/groupDomain(t, c), 1)
	groups := int64(len(r.SlotValue)) * inner
	bytes := groups * g.Width * 8
	// Replicas split a warp's collisions about R ways; one copy takes
	// them all (the remap measured how many on this column's data).
	without := r.MeanPlainRounds() / float64(max(g.Replicas, 1))
	switch {
	case !GroupRemapFits(prof, groups, g.Width):
		g.RemapWhy = fmt.Sprintf("%s.%s has a remap, but its table (%s) passes %s of shared memory", t.Name, r.Column, fmtBytes(bytes), fmtBytes(groupRemapBudget(prof)))
	case r.MeanRounds() > remapGain*max(without, 1):
		g.RemapWhy = fmt.Sprintf("%s.%s has a remap, but it measured %.2f rounds per warp against about %.2f for the %s layout", t.Name, r.Column, r.MeanRounds(), max(without, 1), g.Layout)
	default:
		g.Layout, g.Replicas, g.Remap, g.RemapCol = GroupSharedRemapped, 1, r, c
		g.EstRounds, g.PlainRounds = r.MeanRounds(), max(without, 1)
	}
}

// explainGroupRemap is EXPLAIN's text for the choice, "" when there was
// none to make.
func explainGroupRemap(g GPUGroupTable, fact string) string {
	switch {
	case g.Layout == GroupSharedRemapped:
		return fmt.Sprintf("by %s.%s (%d slots, %.2f copies per value), est %.2f bank rounds per warp vs %.2f without the remap; the kernel reads its slot column",
			fact, g.Remap.Column, len(g.Remap.SlotValue), g.Remap.CopiesPerValue(), g.EstRounds, g.PlainRounds)
	case g.RemapWhy != "":
		return "not remapped: " + g.RemapWhy
	}
	return ""
}

// groupRemapBytes is the device memory a remapped group table adds to the
// plan: the fact rows' slot column and the slot map.
func groupRemapBytes(g GPUGroupTable) int64 {
	if g.Layout != GroupSharedRemapped {
		return 0
	}
	return 4 * int64(len(g.Remap.Slots)+len(g.Remap.SlotValue))
}

// keepGroupRemapOnDevice reverts a remapped group table to the layout
// rule's choice when the fact table does not stay on the device (its slot
// column would not either); it reports whether it did.
func keepGroupRemapOnDevice(g *GPUPlan, prof *GPUProfile) bool {
	groups := &g.Star.Groups
	if groups.Layout != GroupSharedRemapped || !factOffDevice(g) {
		return false
	}
	groups.Layout, groups.Replicas = GroupLayoutFor(prof, groups.EstGroups, groups.Width)
	groups.EstRounds = estRounds(prof, groups.EstGroups, groups.Width, groups.Layout, groups.Replicas)
	groups.Remap, groups.PlainRounds = nil, 0
	groups.RemapWhy = "a remap exists, but the fact table does not stay on the device, nor would its slot column"
	return true
}

// GroupRemapFits reports whether a remapped group table of groups groups
// (slots × the inner digits) of width words fits a block's shared memory
// as one plain shared copy would (GroupLayoutFor).
func GroupRemapFits(prof *GPUProfile, groups, width int64) bool {
	return groups*width*8 <= groupRemapBudget(prof)
}

func groupRemapBudget(prof *GPUProfile) int64 { return min(prof.SharedPerBlock, sharedGroupMax) }
