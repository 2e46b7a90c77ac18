//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"sync/atomic"

	"gorgonia.org/cu"
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
	key, keep := zoneBitsKey(q, dims)
	zb := r.d.zoneBits.get(key)
	if zb == nil {
		skips := dimZoneSkips(q, dims, slices.Clone(q.zoneSkips))
		if !slices.Contains(skips, true) {
			r.d.zoneBits.allLive(r.d, key, keep)
			return nil // every chunk live: no bitmap to upload
		}
		words := make([]uint32, (len(skips)+31)/32)
		for c, skip := range skips {
			if !skip {
				words[c/32] |= 1 << (c % 32)
			}
		}
		var p cu.DevicePtr
		var err error
		if key != "" {
			p, err = r.d.zoneBits.add(r.d, key, keep, words)
		} else {
			p, err = r.upload(bytesOf(words))
		}
		if err != nil {
			return err
		}
		zb = &zoneBitmap{ptr: p, live: len(skips) - count(skips, true)}
	}
	if zb.ptr == 0 {
		return nil // kept: every chunk live
	}
	// The plan's estimate of the bytes fetched counts the chunks its own
	// zone maps leave; the key intervals may leave fewer.
	if planned := q.fact.Table.NumChunks() - count(q.zoneSkips, true); planned > 0 {
		r.zoneScale = float64(zb.live) / float64(planned)
	}
	dimZoneRuns.Add(1)
	sp.LiveChunks = uint64(zb.ptr)
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
