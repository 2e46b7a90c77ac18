package planner

import (
	"fmt"
	"strings"
)

// GPUZoneMap is the star's use of the fact table's zone maps: the chunks
// its fact filters may leave rows in. The kernel skips the others' tiles
// without reading their columns; the executor takes the chunks from the
// same statistics when it launches (FactZoneSkips).
type GPUZoneMap struct {
	// Chunks is the fact table's statistics chunks; Live those the
	// filters may leave rows in.
	Chunks, Live int
	// DimKeys are the dimensions (indexes into GPUStar.Dims) whose join
	// key intervals rule out more chunks at run time (gpu_dim_zones.go),
	// DimNames their tables.
	DimKeys  []int
	DimNames []string
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

// planStarZones records the chunks the star's fact filters rule out and
// the dimensions whose key intervals may rule out more, nil when neither
// can rule out any.
func planStarZones(q *GPUStar) *GPUZoneMap {
	skip := q.FactZoneSkips()
	live := 0
	for _, s := range skip {
		if !s {
			live++
		}
	}
	dims := dimZoneKeys(q)
	if (skip == nil || live == len(skip)) && len(dims) == 0 {
		return nil
	}
	if skip == nil {
		live = q.Fact.Table.NumChunks()
	}
	z := &GPUZoneMap{Chunks: q.Fact.Table.NumChunks(), Live: live, DimKeys: dims}
	for _, i := range dims {
		z.DimNames = append(z.DimNames, q.Dims[i].Scan.Table.Name)
	}
	return z
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
	if len(z.DimNames) > 0 {
		s += fmt.Sprintf("; the join key intervals of %s rule out more once built (clustered fact keys)", strings.Join(z.DimNames, ", "))
	}
	if z.Off != "" {
		return s + "; every chunk scanned: " + z.Off
	}
	return s + "; the kernel skips the others' tiles"
}
