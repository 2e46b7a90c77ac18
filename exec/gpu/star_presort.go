//go:build cuda

package gpu

import (
	"math"
	"os"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The ORDER BY of a star query (SSB's all have one) sorts its groups on the
// host. Sorted by the tail, the decoded columns were gathered into new
// ones: a second set of allocations the size of the result, which on a
// GPU machine's host cost more than the decoding (fresh pages, garbage
// collection). So the decoder sorts the columns it has just made in place,
// through buffers the device keeps, and the tail skips the sort.

// presortOff (GPUSQL_STAR_PRESORT=off) leaves every sort to the tail, for
// comparison.
var presortOff = os.Getenv("GPUSQL_STAR_PRESORT") == "off"

// starPresort is the tail's first Sort or TopN, with its keys as columns of
// the star's output, reached through projections that only pick columns.
type starPresort struct {
	node planner.Node
	cols []int
	desc []bool
}

// presortOf finds g's presortable sort, nil when the tail has none.
func presortOf(g *planner.GPUPlan) *starPresort {
	if g.TailOn != planner.TailHost || presortOff {
		return nil
	}
	var pick []int // output column of each column of the current level; nil: itself
	through := func(c int) int {
		if pick == nil {
			return c
		}
		return pick[c]
	}
	for i := len(g.Tail) - 1; i >= 0; i-- { // root first: the body's parent last
		var keys []sql.SortKey
		switch x := g.Tail[i].(type) {
		case *planner.Projection:
			next := make([]int, len(x.Exprs))
			for j, e := range x.Exprs {
				r, ok := e.(*sql.ColRef)
				if !ok {
					return nil
				}
				next[j] = through(r.Index)
			}
			pick = next
			continue
		case *planner.Sort:
			keys = x.Keys
		case *planner.TopN:
			keys = x.Keys
		default:
			return nil
		}
		ps := &starPresort{node: g.Tail[i]}
		for _, k := range keys {
			r, ok := k.Expr.(*sql.ColRef)
			if !ok {
				return nil
			}
			ps.cols = append(ps.cols, through(r.Index))
			ps.desc = append(ps.desc, k.Desc)
		}
		return ps
	}
	return nil
}

// presort sorts res's columns in place by ps's keys, as the tail's sort
// would (stable, NULLs first ascending), and reports whether it could:
// integer keys whose ranges fit 64 bits together, columns of plain
// vectors.
func presort(res *exec.Result, ps *starPresort, s *hostScratch) bool {
	if ps == nil || res.Rows < 2 || res.Rows > planner.HostTailLimit {
		return false
	}
	for _, c := range res.Columns {
		if c.I32 == nil && c.I64 == nil && c.F64 == nil {
			return false
		}
	}
	keys := make([]*columnar.Column, len(ps.cols))
	for i, c := range ps.cols {
		keys[i] = res.Columns[c]
	}
	idx, ok := packedSortOrder(keys, ps.desc, res.Rows, s)
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
	keys  []uint64
	idx   []int
}

// rowList, sortKeys and order are the buffers of decodeStar's rows and
// packedSortOrder's keys and order.
func (s *hostScratch) rowList(n int) []int64 {
	if s == nil {
		return make([]int64, n)
	}
	return grow(&s.rows, n)
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
