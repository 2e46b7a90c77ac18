package planner

import "math"

// Device-side compaction of the star's dense group table
// (kernels/group_compact.cu, exec/gpu/star_compact.go): the dense table
// has a slot for every combination of the surviving group values, most
// of them empty when the keys are wide and few fact rows reach the
// aggregate. Copying it back whole moves every slot across the host link
// and makes the host scan them all for the non-empty ones; compacting it
// on the device (flag the non-empty slots, scan the per-tile counts,
// scatter (slot, words) rows) moves only the groups that exist, at the
// price of three more launches, a count read back first and two reads of
// the table at device-memory speed.

// Costs of the two ways back, in microseconds.
const (
	// groupCompactFixedUs is what compacting costs whatever the table's
	// size: three launches and the scan kernel's single block, and the
	// total read back before the rows when the plan's estimate of them
	// falls short.
	groupCompactFixedUs = 20.0
	// hostScanGBs is the rate at which the host reads a dense table back
	// for its non-empty slots (one 8-byte word per slot, strided, from
	// memory the copy just wrote: about a core's streaming read rate).
	hostScanGBs = 10.0
)

// planGroupCompaction records the plan's choice for the estimated table;
// the executor chooses again by the same rule (GroupCompactionFor) on the
// groups that survive the dimension filters, as it does the layout.
// rowsIn is the estimate of the rows reaching the aggregate, which bounds
// the non-empty groups.
func planGroupCompaction(g *GPUGroupTable, prof *GPUProfile, rowsIn float64) {
	g.EstRowsIn = max(rowsIn, 1)
	g.EstNonEmpty = EstNonEmptyGroups(g.EstGroups, g.EstRowsIn)
	g.Compact = GroupCompactionFor(prof, g.EstGroups, g.Width, g.EstRowsIn)
}

// GroupCompactionFor reports whether a dense group table of groups slots
// of width words, which rowsIn rows aggregate into, is compacted on the
// device: when copying it whole and reading it on the host costs more
// than the compaction's fixed cost, its two reads of the table on the
// device, and the copy and host read of the expected non-empty groups
// (rows of width+1 words: the slot index, then the slot). A table of one group (no GROUP BY, or one
// surviving combination) is never compacted: its one row is the answer
// even when empty. prof.ForceGroupCompact compacts every other table.
func GroupCompactionFor(prof *GPUProfile, groups, width int64, rowsIn float64) bool {
	if groups <= 1 {
		return false
	}
	if prof.ForceGroupCompact {
		return true
	}
	dense := float64(groups * width * 8)
	d2h := max(prof.PinnedCopyGBs, 1) * 1e3 // bytes per µs
	hbm := max(prof.HBMGBs, 1) * 1e3
	host := hostScanGBs * 1e3
	rows := float64(EstNonEmptyGroups(groups, rowsIn) * (width + 1) * 8)
	return groupCompactFixedUs+2*dense/hbm+rows/d2h+rows/host < dense/d2h+dense/host
}

// EstNonEmptyGroups is the expected number of distinct slots that rows
// rows drawn uniformly from groups slots fill (Cardenas): a dense table
// of many slots and few rows is mostly empty.
func EstNonEmptyGroups(groups int64, rows float64) int64 {
	if groups <= 1 {
		return max(groups, 1)
	}
	g := float64(groups)
	rows = max(rows, 1)
	// 1 - (1-1/g)^rows, computed stably for large g.
	filled := -math.Expm1(rows * math.Log1p(-1/g))
	return max(1, int64(math.Ceil(math.Min(g*filled, g))))
}

// deviceBytes is the device memory the group table takes: the dense
// table and, when compacted, the compact rows' buffer (a row of Width+1
// words for each slot that could be non-empty: at most one per fact row).
func (g GPUGroupTable) deviceBytes(factRows int64) int64 {
	slots := min(g.EstGroups, GPUMaxGroupTable/8)
	b := slots * g.Width * 8
	if g.Compact {
		b += min(slots, max(factRows, 1)) * (g.Width + 1) * 8
	}
	return b
}
