//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// dimZoneRuns counts runs whose zone maps ruled chunks out (tests).
var dimZoneRuns atomic.Uint64

// zoneParams hands the kernel the bitmap of the fact chunks the plan's
// zone maps leave (planner/gpu_zone_maps.go; kernels/star_pipeline.cu
// star_tile_dead): their tiles are scanned, the others skipped unread.
// The plan turns zone maps off where the fact table streams or is split;
// a run over part of the table (chunks with row numbers of their own)
// would be an internal error.
func (r *queryRun) zoneParams(q *starQuery, dims []*dimRun, sp *starParams) error {
	if q.zoneSkips == nil && q.zoneDims == nil {
		return nil
	}
	if r.part != nil || len(r.streamed) > 0 {
		return fmt.Errorf("gpu: internal error: zone maps over a part of %s", q.fact.Table.Name)
	}
	if err := r.readKeyRanges(q, dims); err != nil {
		return err
	}
	skips := dimZoneSkips(q, dims, slices.Clone(q.zoneSkips))
	if !slices.Contains(skips, true) {
		return nil // every chunk live: no bitmap to upload
	}
	// The plan's estimate of the bytes fetched counts the chunks its own
	// zone maps leave; the key intervals may leave fewer.
	if planned := q.fact.Table.NumChunks() - count(q.zoneSkips, true); planned > 0 {
		r.zoneScale = float64(len(skips)-count(skips, true)) / float64(planned)
	}
	dimZoneRuns.Add(1)
	words := make([]uint32, (len(skips)+31)/32)
	for c, skip := range skips {
		if !skip {
			words[c/32] |= 1 << (c % 32)
		}
	}
	p, err := r.upload(bytesOf(words))
	if err != nil {
		return err
	}
	sp.LiveChunks = uint64(p)
	return nil
}

func count[T comparable](s []T, v T) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}
