package planner

import "fmt"

// GPUZoneMap is the star's use of the fact table's zone maps: the chunks
// its fact filters may leave rows in. The kernel skips the others' tiles
// without reading their columns; the executor takes the chunks from the
// same statistics when it launches (FactZoneSkips).
type GPUZoneMap struct {
	// Chunks is the fact table's statistics chunks; Live those the
	// filters may leave rows in.
	Chunks, Live int
	// Off says why the kernel scans every chunk anyway ("" when it
	// skips): a fact table streamed in chunks or split over devices has
	// row numbers of its own.
	Off string
}

// FactZoneSkips reports, per chunk of the star's fact table, whether a
// filter directly on the fact scan rules it out (ZoneSkips); nil when
// none can.
func (q *GPUStar) FactZoneSkips() []bool {
	var skip []bool
	for _, f := range q.Filters {
		if f.Input != Node(q.Fact) {
			continue
		}
		s := ZoneSkips(q.Fact, f.Cond)
		if s == nil {
			continue
		}
		if skip == nil {
			skip = s
			continue
		}
		for i := range skip {
			skip[i] = skip[i] || s[i]
		}
	}
	return skip
}

// planStarZones records the chunks the star's fact filters rule out, nil
// when they rule out none.
func planStarZones(q *GPUStar) *GPUZoneMap {
	skip := q.FactZoneSkips()
	live := 0
	for _, s := range skip {
		if !s {
			live++
		}
	}
	if skip == nil || live == len(skip) {
		return nil
	}
	return &GPUZoneMap{Chunks: len(skip), Live: live}
}

// keepZonesResident turns the zone maps off where the fact table leaves
// the device or is split: its chunks then have row numbers of their own.
func keepZonesResident(g *GPUPlan) {
	z := g.Star.Zones
	switch {
	case z == nil:
	case g.Split != nil:
		z.Off = "the fact table is split over devices"
	case factOffDevice(g):
		z.Off = "the fact table does not stay on the device"
	}
}

func (z *GPUZoneMap) String() string {
	s := fmt.Sprintf("zone maps: the fact filters leave %d of %d chunks", z.Live, z.Chunks)
	if z.Off != "" {
		return s + "; every chunk scanned: " + z.Off
	}
	return s + "; the kernel skips the others' tiles"
}
