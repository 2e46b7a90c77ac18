package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A star's groups became its output rows on the host: the slots' digits
// walked, each key looked up among its dimension's ranks, each aggregate
// stored, and the tail's sort run over them. For SSB's few hundred groups
// that took 10-80 µs of a warm query's host time on a GPU machine's host
// CPU, most of the host time of the queries with the most groups. One
// block on the device does the same in a few microseconds inside the
// query's launch chain (kernels/star_finish.cu), so the host copies
// finished columns back. It needs what the kernel can express: no AVG (a
// division rounded in big integers), no wide DECIMAL, at most
// GPUFinishMaxCols columns; it sorts when the sort's keys are integers it
// can pack, at most GPUFinishMaxSortKeys of them. The executor decodes on
// the host what the device could not take at run time: more than
// GPUFinishMaxRows groups, a dense table of more than GPUFinishMaxDense
// slots, dimension keys with more than GPUFinishMaxKeyValues values.

// The device finish's limits (kernels/star_finish.cu).
const (
	GPUFinishMaxRows      = 2048
	GPUFinishMaxDense     = 4096
	GPUFinishMaxCols      = 12
	GPUFinishMaxKeyValues = 192
	GPUFinishMaxSortKeys  = 4
	GPUFinishMinGroups    = 256
)

// GPUStarFinish says where a star's groups become its output rows.
type GPUStarFinish struct {
	// Device: star_finish writes the output columns on the device (up to
	// the limits above; beyond them the host decodes).
	Device bool
	// SortOnDevice: it also sorts them by the star's Sort.
	SortOnDevice bool
	// MinGroups: the device finishes when this many group slots or more
	// survive the dimension filters; fewer are decoded on the host, where
	// they cost less than the kernel (on the H100 at SSB SF 1 and 10,
	// warm: Q3.3's 24 groups 8 µs slower finished on the device, Q3.1's
	// 150 no faster, Q3.2's 600 and Q4.3's 800 20-40 and 10-30 µs faster).
	MinGroups int64
}

// planStarFinish decides g's finish: on the device for a star on one GPU
// whose outputs it can write.
func planStarFinish(g *GPUPlan) GPUStarFinish {
	s := g.Star
	if s == nil || g.Split != nil || len(s.Keys) == 0 || len(s.Keys)+len(s.Outputs) > GPUFinishMaxCols {
		return GPUStarFinish{}
	}
	for i, c := range s.Aggregate.Out {
		phys := c.Type.Physical()
		if phys == columnar.PhysWide || phys == columnar.PhysVector || i < len(s.Keys) && phys == columnar.PhysFloat64 {
			return GPUStarFinish{}
		}
		if i >= len(s.Keys) && s.Outputs[i-len(s.Keys)].Agg.Func == sql.AggAvg {
			return GPUStarFinish{}
		}
	}
	f := GPUStarFinish{Device: true, MinGroups: GPUFinishMinGroups}
	if ss := s.Sort; ss != nil && len(ss.Cols) <= GPUFinishMaxSortKeys {
		f.SortOnDevice = true
		for _, c := range ss.Cols {
			if c >= len(s.Keys) && !finishSortsAggregate(s, c) {
				f.SortOnDevice = false
			}
		}
	}
	return f
}

// finishSortsAggregate: the device packs output column c's values as sort
// keys (an integer kernel aggregate into an integer column).
func finishSortsAggregate(s *GPUStar, c int) bool {
	o := s.Outputs[c-len(s.Keys)]
	return !s.Aggs[o.Slot].IsFloat && s.Aggregate.Out[c].Type.Physical() != columnar.PhysFloat64
}

// explainStarFinish is EXPLAIN's line for the finish ("" when the host
// decodes); explainStarSort tells where the sort runs.
func explainStarFinish(s *GPUStar) string {
	f := s.Finish
	if !f.Device {
		return ""
	}
	return fmt.Sprintf("finish: groups decoded on the device when %d slots or more survive the dimension filters (star_finish, up to %d groups; fewer or more are decoded on the host)", f.MinGroups, GPUFinishMaxRows)
}

// sortPlace is where a star's sort runs when the slots do not give it.
func sortPlace(s *GPUStar) string {
	if s.Finish.SortOnDevice {
		return "on the device"
	}
	return "on the host"
}
