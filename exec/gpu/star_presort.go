//go:build cuda

package gpu

import (
	"math"
	"os"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// The ORDER BY of a star query (SSB's all have one) sorts its groups on the
// host, unless the plan laid the group slots out in its order (and no key
// holds NULL: slotsSorted). Sorted by the tail, the decoded columns were
// gathered into new ones: a second set of allocations the size of the
// result, which on a GPU machine's host cost more than the decoding (fresh
// pages, garbage collection). So the decoder sorts the columns it has just
// made in place, through buffers the device keeps, and the tail skips the
// sort.

// presortOff (GPUSQL_STAR_PRESORT=off) leaves every sort to the tail, for
// comparison.
var presortOff = os.Getenv("GPUSQL_STAR_PRESORT") == "off"

// presortOf is g's star sort (planner/gpu_slot_order.go), nil when the
// tail has none or GPUSQL_STAR_PRESORT is off.
func presortOf(g *planner.GPUPlan) *planner.GPUStarSort {
	if presortOff || g.Star == nil {
		return nil
	}
	return g.Star.Sort
}

// sortDecoded gives res, q's decoded groups, in the order of ps (when
// not nil), and reports whether it could: found in order when the slots
// are laid out by it (slotsSorted), else sorted in place (presort).
func sortDecoded(q *starQuery, res *exec.Result, ps *planner.GPUStarSort, dims []*dimRun, fkeys []factKey, s *hostScratch) bool {
	if ps != nil && slotsSorted(q, dims, fkeys) {
		return true
	}
	return presort(res, ps, s)
}

// presort sorts res's columns in place by ps's keys, as the tail's sort
// would (stable, NULLs first ascending), and reports whether it could:
// integer keys whose ranges fit 64 bits together, columns of plain
// vectors.
func presort(res *exec.Result, ps *planner.GPUStarSort, s *hostScratch) bool {
	if ps == nil || res.Rows < 2 || res.Rows > planner.HostTailLimit {
		return false
	}
	for _, c := range res.Columns {
		if c.I32 == nil && c.I64 == nil && c.F64 == nil {
			return false
		}
	}
	keys := make([]*columnar.Column, len(ps.Cols))
	for i, c := range ps.Cols {
		keys[i] = res.Columns[c]
	}
	idx, ok := packedSortOrder(keys, ps.Desc, res.Rows, s)
	if !ok {
		return false
	}
	for _, c := range res.Columns {
		s.permute(c, idx)
	}
	return true
}

// hostScratch is a device's reused host buffers for decoding and
// reordering results; a nil one allocates.
type hostScratch struct {
	i32   []int32
	i64   []int64
	words []uint64
	rows  []int64
	bases []int64
	vals  []int64
	dig   [][]int32
	keys  []uint64
	idx   []int
}

// rowList and baseList are decodeStar's buffers of its groups' slots and
// word offsets; sortKeys and order packedSortOrder's keys and order.
func (s *hostScratch) rowList(n int) []int64 {
	if s == nil {
		return make([]int64, n)
	}
	return grow(&s.rows, n)
}

func (s *hostScratch) baseList(n int) []int64 {
	if s == nil {
		return make([]int64, n)
	}
	return grow(&s.bases, n)
}

// values is decodeStar's buffer of one key's values.
func (s *hostScratch) values(n int) []int64 {
	if s == nil {
		return make([]int64, n)
	}
	return grow(&s.vals, n)
}

// digitRows is decodeStar's buffer of each component's digits.
func (s *hostScratch) digitRows(comps, n int) [][]int32 {
	var rows [][]int32
	if s == nil {
		rows = make([][]int32, comps)
	} else {
		rows = grow(&s.dig, comps)
	}
	for c := range rows {
		if cap(rows[c]) < n {
			rows[c] = make([]int32, n)
		}
		rows[c] = rows[c][:n]
	}
	return rows
}

func (s *hostScratch) sortKeys(n int) []uint64 {
	if s == nil {
		return make([]uint64, n)
	}
	return grow(&s.keys, n)
}

func (s *hostScratch) order(n int) []int {
	if s == nil {
		return make([]int, n)
	}
	return grow(&s.idx, n)
}

// permute makes row i of c its row idx[i].
func (s *hostScratch) permute(c *columnar.Column, idx []int) {
	n := len(idx)
	switch {
	case c.I32 != nil:
		t := grow(&s.i32, n)
		for i, r := range idx {
			t[i] = c.I32[r]
		}
		copy(c.I32, t)
	case c.I64 != nil:
		t := grow(&s.i64, n)
		for i, r := range idx {
			t[i] = c.I64[r]
		}
		copy(c.I64, t)
	case c.F64 != nil:
		t := grow(&s.words, n)
		for i, r := range idx {
			t[i] = math.Float64bits(c.F64[r])
		}
		for i, w := range t {
			c.F64[i] = math.Float64frombits(w)
		}
	}
	if c.Valid != nil {
		w := grow(&s.words, len(c.Valid))
		clear(w)
		for i, r := range idx {
			if c.Valid[r>>6]&(1<<(uint(r)&63)) != 0 {
				w[i>>6] |= 1 << (uint(i) & 63)
			}
		}
		copy(c.Valid, w)
	}
}

// grow returns (*buf)[:n], reallocated when too short.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	return (*buf)[:n]
}
