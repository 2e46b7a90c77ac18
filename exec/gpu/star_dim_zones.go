//go:build cuda

package gpu

import (
	"math"
	"slices"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// Zone maps through dimension keys (planner/gpu_dim_zones.go): the build
// kernel of each dimension the plan names finds the least and greatest key
// it builds; the interval is read back once, kept with the cached build,
// and every run marks dead the fact chunks whose key range misses it.

// keyRange is a built dimension's join key interval (lo > hi: no row).
type keyRange struct {
	lo, hi int64
	known  bool
}

// keyRangeBuffer gives a dimension about to be built the device words its
// build kernel narrows to its key interval.
func (r *queryRun) keyRangeBuffer(dr *dimRun) error {
	p, err := r.s.alloc(16)
	if err != nil {
		return err
	}
	init := [2]int64{math.MaxInt64, math.MinInt64}
	if err := cu.MemcpyHtoD(p, unsafe.Pointer(&init[0]), 16); err != nil {
		return err
	}
	dr.p.KeyRange = uint64(p)
	return nil
}

// readKeyRanges reads back the intervals of the dimensions built now (a
// synchronous copy: after their build kernels).
func (r *queryRun) readKeyRanges(q *starQuery, dims []*dimRun) error {
	for _, i := range q.zoneDims {
		dr := dims[i]
		if dr.cached != nil || dr.p.KeyRange == 0 {
			continue
		}
		var v [2]int64
		if err := cu.MemcpyDtoH(unsafe.Pointer(&v[0]), cu.DevicePtr(dr.p.KeyRange), 16); err != nil {
			return err
		}
		dr.keys = keyRange{lo: v[0], hi: v[1], known: true}
	}
	return nil
}

// dimZoneSkips adds to skip (nil: none yet) the fact chunks whose key
// range misses a zone dimension's interval; nil when nothing is known.
func dimZoneSkips(q *starQuery, dims []*dimRun, skip []bool) []bool {
	t := q.fact.Table
	for _, i := range q.zoneDims {
		kr := dims[i].keyRange()
		c := q.dims[i].probe.col
		if !kr.known || c >= len(t.Stats) || len(t.Stats[c]) != t.NumChunks() {
			continue
		}
		if skip == nil {
			skip = make([]bool, t.NumChunks())
		}
		for k, st := range t.Stats[c] {
			rows := min(columnar.ChunkRows, t.Rows-k*columnar.ChunkRows)
			// A NULL key joins nothing: an all-NULL chunk is dead too.
			if st.NullCount == rows || st.Max < kr.lo || st.Min > kr.hi {
				skip[k] = true
			}
		}
	}
	return skip
}

// keyRange is the build's interval: found now, or kept with the cached
// build.
func (dr *dimRun) keyRange() keyRange {
	if dr.cached != nil {
		return dr.cached.keys
	}
	return dr.keys
}

func isZoneDim(q *starQuery, i int) bool { return slices.Contains(q.zoneDims, i) }
