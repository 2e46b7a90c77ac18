//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
)

// The star pipeline's dimension side (kernels/hash_build.cu): per dimension
// a mark kernel applies its filters and flags the group values of the rows
// that survive; the host ranks the flagged values densely (the dimension's
// digit of the group index); a build kernel fills the join table the plan
// chose (direct array or hash table) with each surviving row's rank.

// markDims applies each dimension's filters and flags its surviving group
// values. status gets one word per dimension: bit 0 duplicate keys, bit 1
// a key outside the statistics range; it is allocated (and cleared on the
// device) only when some dimension is built, not found in the cache.
func (r *queryRun) markDims(q *starQuery) ([]*dimRun, cu.DevicePtr, error) {
	dims := make([]*dimRun, len(q.dims))
	var status cu.DevicePtr
	mark, err := r.d.fn("dim_mark")
	if err != nil {
		return nil, 0, err
	}
	for i, dm := range q.dims {
		t := dm.scan.Table
		key, cols := r.dimBuildKey(q, i)
		if b := r.d.dims.lookup(key); key != "" && b != nil {
			dims[i] = b.cachedRun()
			countDimBuild(true)
			continue
		}
		countDimBuild(false)
		if status == 0 {
			if status, err = r.dimStatus(len(q.dims)); err != nil {
				return nil, 0, err
			}
			hostSteps.mark("dims-status")
		}
		dr := &dimRun{domain: 1, k: 1, cacheKey: key, cols: cols}
		dims[i] = dr
		p := &dr.p
		p.N = int64(t.Rows)
		preds, err := r.tablePreds(q, t, func(b baseCol) bool { return b.scan == dm.scan })
		if err != nil {
			return nil, 0, err
		}
		p.NPreds = int32(len(preds))
		copy(p.Preds[:], preds)
		hostSteps.mark("dims-preds")
		if len(dm.gcols) > maxGCols {
			return nil, 0, fmt.Errorf("gpu: %d group keys from %s exceed the kernel's %d", len(dm.gcols), t.Name, maxGCols)
		}
		// Inner strides: the last group column varies fastest.
		for j, c := range dm.gcols {
			dc, err := r.col(t, c)
			if err != nil {
				return nil, 0, err
			}
			if dc.isFloat {
				return nil, 0, fmt.Errorf("gpu: DOUBLE group key %s.%s is not supported on the GPU yet", t.Name, t.Fields[c].Name)
			}
			lo, size := dc.min, dc.max-dc.min+1
			if dc.max < dc.min {
				lo, size = 0, 0
			}
			nullable := t.Columns[c].Valid != nil
			if nullable {
				size++
			}
			size = max(size, 1)
			dr.sizes, dr.mins, dr.nullable = append(dr.sizes, size), append(dr.mins, lo), append(dr.nullable, nullable)
			p.GCols[j] = gcolParam{Col: dc.view(), Min: lo, NullSlot: size - 1}
		}
		for j := len(dm.gcols) - 1; j >= 0; j-- {
			p.GCols[j].Stride = dr.domain
			dr.domain *= dr.sizes[j]
			if dr.domain > planner.GPUMaxDimGroupDomain {
				return nil, 0, fmt.Errorf("gpu: group keys of %s span %d values, more than the GPU's dense limit", t.Name, dr.domain)
			}
		}
		p.NGCols = int32(len(dm.gcols))
		kc, err := r.col(t, dm.key)
		if err != nil {
			return nil, 0, err
		}
		hostSteps.mark("dims-cols")
		if kc.isFloat {
			return nil, 0, fmt.Errorf("gpu: DOUBLE join key %s.%s is not supported on the GPU yet", t.Name, t.Fields[dm.key].Name)
		}
		p.Key = kc.view()
		p.Status = uint64(status) + uint64(4*i)
		if isZoneDim(q, i) {
			if err := r.keyRangeBuffer(dr); err != nil {
				return nil, 0, err
			}
		}
		if len(dm.gcols) > 0 {
			if dr.flags, err = r.s.alloc(dr.domain); err != nil {
				return nil, 0, err
			}
			if err := cu.MemsetD8(dr.flags, 0, dr.domain); err != nil {
				return nil, 0, err
			}
			hostSteps.mark("dims-flags")
			p.Flags = uint64(dr.flags)
			if err := launch(mark, grid1D(p.N, threads), threads, 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
				return nil, 0, err
			}
			noteKernel(dimReadBytes(p), dr.domain, p.N, -1)
		}
	}
	return dims, status, nil
}

// dimStatus allocates and clears the build status words of n dimensions.
func (r *queryRun) dimStatus(n int) (cu.DevicePtr, error) {
	status, err := r.s.alloc(int64(4 * max(n, 1)))
	if err != nil {
		return 0, err
	}
	return status, cu.MemsetD32(status, 0, int64(max(n, 1)))
}

// rankGroups numbers each dimension's surviving group values densely and
// uploads the value → rank map the build kernel reads.
func (r *queryRun) rankGroups(dims []*dimRun) error {
	for _, dr := range dims {
		if dr.cached != nil {
			continue
		}
		if dr.flags == 0 {
			dr.ranks = []int64{0}
			continue
		}
		flags := make([]byte, dr.domain)
		if err := cu.MemcpyDtoH(unsafe.Pointer(&flags[0]), dr.flags, dr.domain); err != nil {
			return fmt.Errorf("gpu: dimension build failed: %v", err)
		}
		rank := make([]int32, dr.domain)
		dr.ranks = dr.ranks[:0]
		for g, f := range flags {
			rank[g] = -1
			if f != 0 {
				rank[g] = int32(len(dr.ranks))
				dr.ranks = append(dr.ranks, int64(g))
			}
		}
		dr.k = max(int64(len(dr.ranks)), 1)
		ptr, err := r.upload(bytesOf(rank))
		if err != nil {
			return err
		}
		dr.p.Rank = uint64(ptr)
	}
	return nil
}

// buildJoinTables builds each dimension's join table, as the plan chose
// it, and fills the fact kernel's probe parameters but their strides
// (layOutSlots). It returns the number of the dimensions' group
// combinations.
func (r *queryRun) buildJoinTables(q *starQuery, dims []*dimRun, sp *starParams) (int64, map[int]predParam, error) {
	groups := int64(1)
	probes := 0
	filters := map[int]predParam{}
	for i, dm := range q.dims {
		dr := dims[i]
		dp, err := r.dimJoinTable(dm, dr)
		if err != nil {
			return 0, nil, err
		}
		hostSteps.mark("dims")
		fk, err := r.col(q.fact.Table, dm.probe.col)
		if err != nil {
			return 0, nil, err
		}
		hostSteps.mark("fact-keys")
		dp.Key = fk.view()
		if dm.asFilter {
			// Its payload is always 0 (no group column): the key's bit is
			// the whole test.
			if dp.Bits == 0 || dp.HKeys != 0 {
				return 0, nil, fmt.Errorf("gpu: internal error: dimension %s tested as a filter has no bitmap", dm.scan.Table.Name)
			}
			filters[i] = predParam{Col: dp.Key, Kind: predSet, Lo: dp.KeyMin, Set: dp.Bits, SetLen: dp.MapLen}
			continue
		}
		dp.BitsOnly = b2i(dm.build.BitsOnly && dp.Bits != 0)
		if dm.payload.Layout == planner.PayloadSharedRemapped {
			if err := r.remapParams(&dp, dm.payload.Remap, sp); err != nil {
				return 0, nil, err
			}
		}
		sp.Dims[probes] = dp
		probes++
		groups *= dr.k
	}
	sp.NDims = int32(probes)
	return groups, filters, nil
}

// dimJoinTable builds one dimension's join table, or takes it from the
// dimension build cache, and returns the fact kernel's probe parameters
// for it (without the fact side's Key and Stride).
func (r *queryRun) dimJoinTable(dm *starDim, dr *dimRun) (dimParam, error) {
	if dr.cached != nil {
		return dr.cached.dp, nil
	}
	build, err := r.d.fn("dim_build")
	if err != nil {
		return dimParam{}, err
	}
	p := &dr.p
	kc, _ := r.col(dm.scan.Table, dm.key)
	lo, span := kc.min, kc.max-kc.min+1
	if kc.max < kc.min {
		lo, span = 0, 1
	}
	var dp dimParam
	if dm.build.Direct {
		mp, err := r.allocBuild(dr, 4*span)
		if err != nil {
			return dp, err
		}
		if err := cu.MemsetD32(mp, math.MaxUint32, span); err != nil {
			return dp, err
		}
		p.Map, p.KeyMin, p.MapLen = uint64(mp), lo, span
		dp.Map, dp.KeyMin, dp.MapLen = uint64(mp), lo, span
	} else {
		capacity := dm.build.Capacity
		mp, err := r.allocBuild(dr, 4*capacity)
		if err != nil {
			return dp, err
		}
		hk, err := r.allocBuild(dr, 8*capacity)
		if err != nil {
			return dp, err
		}
		if err := r.fillI64(hk, math.MinInt64, capacity); err != nil { // EMPTY_KEY
			return dp, err
		}
		p.Map, p.HKeys, p.HMask = uint64(mp), uint64(hk), capacity-1
		dp.Map, dp.HKeys, dp.HMask = uint64(mp), uint64(hk), capacity-1
	}
	if err := launch(build, grid1D(p.N, threads), threads, 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
		return dp, err
	}
	noteKernel(dimReadBytes(p), -1, p.N, -1)
	if dm.build.Direct && dm.build.Bitmap {
		if err := r.dimBits(dr, &dp); err != nil {
			return dp, err
		}
		if dm.asFilter {
			if err := r.trimToBits(&dp); err != nil {
				return dp, err
			}
		}
	}
	dr.built = dp
	return dp, nil
}

// dimBits builds the bitmap of dp's direct table (kernels/dim_bits.cu),
// kept with the build like the table itself.
func (r *queryRun) dimBits(dr *dimRun, dp *dimParam) error {
	f, err := r.d.fn("dim_bits")
	if err != nil {
		return err
	}
	words := (dp.MapLen + 31) / 32
	bits, err := r.allocBuild(dr, 4*words)
	if err != nil {
		return err
	}
	a := struct {
		Map  uint64
		N    int64
		Bits uint64
	}{dp.Map, dp.MapLen, uint64(bits)}
	if err := launch(f, grid1D(32*words, threads), threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
		return err
	}
	noteKernel(4*dp.MapLen, 4*words, dp.MapLen, -1)
	dp.Bits = uint64(bits)
	return nil
}

// dimReadBytes is what a dimension kernel reads: each column it names
// once, at device width, with its validity bitmap.
func dimReadBytes(p *dimBuildParams) int64 {
	views := []colView{p.Key}
	for i := 0; i < int(p.NPreds); i++ {
		views = append(views, p.Preds[i].Col)
	}
	for i := 0; i < int(p.NGCols); i++ {
		views = append(views, p.GCols[i].Col)
	}
	return viewBytes(views, p.N)
}

// viewBytes is n rows of each distinct column among views.
func viewBytes(views []colView, n int64) int64 {
	seen := map[uint64]bool{}
	var b int64
	for _, v := range views {
		if v.Data == 0 || seen[v.Data] {
			continue
		}
		seen[v.Data] = true
		b += v.valueBytes(n)
		if v.Valid != 0 {
			b += (n + 7) / 8
		}
	}
	return b
}

// trimToBits narrows a direct table with a bitmap to the bitmap's words
// that hold a surviving key (kernels/dim_bits.cu, dim_bits_bounds): its
// keys outside them fail the range test without a read of the bitmap,
// which a dimension tested as the first fact filter does for every fact
// row. The map and bitmap stay as built; dp points into them, 32 keys a
// word (an empty range when no key survives). It costs a synchronization
// when the dimension is built; the build cache keeps the result.
func (r *queryRun) trimToBits(dp *dimParam) error {
	f, err := r.d.fn("dim_bits_bounds")
	if err != nil {
		return err
	}
	out, err := r.s.alloc(16)
	if err != nil {
		return err
	}
	words := (dp.MapLen + 31) / 32
	a := struct {
		Bits  uint64
		Words int64
		Out   uint64
	}{dp.Bits, words, uint64(out)}
	if err := launch(f, 1, threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
		return err
	}
	noteKernel(4*words, 16, words, -1)
	var b [2]int64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&b[0]), out, 16); err != nil {
		return err
	}
	first, last := b[0], b[1]
	if last < first {
		dp.MapLen = 0
		return nil
	}
	dp.Bits += uint64(4 * first)
	dp.Map += uint64(4 * 32 * first)
	dp.KeyMin += 32 * first
	dp.MapLen = min(dp.MapLen-32*first, 32*(last-first+1))
	return nil
}
