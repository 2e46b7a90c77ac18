//go:build cuda

package gpu

import (
	"fmt"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// The executor's side of the plan's column placement
// (planner/gpu_placement.go): the running plan's places, looked up by
// column, and queryRun.column, through which every base column reaches the
// kernels as the plan says. Streamed columns (streaming.go) reach only the
// star pipeline's fact kernel, which runs chunk by chunk; every other
// reader of a streamed column (the expression VM, the operator-at-a-time
// fallback of a star the data refuse) reads it zero-copy, the other way of
// reading a column that stays in host memory.

// placement is the running plan's column places.
type placement struct {
	cols   map[*columnar.Column]*planner.GPUColumn
	stream *planner.GPUStreaming
	// ahead are the columns a cold run copies ahead (column_ahead.go).
	ahead []*columnar.Column
}

func newPlacement(g *planner.GPUPlan) *placement {
	p := &placement{cols: map[*columnar.Column]*planner.GPUColumn{}, stream: g.Memory.Stream}
	for i := range g.Columns {
		if c := &g.Columns[i]; c.Col != nil {
			p.cols[c.Col] = c
			if c.Packing != nil && c.Packing.CopyAhead {
				p.ahead = append(p.ahead, c.Col)
			}
		}
	}
	return p
}

// of is col's place in the plan (nil: not a base column the plan lists,
// which stays resident).
func (p *placement) of(col *columnar.Column) *planner.GPUColumn {
	if p == nil {
		return nil
	}
	return p.cols[col]
}

// begin makes g the running plan's placement and sizes the column cache
// to what the plan leaves for columns; the returned function restores the
// previous placement (a scalar subquery's plan runs inside its parent's).
func (d *device) begin(g *planner.GPUPlan) (func(), error) {
	if g.Memory.NoFit != "" {
		return nil, fmt.Errorf("gpu: %s", g.Memory.NoFit)
	}
	prev, prevBudget := d.place, d.cache.budget
	d.place, d.chunks = newPlacement(g), 0
	if m := g.Memory; m.Budget > 0 {
		cols := m.Budget - m.Working
		if m.Stream != nil {
			cols -= m.Stream.BufferBytes
		}
		d.cache.budget = min(d.cacheMax, max(cols, 0))
	}
	return func() { d.place, d.cache.budget = prev, prevBudget }, nil
}

// column returns col's device column as the plan places it, pinned for
// the query. streamOK: the caller is the star pipeline's fact side, which
// takes a streamed column's chunk-by-chunk descriptor and a packed or
// narrow column (the tile loads decode them); everyone else gets the
// 4-byte form.
func (r *queryRun) column(col *columnar.Column, streamOK bool) (*devColumn, error) {
	gc := r.d.place.of(col)
	col, err := r.part.of(col)
	if err != nil {
		return nil, err
	}
	var dc *devColumn
	switch {
	case gc != nil && gc.Place == planner.PlaceStreamed && streamOK:
		return r.streamedColumn(col, gc)
	case gc != nil && gc.Narrow != nil && gc.Place == planner.PlaceResident && streamOK:
		dc, err = r.d.cache.getNarrow(col, gc)
	case gc != nil && gc.Packing != nil && gc.Packing.Transfer && gc.Place == planner.PlaceResident:
		if gc.Packing.ColdInPlace && streamOK {
			if dc, err = r.coldInPlace(col, gc); dc != nil || err != nil {
				touchColumn(dc)
				return dc, err
			}
		}
		dc, err = r.d.cache.getUnpacked(col, gc)
	case gc != nil && gc.Packing != nil && gc.Place == planner.PlaceResident && streamOK:
		dc, err = r.d.cache.getPacked(col, gc)
	case gc != nil && gc.Place != planner.PlaceResident:
		dc, err = r.d.cache.getAs(col, true, gc)
	default:
		dc, err = r.d.cache.getAs(col, false, gc)
	}
	if err != nil {
		return nil, err
	}
	r.pinned = append(r.pinned, dc)
	if err := r.d.cache.settle(dc); err != nil {
		return nil, err
	}
	touchColumn(dc)
	return dc, nil
}
