package planner

import (
	"math"

	"gpusql/storage/columnar"
)

// Cold reads in place (issue 17; Kaldewey et al., zero-copy reads at the
// link's rate). A fact column sent packed (GPUPacking.Transfer) costs a
// cold query its whole packed bytes over the link before the kernel
// starts. The fused kernel fetches only the sectors that hold a live row
// (gpu_fact_reads.go) and only the chunks the zone maps leave, so a
// column read after selective filters and probes moves fewer bytes when
// the kernel reads its packed host copy in place over PCIe: the cold query
// runs on those, and its end loads the column's 4-byte form onto the
// device behind it for the queries after (exec/gpu/column_in_place.go),
// which is the copy it would have waited for, now off its path.

// packedSectorRows is how many rows' liveness decides whether a sector of a
// column packed in bits a value is fetched: a sector holds word j of eight
// lanes' bit streams, and a lane's thread loads word j when a live row of
// its own has bits in it (kernels/common.cuh, load_packed) — the 32/bits
// rows that start in the word and the one that straddles into it where
// bits does not divide 32, at most the thread's starItems rows.
func packedSectorRows(bits int) float64 {
	if bits <= 0 {
		return 8 * starItems
	}
	perWord := 32 / float64(bits)
	if 32%bits != 0 {
		perWord++
	}
	return 8 * math.Min(perWord, starItems)
}

// scatteredZeroCopy is the share of the zero-copy rate the fused kernel
// gets reading the scattered sectors of live rows in place: measured on
// the H100 at 37.6-39.5 GB/s of estimated fetched bytes (SSB SF 10 Q3.2,
// Q4.2) against 51 GB/s for sequential reads. A column whose sectors are
// nearly all fetched is then cheaper to copy.
const scatteredZeroCopy = 0.75

// packedSectorShare is the fraction of the sectors of a column packed in
// bits a value that hold a row alive with probability alive (rows
// independent).
func packedSectorShare(alive float64, bits int) float64 {
	if alive >= 1 {
		return 1
	}
	return 1 - math.Pow(1-alive, packedSectorRows(bits))
}

// planColdReads marks the transfer-packed fact columns a cold run reads in
// place: those whose estimated fetch at the scattered zero-copy rate takes
// less time than copying their packed bytes at the pinned copy rate and
// unpacking them. Off when the profile says every cold column is copied
// (ColdCopies).
func planColdReads(g *GPUPlan, prof *GPUProfile) {
	q := g.Star
	if q == nil || prof.ColdCopies || prof.ZeroCopyGBs <= 0 || prof.PinnedCopyGBs <= 0 {
		return
	}
	_, viaVM := starFactReads(q)
	live := 1.0
	if z := q.Zones; z != nil && z.Off == "" && z.Chunks > 0 {
		live = float64(z.Live) / float64(z.Chunks)
	}
	t := q.Fact.Table
	for _, r := range q.FactReads {
		c := factColumn(g, t.Columns[r.Col])
		if c == nil || c.Place != PlaceResident || c.Packing == nil || !c.Packing.Transfer || c.Narrow != nil || viaVM[c.Col] {
			continue
		}
		inPlace := packedSectorShare(r.Alive, c.Packing.Bits) * live * float64(c.Packing.Bytes)
		copied := float64(c.Packing.CopyBytes())/prof.PinnedCopyGBs + float64(c.Bytes)/prof.HBMGBs
		if inPlace/(prof.ZeroCopyGBs*scatteredZeroCopy) < copied || prof.ForceColdInPlace {
			c.Packing.ColdInPlace, c.Packing.ColdBytes = true, int64(inPlace)
		}
	}
}

// factColumn is the plan's entry for fact column col.
func factColumn(g *GPUPlan, col *columnar.Column) *GPUColumn {
	for i := range g.Columns {
		if c := &g.Columns[i]; c.Fact && c.Col == col {
			return c
		}
	}
	return nil
}

// planCopyAhead marks the transfer-packed fact columns a cold run copies
// (those not read in place) to be copied ahead: their copies cross the
// link on a stream of their own while the dimensions are filtered, ranked
// and built on the default stream, which otherwise wait for each other
// (exec/gpu/column_ahead.go). A star without dimensions has nothing to
// overlap.
func planCopyAhead(g *GPUPlan, prof *GPUProfile) {
	q := g.Star
	if q == nil || prof.CopiesWhenRead || len(q.Dims) == 0 {
		return
	}
	for i := range g.Columns {
		c := &g.Columns[i]
		if c.Fact && c.Place == PlaceResident && c.Packing != nil && c.Packing.Transfer && c.Narrow == nil && !c.Packing.ColdInPlace {
			c.Packing.CopyAhead = true
		}
	}
}
