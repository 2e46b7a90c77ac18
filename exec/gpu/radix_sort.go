//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// The device radix sort (kernels/radix_sort.cu) behind Sort, TopN,
// SortMergeJoin and the sort-based set operations: a permutation of row
// ids is sorted stably by one encoded key at a time (kernels/sort.cu's
// sort_encode writes the keys in the permutation's order and finds their
// minimum and maximum), visiting only the 8-bit digits the keys' range
// spans (radixPlan), as 32-bit words when it fits 32 bits. A pass is three
// launches (histogram per tile, device-wide scan of the digit counts,
// ranked scatter) with nothing read back between passes; the only copy to
// the host is the key's minimum and maximum, once per key.

// radixSortParams mirrors RadixSortParams in kernels/radix_sort.cu.
type radixSortParams struct {
	KeysIn, ValsIn, KeysOut, ValsOut uint64
	N, Tiles                         int64
	Counts                           uint64
	Sub, Add                         uint64
	Shift, Pad                       int32
}

const radixTile = 256 * 16 // RS_TILE

// radixSorter holds the buffers of sorting n row ids: the encoder's
// 8-byte keys (keys[0]) and their ping-pong twin, two permutations, the
// per-tile digit counts and the encoder's minimum and maximum. A
// permutation of 0 is the identity, never written: the encoder reads row
// i and the first pass takes i as its row id, which spares writing and
// twice reading 4 B a row (sortPerm materializes it only when no pass
// runs).
type radixSorter struct {
	r        *queryRun
	n, tiles int64
	keys     [2]cu.DevicePtr
	perms    [2]cu.DevicePtr
	counts   cu.DevicePtr
	sums     cu.DevicePtr // the counts' scan: tile sums and total
	total    cu.DevicePtr
	minMax   cu.DevicePtr
}

func (r *queryRun) newRadixSorter(n int64) (*radixSorter, error) {
	s := &radixSorter{r: r, n: n, tiles: (n + radixTile - 1) / radixTile}
	for _, b := range []struct {
		p  *cu.DevicePtr
		sz int64
	}{{&s.keys[0], 8 * n}, {&s.keys[1], 8 * n}, {&s.perms[0], 4 * n}, {&s.perms[1], 4 * n}, {&s.counts, 8 * 256 * s.tiles},
		{&s.sums, 8 * scanTiles(256*s.tiles)}, {&s.total, 8}, {&s.minMax, 16}} {
		var err error
		if *b.p, err = r.s.alloc(max(b.sz, 16)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// encode writes key k of the rows in perm's order (0: the identity) into
// keys[0] (its NULL flag instead when nullFlag) and their minimum and
// maximum on the device.
func (s *radixSorter) encode(perm cu.DevicePtr, k sortKey, nullFlag bool) error {
	init := [2]uint64{^uint64(0), 0}
	if err := cu.MemcpyHtoD(s.minMax, unsafe.Pointer(&init[0]), 16); err != nil {
		return err
	}
	f, err := s.r.d.fn("sort_encode")
	if err != nil {
		return err
	}
	ep := encodeParams{Col: k.v, Perm: uint64(perm), N: s.n, Keys: uint64(s.keys[0]), Desc: b2i(k.desc),
		NullFlag: b2i(nullFlag), MinMax: uint64(s.minMax)}
	if err := launch(f, s.r.d.grid(s.n), 256, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
		return err
	}
	noteKernel(4*s.n*int64(min(perm, 1))+8*s.n, 8*s.n, s.n, s.n)
	return nil
}

// byKey sorts perm (0: the identity) stably by key k (or its NULL flag)
// and returns the sorted permutation: one of s.perms, or perm itself when
// no pass runs.
func (s *radixSorter) byKey(perm cu.DevicePtr, k sortKey, nullFlag bool) (cu.DevicePtr, error) {
	if err := s.encode(perm, k, nullFlag); err != nil {
		return 0, err
	}
	plan, err := s.rangePlan()
	if err != nil {
		return 0, err
	}
	out, _, err := s.sort(perm, plan, false)
	return out, err
}

// rangePlan reads back the last encoded key's minimum and maximum (the
// sort's one copy to the host per key) and plans its passes.
func (s *radixSorter) rangePlan() (radixPlan, error) {
	var mm [2]uint64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&mm[0]), s.minMax, 16); err != nil {
		return radixPlan{}, fmt.Errorf("gpu: sort failed: %v", err)
	}
	return planFromRange(mm[0], mm[1]), nil
}

// sort runs plan's passes over keys[0] (encoded, in the order of perm, 0
// for the identity) and returns the sorted permutation and, with
// wantKeys, the sorted encoded keys as 8-byte words.
func (s *radixSorter) sort(perm cu.DevicePtr, plan radixPlan, wantKeys bool) (cu.DevicePtr, cu.DevicePtr, error) {
	keys, spareKeys := s.keys[0], s.keys[1]
	wide := true // keys in keys are 8-byte words
	for i, shift := range plan.shifts {
		first, last := i == 0, i == len(plan.shifts)-1
		out := s.perms[0]
		if perm == out {
			out = s.perms[1]
		}
		p := radixSortParams{KeysIn: uint64(keys), ValsIn: uint64(perm), KeysOut: uint64(spareKeys), ValsOut: uint64(out),
			N: s.n, Tiles: s.tiles, Counts: uint64(s.counts), Shift: shift}
		if first {
			p.Sub = plan.sub
		}
		outWide := !plan.narrow
		switch {
		case last && wantKeys:
			// Keys read after the first pass lack sub (and, 32-bit, the
			// high bits every key shares): base restores them.
			outWide, p.Add = true, plan.base
			if first {
				p.Add = plan.sub
			}
		case last:
			p.KeysOut = 0
		}
		if err := s.pass(&p, wide, outWide); err != nil {
			return 0, 0, err
		}
		keys, spareKeys = spareKeys, keys
		perm = out
		wide = outWide
	}
	if !wantKeys {
		return perm, 0, nil
	}
	return perm, keys, nil
}

// pass is one stable pass: per-tile histograms, their device-wide scan,
// the ranked scatter.
func (s *radixSorter) pass(p *radixSortParams, wideIn, wideOut bool) error {
	kin := int64(4)
	up := "radix_upsweep32"
	if wideIn {
		kin, up = 8, "radix_upsweep64"
	}
	f, err := s.r.d.fn(up)
	if err != nil {
		return err
	}
	if err := launch(f, int(s.tiles), 256, 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
		return err
	}
	noteKernel(kin*s.n, 8*256*s.tiles, s.n, 256*s.tiles)
	if err := s.r.scanWith(s.counts, 256*s.tiles, s.sums, s.total); err != nil {
		return err
	}
	kout := int64(4)
	down := "radix_downsweep_" + map[bool]string{false: "32", true: "64"}[wideIn] + "_" + map[bool]string{false: "32", true: "64"}[wideOut]
	if wideOut {
		kout = 8
	}
	if p.KeysOut == 0 {
		kout = 0
	}
	if f, err = s.r.d.fn(down); err != nil {
		return err
	}
	if err := launch(f, int(s.tiles), 256, 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
		return err
	}
	noteKernel((kin+4*int64(min(p.ValsIn, 1)))*s.n+8*256*s.tiles, (kout+4)*s.n, s.n, s.n)
	return nil
}

// iotaPerm is a new permutation 0..n-1.
func (r *queryRun) iotaPerm(n int64) (cu.DevicePtr, error) {
	perm, err := r.s.alloc(4 * max(n, 2))
	if err != nil || n == 0 {
		return perm, err
	}
	f, err := r.d.fn("sort_iota")
	if err != nil {
		return 0, err
	}
	p := struct {
		Perm uint64
		N    int64
	}{uint64(perm), n}
	if err := launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return 0, err
	}
	noteKernel(0, 4*n, 0, n)
	return perm, nil
}
