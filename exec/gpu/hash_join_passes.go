//go:build cuda

package gpu

import (
	"fmt"
	"math/bits"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
)

// A hash join whose table does not fit the device memory budget runs in
// the passes the plan gives it (planner/gpu_join_passes.go): both inputs'
// normalized keys are counted by partition (kernels/join_partition.cu),
// then either scattered once into partition order or, per pass, compacted
// to that pass's partition; each pass runs the one-table join (equiPairs:
// join_build, join_probe) over its partition only, with device memory of
// its own that goes back to the pool before the next pass, and appends its
// pairs, turned back into row numbers of the whole inputs, to one output.
// Equal keys share a partition, so the passes find each pair once; the
// join kinds then finish from the pairs exactly as a one-pass join does.

// partParams mirrors PartParams in kernels/join_partition.cu.
type partParams struct {
	N            int64
	NKeys, Shift int32
	Keys         [maxJoinKeys]colView
	Only, NParts int32
	Counts       uint64
	OutKeys      [maxJoinKeys]uint64
	OutRows      uint64
}

// partSide is one input of a partitioned join: its key vectors, its rows
// per partition, and (once scattered) the keys and row numbers in
// partition order, partition p starting at offs[p].
type partSide struct {
	n      int64
	keys   []colView
	counts []int64
	offs   []int64
	sKeys  [maxJoinKeys]cu.DevicePtr
	sRows  cu.DevicePtr
}

// joinPassStats is what the last partitioned join did, for tests: the
// passes that ran a table, the most device bytes one pass held (as the
// pool's size classes count them), and the passes an aggregate folded.
// Only the device goroutine touches it.
var joinPassStats struct {
	passes        int
	peakPassBytes int64
	folded        int
}

// partitionedPairs is equiPairs in plan.Passes passes, their pairs
// appended into one output.
func (r *queryRun) partitionedPairs(jp *joinParams, plan *planner.GPUJoinPasses, capacity int64) (pairs, error) {
	if jp.NProbe == 0 || jp.NBuild == 0 {
		return r.equiPairs(&r.s, jp, capacity)
	}
	var out pairOutput
	err := r.forEachPass(jp, plan, capacity, func(pr pairs) error {
		if out.m+pr.m >= 1<<31 {
			return fmt.Errorf("gpu: a join of more than %d rows is not supported on the GPU (row numbers are 32-bit)", int64(1)<<31-1)
		}
		if err := r.reservePairs(&out, pr.m); err != nil {
			return err
		}
		if err := cu.MemcpyDtoD(out.left+cu.DevicePtr(4*out.m), pr.left, 4*pr.m); err != nil {
			return err
		}
		if err := cu.MemcpyDtoD(out.right+cu.DevicePtr(4*out.m), pr.right, 4*pr.m); err != nil {
			return err
		}
		out.m += pr.m
		return nil
	})
	if err != nil {
		return pairs{}, err
	}
	if out.m == 0 {
		p, err := r.s.alloc(8)
		return pairs{left: p, right: p}, err
	}
	return pairs{left: out.left, right: out.right, m: out.m}, nil
}

// forEachPass runs the join of jp in plan.Passes passes and hands each
// pass's pairs (probe row, build row of the whole inputs; none empty) to
// use while the pass's device memory is held; it goes back to the pool
// when use returns.
func (r *queryRun) forEachPass(jp *joinParams, plan *planner.GPUJoinPasses, capacity int64, use func(pairs) error) error {
	joinPassStats.passes, joinPassStats.peakPassBytes, joinPassStats.folded = 0, 0, 0
	if jp.NProbe == 0 || jp.NBuild == 0 {
		return nil
	}
	np := plan.Passes
	if np < 2 || np&(np-1) != 0 || np > 4096 {
		return fmt.Errorf("gpu: a hash join in %d passes (want a power of two from 2 to 4096)", np)
	}
	shift := int32(64 - bits.TrailingZeros(uint(np)))
	nk := int(jp.NKeys)
	build := &partSide{n: jp.NBuild, keys: jp.Build[:nk]}
	probe := &partSide{n: jp.NProbe, keys: jp.Probe[:nk]}
	for _, side := range []*partSide{build, probe} {
		if err := r.partHistogram(side, np, shift); err != nil {
			return err
		}
		if plan.Scatter {
			if err := r.partScatter(&r.s, side, np, shift, -1); err != nil {
				return err
			}
		}
	}
	for p := range np {
		if build.counts[p] == 0 || probe.counts[p] == 0 {
			continue // no pair: unmatched probe rows are those no pass pairs
		}
		pass := &scratch{d: r.d}
		// The first guess at the pass's pairs: its share of probe rows.
		guess := capacity * probe.counts[p] / jp.NProbe
		pr, err := r.joinPass(pass, jp, plan.Scatter, build, probe, p, shift, guess+guess/4)
		if err == nil && pr.m > 0 {
			err = use(pr)
		}
		joinPassStats.passes++
		joinPassStats.peakPassBytes = max(joinPassStats.peakPassBytes, pass.bytes())
		pass.release()
		if err != nil {
			return err
		}
	}
	return nil
}

// joinPass joins partition p of both sides with its memory from pass and
// returns the pairs as row numbers of the whole inputs.
func (r *queryRun) joinPass(pass *scratch, jp *joinParams, scattered bool, build, probe *partSide, p int, shift int32, capacity int64) (pairs, error) {
	np := len(build.counts)
	bOff, pOff := build.offs[p], probe.offs[p]
	if !scattered {
		for _, side := range []*partSide{build, probe} {
			if err := r.partScatter(pass, side, np, shift, p); err != nil {
				return pairs{}, err
			}
		}
		bOff, pOff = 0, 0
	}
	sub := *jp
	sub.NBuild, sub.NProbe = build.counts[p], probe.counts[p]
	for k := range int(jp.NKeys) {
		sub.Build[k] = colView{Data: uint64(build.sKeys[k]) + uint64(8*bOff), Width: 8}
		sub.Probe[k] = colView{Data: uint64(probe.sKeys[k]) + uint64(8*pOff), Width: 8}
	}
	local, err := r.equiPairs(pass, &sub, max(capacity, 1024))
	if err != nil || local.m == 0 {
		return pairs{}, err
	}
	if local.m >= 1<<31 {
		return pairs{}, fmt.Errorf("gpu: one pass of a hash join found %d rows, more than 2^31-1 (row numbers are 32-bit)", local.m)
	}
	f, err := r.d.fn("join_part_map")
	if err != nil {
		return pairs{}, err
	}
	out := pairs{m: local.m}
	if out.left, err = pass.alloc(4 * local.m); err != nil {
		return pairs{}, err
	}
	if out.right, err = pass.alloc(4 * local.m); err != nil {
		return pairs{}, err
	}
	for _, m := range []struct {
		local, rows, out cu.DevicePtr
	}{
		{local.left, probe.sRows + cu.DevicePtr(4*pOff), out.left},
		{local.right, build.sRows + cu.DevicePtr(4*bOff), out.right},
	} {
		a := struct {
			Local uint64
			M     int64
			Rows  uint64
			Out   uint64
		}{uint64(m.local), local.m, uint64(m.rows), uint64(m.out)}
		if err := launch(f, r.d.grid(local.m), 256, 0, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
			return pairs{}, err
		}
	}
	return out, nil
}

// partHistogram counts side's rows per partition (NULL keys in none) and
// sets its partition offsets.
func (r *queryRun) partHistogram(side *partSide, np int, shift int32) error {
	counts, err := r.s.alloc(4 * int64(np))
	if err != nil {
		return err
	}
	if err := cu.MemsetD32(counts, 0, int64(np)); err != nil {
		return err
	}
	p := partParams{N: side.n, NKeys: int32(len(side.keys)), Shift: shift, Only: -1, NParts: int32(np), Counts: uint64(counts)}
	copy(p.Keys[:], side.keys)
	f, err := r.d.fn("join_part_hist")
	if err != nil {
		return err
	}
	if err := launch(f, r.d.grid(side.n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return err
	}
	host := make([]uint32, np)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), counts, int64(4*np)); err != nil {
		return fmt.Errorf("gpu: join partition histogram: %v", err)
	}
	side.counts, side.offs = make([]int64, np), make([]int64, np)
	var at int64
	for i, c := range host {
		side.counts[i], side.offs[i] = int64(c), at
		at += int64(c)
	}
	return nil
}

// partScatter writes side's keys and row numbers in partition order into
// buffers from s: every partition (only < 0) or partition only, compacted.
func (r *queryRun) partScatter(s *scratch, side *partSide, np int, shift int32, only int) error {
	rows := side.offs[np-1] + side.counts[np-1]
	var cursors []uint32
	if only < 0 {
		for _, o := range side.offs {
			cursors = append(cursors, uint32(o))
		}
	} else {
		rows, cursors = side.counts[only], []uint32{0}
	}
	p := partParams{N: side.n, NKeys: int32(len(side.keys)), Shift: shift, Only: int32(only), NParts: int32(np)}
	copy(p.Keys[:], side.keys)
	cur, err := s.alloc(4 * int64(len(cursors)))
	if err != nil {
		return err
	}
	if err := cu.MemcpyHtoD(cur, unsafe.Pointer(&cursors[0]), int64(4*len(cursors))); err != nil {
		return err
	}
	p.Counts = uint64(cur)
	for k := range side.keys {
		if side.sKeys[k], err = s.alloc(8 * max(rows, 1)); err != nil {
			return err
		}
		p.OutKeys[k] = uint64(side.sKeys[k])
	}
	if side.sRows, err = s.alloc(4 * max(rows, 1)); err != nil {
		return err
	}
	p.OutRows = uint64(side.sRows)
	f, err := r.d.fn("join_part_scatter")
	if err != nil {
		return err
	}
	return launch(f, r.d.grid(side.n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p))
}

// pairOutput is the pairs of a partitioned join so far, in buffers of cap
// pairs that double as passes append.
type pairOutput struct {
	left, right cu.DevicePtr
	m, cap      int64
}

func (r *queryRun) reservePairs(o *pairOutput, more int64) error {
	if o.m+more <= o.cap {
		return nil
	}
	c := max(2*o.cap, o.m+more, 1024)
	l, err := r.s.alloc(4 * c)
	if err != nil {
		return err
	}
	rt, err := r.s.alloc(4 * c)
	if err != nil {
		return err
	}
	if o.m > 0 {
		if err := cu.MemcpyDtoD(l, o.left, 4*o.m); err != nil {
			return err
		}
		if err := cu.MemcpyDtoD(rt, o.right, 4*o.m); err != nil {
			return err
		}
		r.s.free(o.left)
		r.s.free(o.right)
	}
	o.left, o.right, o.cap = l, rt, c
	return nil
}

// free returns one of s's allocations to the pool before the rest.
func (s *scratch) free(ptr cu.DevicePtr) {
	for i := len(s.ptrs) - 1; i >= 0; i-- {
		if s.ptrs[i] == ptr {
			s.ptrs = append(s.ptrs[:i], s.ptrs[i+1:]...)
			s.d.pool.put(ptr)
			return
		}
	}
}

// bytes is what s holds of the device, in the pool's size classes.
func (s *scratch) bytes() int64 {
	var n int64
	for _, p := range s.ptrs {
		n += s.d.pool.ptrCls[p]
	}
	return n
}
