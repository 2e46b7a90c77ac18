//go:build cuda

package gpu

import "fmt"

// zoneParams hands the kernel the bitmap of the fact chunks the plan's
// zone maps leave (planner/gpu_zone_maps.go; kernels/star_pipeline.cu
// star_tile_dead): their tiles are scanned, the others skipped unread.
// The plan turns zone maps off where the fact table streams or is split;
// a run over part of the table (chunks with row numbers of their own)
// would be an internal error.
func (r *queryRun) zoneParams(q *starQuery, sp *starParams) error {
	if q.zoneSkips == nil {
		return nil
	}
	if r.part != nil || len(r.streamed) > 0 {
		return fmt.Errorf("gpu: internal error: zone maps over a part of %s", q.fact.Table.Name)
	}
	words := make([]uint32, (len(q.zoneSkips)+31)/32)
	for c, skip := range q.zoneSkips {
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
