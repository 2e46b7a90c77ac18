package planner

import (
	"fmt"

	"gpusql/storage/columnar"
)

// RemapLookup finds the replica-remapped twin of column col of table t
// (catalog.Remap), nil when it has none.
type RemapLookup func(t *columnar.Table, col int) *columnar.ColumnRemap

// GPUPayloadLayout is where the star kernel reads a dimension's join
// payload (the row's rank, -1 when the row is filtered out) from.
type GPUPayloadLayout string

const (
	// PayloadGlobal: the join table in device memory (L2-resident for
	// small dimensions), indexed by the fact key.
	PayloadGlobal GPUPayloadLayout = "global memory"
	// PayloadSharedRemapped: the payloads copied into each block's
	// shared memory in the layout of the fact key's remap (Sitaridi &
	// Ross), slot s holding the payload of the key the remap's slot s
	// copies, indexed by the fact row's slot instead of its key: the
	// rows of a warp hit distinct banks.
	PayloadSharedRemapped GPUPayloadLayout = "shared memory, remapped"
)

// dimSharedBudget is the shared memory per block the remapped dimension
// payloads may take together (4 B a slot), beside the group table's.
const dimSharedBudget = 32 << 10

// GPUDimPayload is the plan's choice for one dimension's payload.
type GPUDimPayload struct {
	Layout GPUPayloadLayout
	// Remap is the fact key's remap (PayloadSharedRemapped).
	Remap *columnar.ColumnRemap
	// EstRounds and PlainRounds: bank rounds per warp of the remapped
	// layout and of one plain copy in shared memory, as the remap
	// measured them on the column.
	EstRounds, PlainRounds float64
	// Why says why the payload stays in global memory ("" when the fact
	// key is no remap candidate: there was nothing to choose).
	Why string
}

// planDimPayloads picks each star dimension's payload layout: remapped in
// shared memory when the fact key has a current remap, the join table is
// a direct array (the remap's codes are keys; a hash table's slots are
// not), and the remapped tables fit dimSharedBudget together, most
// selective dimension first (it is probed for every row).
func planDimPayloads(q *GPUStar, lookup RemapLookup) {
	used := int64(0)
	for _, d := range q.Dims {
		d.Payload = GPUDimPayload{Layout: PayloadGlobal}
		if lookup == nil {
			continue
		}
		r := lookup(q.Fact.Table, d.Probe.Col)
		if r == nil {
			if _, _, ok := columnar.RemapCandidate(q.Fact.Table, d.Probe.Col, columnar.RemapMinRows); ok {
				d.Payload.Why = fmt.Sprintf("%s.%s has no remap yet: ANALYZE TABLE %s builds one", q.Fact.Table.Name,
					q.Fact.Table.Fields[d.Probe.Col].Name, q.Fact.Table.Name)
			}
			continue
		}
		bytes := int64(4 * len(r.SlotValue))
		switch {
		case !d.Build.Direct:
			d.Payload.Why = "a remap exists, but the join table is a hash table"
		case used+bytes > dimSharedBudget:
			d.Payload.Why = fmt.Sprintf("a remap exists, but its table (%s) passes the %s left of the payloads' shared memory", fmtBytes(bytes), fmtBytes(dimSharedBudget-used))
		default:
			used += bytes
			d.Payload = GPUDimPayload{Layout: PayloadSharedRemapped, Remap: r, EstRounds: r.MeanRounds(), PlainRounds: r.MeanPlainRounds()}
			// The kernel reads the remapped payloads instead of the table.
			d.Build.Bitmap, d.Build.BitsOnly = false, false
		}
	}
}

// explainPayload is EXPLAIN's text for a dimension's payload choice, ""
// when there was none to make.
func explainPayload(p GPUDimPayload, fact string) string {
	switch {
	case p.Layout == PayloadSharedRemapped:
		return fmt.Sprintf("payload: %s by %s.%s (%d slots, %.2f copies per key, est %.2f bank rounds per warp vs %.2f plain; the kernel reads its slot column, %s resident)",
			p.Layout, fact, p.Remap.Column, len(p.Remap.SlotValue), p.Remap.CopiesPerValue(), p.EstRounds, p.PlainRounds, fmtBytes(int64(4*len(p.Remap.Slots))))
	case p.Why != "":
		return fmt.Sprintf("payload: %s (%s)", p.Layout, p.Why)
	}
	return ""
}

// remapBytes is the device memory a remapped payload adds to the plan:
// the fact rows' slot column (resident, 4 B a row) and the slot map.
func remapBytes(p GPUDimPayload) int64 {
	if p.Layout != PayloadSharedRemapped {
		return 0
	}
	return 4 * int64(len(p.Remap.Slots)+len(p.Remap.SlotValue))
}

// keepRemapsOnDevice reverts remapped payloads to global memory when the
// fact table does not stay on the device (a column streamed or read
// zero-copy, or no fit at all): the slot column, read like a resident
// fact column, would not fit either. It reports whether it reverted any,
// so that the columns are placed again without them.
func keepRemapsOnDevice(g *GPUPlan) bool {
	offDevice := factOffDevice(g)
	reverted := false
	for _, d := range g.Star.Dims {
		if offDevice && d.Payload.Layout == PayloadSharedRemapped {
			d.Payload = GPUDimPayload{Layout: PayloadGlobal, Why: "a remap exists, but the fact table does not stay on the device, nor would its slot column"}
			reverted = true
		}
	}
	return reverted
}

// factOffDevice reports whether the plan's fact table does not stay on the
// device: a column streamed or read zero-copy, or no fit at all.
func factOffDevice(g *GPUPlan) bool {
	off := g.Memory.NoFit != ""
	for _, c := range g.Columns {
		off = off || c.Fact && c.Place != PlaceResident
	}
	return off
}
