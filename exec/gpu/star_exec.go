//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// maxGroupTable bounds the global group table of a star pipeline.
const maxGroupTable = planner.GPUMaxGroupTable

// dimRun is one dimension's build state.
type dimRun struct {
	p        dimBuildParams
	sizes    []int64 // domain size of each group column (NULL slot included)
	mins     []int64
	nullable []bool
	domain   int64
	flags    cu.DevicePtr
	ranks    []int64 // payload → combined raw group value
	k        int64   // number of payloads (1 when the dimension has no group keys)
}

// queryRun holds what one query pins and allocates on the device.
type queryRun struct {
	d      *device
	s      scratch
	pinned []*devColumn
	// views are the device columns of intermediate relations, keyed by
	// their host placeholders (relation.go).
	views map[*columnar.Column]colView
	// ctx and subq: the query's context and its scalar subqueries' values.
	ctx  context.Context
	subq map[*planner.Subquery]sql.Expr
}

func (d *device) newQueryRun() *queryRun { return &queryRun{d: d, s: scratch{d: d}} }

func (r *queryRun) close() {
	r.s.release()
	for _, c := range r.pinned {
		r.d.cache.unpin(c)
	}
}

func (r *queryRun) col(t *columnar.Table, c int) (*devColumn, error) {
	dc, err := r.d.cache.get(t.Columns[c])
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", t.Name, t.Fields[c].Name, err)
	}
	r.pinned = append(r.pinned, dc)
	return dc, nil
}

// upload copies b to a new scratch allocation.
func (r *queryRun) upload(b []byte) (cu.DevicePtr, error) {
	p, err := r.s.alloc(int64(max(len(b), 8)))
	if err != nil || len(b) == 0 {
		return p, err
	}
	return p, cu.MemcpyHtoD(p, unsafe.Pointer(unsafe.SliceData(b)), int64(len(b)))
}

func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// tablePreds compiles the conjuncts on scan's columns into kernel predicates.
// Conjuncts the range/bitmap shapes cannot express, and those reading
// several columns of the scan, become flags computed by the expression VM.
func (r *queryRun) tablePreds(q *starQuery, t *columnar.Table, scanOf func(baseCol) bool) ([]predParam, error) {
	out, err := r.compilePreds(q.preds, t, scanOf)
	if err != nil {
		return nil, err
	}
	for _, x := range q.vmPreds {
		if !scanOf(baseCol{scan: x.scan}) {
			continue
		}
		p, err := r.vmScanPred(x.e, x.colOf, t)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if len(out) > maxPreds {
		return nil, fmt.Errorf("gpu: %d filtered columns of %s exceed the kernel's %d", len(out), t.Name, maxPreds)
	}
	return out, nil
}

// vmScanPred evaluates predicate e over every row of t into flags.
func (r *queryRun) vmScanPred(e sql.Expr, colOf func(int) (*columnar.Column, bool), t *columnar.Table) (predParam, error) {
	prog, err := r.compile(e, colOf)
	if err != nil {
		return predParam{}, fmt.Errorf("gpu: predicate %w: %v", ErrUnsupported, err)
	}
	return r.vmPred(prog, int64(t.Rows))
}

func (r *queryRun) compilePreds(preds map[baseCol][]sql.Expr, t *columnar.Table, scanOf func(baseCol) bool) ([]predParam, error) {
	var out []predParam
	for b, cs := range preds {
		if !scanOf(b) {
			continue
		}
		e := cs[0]
		for _, c := range cs[1:] {
			e = &sql.Binary{Op: sql.OpAnd, L: e, R: c, T: columnar.TBool}
		}
		dc, err := r.col(t, b.col)
		if err != nil {
			return nil, err
		}
		p, set, err := compilePred(e, dc, t.Fields[b.col].Type)
		if err != nil {
			// Every reference in e reads column b.col of t.
			col := t.Columns[b.col]
			if p, err = r.vmScanPred(e, func(int) (*columnar.Column, bool) { return col, true }, t); err != nil {
				return nil, err
			}
			out = append(out, p)
			continue
		}
		if set != nil {
			ptr, err := r.upload(bytesOf(set))
			if err != nil {
				return nil, err
			}
			p.Set = uint64(ptr)
		}
		out = append(out, p)
	}
	if len(out) > maxPreds {
		return nil, fmt.Errorf("gpu: %d filtered columns of %s exceed the kernel's %d", len(out), t.Name, maxPreds)
	}
	return out, nil
}

func grid1D(n int64, block int) int { return int((n + int64(block) - 1) / int64(block)) }

// runStar executes a star pipeline and returns the aggregate's output.
func (d *device) runStar(ctx context.Context, q *starQuery, outs []starOutput, prof *planner.GPUProfile) (*exec.Result, error) {
	r := d.newQueryRun()
	r.ctx = ctx
	defer r.close()

	// Dimensions: filters, group domains, marks.
	dims := make([]*dimRun, len(q.dims))
	status, err := r.s.alloc(int64(4 * max(len(q.dims), 1)))
	if err != nil {
		return nil, err
	}
	if err := cu.MemsetD32(status, 0, int64(max(len(q.dims), 1))); err != nil {
		return nil, err
	}
	mark, err := d.fn("dim_mark")
	if err != nil {
		return nil, err
	}
	for i, dm := range q.dims {
		t := dm.scan.Table
		dr := &dimRun{domain: 1, k: 1}
		dims[i] = dr
		p := &dr.p
		p.N = int64(t.Rows)
		preds, err := r.tablePreds(q, t, func(b baseCol) bool { return b.scan == dm.scan })
		if err != nil {
			return nil, err
		}
		p.NPreds = int32(len(preds))
		copy(p.Preds[:], preds)
		if len(dm.gcols) > maxGCols {
			return nil, fmt.Errorf("gpu: %d group keys from %s exceed the kernel's %d", len(dm.gcols), t.Name, maxGCols)
		}
		// Inner strides: the last group column varies fastest.
		for j, c := range dm.gcols {
			dc, err := r.col(t, c)
			if err != nil {
				return nil, err
			}
			if dc.isFloat {
				return nil, fmt.Errorf("gpu: DOUBLE group key %s.%s is not supported on the GPU yet", t.Name, t.Fields[c].Name)
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
				return nil, fmt.Errorf("gpu: group keys of %s span %d values, more than the GPU's dense limit", t.Name, dr.domain)
			}
		}
		p.NGCols = int32(len(dm.gcols))
		kc, err := r.col(t, dm.key)
		if err != nil {
			return nil, err
		}
		if kc.isFloat {
			return nil, fmt.Errorf("gpu: DOUBLE join key %s.%s is not supported on the GPU yet", t.Name, t.Fields[dm.key].Name)
		}
		p.Key = kc.view()
		p.Status = uint64(status) + uint64(4*i)
		if len(dm.gcols) > 0 {
			if dr.flags, err = r.s.alloc(dr.domain); err != nil {
				return nil, err
			}
			if err := cu.MemsetD8(dr.flags, 0, dr.domain); err != nil {
				return nil, err
			}
			p.Flags = uint64(dr.flags)
			if err := launch(mark, grid1D(p.N, threads), threads, 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
				return nil, err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Dense ranks of the surviving group values.
	for _, dr := range dims {
		if dr.flags == 0 {
			dr.ranks = []int64{0}
			continue
		}
		flags := make([]byte, dr.domain)
		if err := cu.MemcpyDtoH(unsafe.Pointer(&flags[0]), dr.flags, dr.domain); err != nil {
			return nil, fmt.Errorf("gpu: dimension build failed: %v", err)
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
			return nil, err
		}
		dr.p.Rank = uint64(ptr)
	}
	// Join tables.
	build, err := d.fn("dim_build")
	if err != nil {
		return nil, err
	}
	var sp starParams
	sp.N = int64(q.fact.Table.Rows)
	strideAcc := int64(1)
	for i, dm := range q.dims {
		dr := dims[i]
		p := &dr.p
		kc, _ := r.col(dm.scan.Table, dm.key)
		lo, span := kc.min, kc.max-kc.min+1
		if kc.max < kc.min {
			lo, span = 0, 1
		}
		dp := dimParam{Stride: strideAcc}
		if dm.build.Direct {
			mp, err := r.s.alloc(4 * span)
			if err != nil {
				return nil, err
			}
			if err := cu.MemsetD32(mp, math.MaxUint32, span); err != nil {
				return nil, err
			}
			p.Map, p.KeyMin, p.MapLen = uint64(mp), lo, span
			dp.Map, dp.KeyMin, dp.MapLen = uint64(mp), lo, span
		} else {
			capacity := int64(1)
			for capacity < 2*max(p.N, 1) {
				capacity <<= 1
			}
			mp, err := r.s.alloc(4 * capacity)
			if err != nil {
				return nil, err
			}
			hk, err := r.s.alloc(8 * capacity)
			if err != nil {
				return nil, err
			}
			if err := r.fillI64(hk, math.MinInt64, capacity); err != nil { // EMPTY_KEY
				return nil, err
			}
			p.Map, p.HKeys, p.HMask = uint64(mp), uint64(hk), capacity-1
			dp.Map, dp.HKeys, dp.HMask = uint64(mp), uint64(hk), capacity-1
		}
		if err := launch(build, grid1D(p.N, threads), threads, 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
			return nil, err
		}
		fk, err := r.col(q.fact.Table, dm.probe.col)
		if err != nil {
			return nil, err
		}
		dp.Key = fk.view()
		sp.Dims[i] = dp
		strideAcc *= dr.k
	}
	sp.NDims = int32(len(q.dims))
	// Fact side.
	preds, err := r.tablePreds(q, q.fact.Table, func(b baseCol) bool { return b.scan == q.fact })
	if err != nil {
		return nil, err
	}
	sp.NPreds = int32(len(preds))
	copy(sp.Preds[:], preds)
	fkeys := make([]factKey, len(q.nFact))
	for j, c := range q.nFact {
		dc, err := r.col(q.fact.Table, c)
		if err != nil {
			return nil, err
		}
		if dc.isFloat {
			return nil, fmt.Errorf("gpu: DOUBLE group key %s is not supported on the GPU yet", q.fact.Table.Fields[c].Name)
		}
		lo, size := dc.min, dc.max-dc.min+1
		if dc.max < dc.min {
			lo, size = 0, 0
		}
		nullable := q.fact.Table.Columns[c].Valid != nil
		if nullable {
			size++
		}
		size = max(size, 1)
		fkeys[j] = factKey{lo, size, nullable}
		sp.GCols[j] = gcolParam{Col: dc.view(), Min: lo, Stride: strideAcc, NullSlot: size - 1}
		if size > maxGroupTable || strideAcc > maxGroupTable/size {
			return nil, fmt.Errorf("gpu: %d x %d groups exceed the GPU's dense group table", strideAcc, size)
		}
		strideAcc *= size
	}
	sp.NGCols = int32(len(q.nFact))
	vmArgs := map[sql.Expr]colView{}
	for i, a := range q.aggs {
		ap := aggParam{Fn: a.fn, Op: a.op, IsFloat: b2i(a.isFloat)}
		if a.expr != nil {
			v, ok := vmArgs[a.expr]
			if !ok {
				x := scanExpr{e: a.expr, node: q.agg.Input, scan: q.fact}
				prog, err := r.compile(a.expr, x.colOf)
				if err != nil {
					return nil, fmt.Errorf("gpu: aggregate argument %w: %v", ErrUnsupported, err)
				}
				kind := vmOutI64
				if a.expr.Type().ID == columnar.Float64 {
					kind = vmOutF64
				}
				data, valid, err := r.evalVM(prog, int64(q.fact.Table.Rows), 0, kind)
				if err != nil {
					return nil, err
				}
				v = colView{Data: uint64(data), Valid: uint64(valid), Width: 8, IsFloat: b2i(kind == vmOutF64)}
				vmArgs[a.expr] = v
			}
			ap.A = v
		}
		if a.a >= 0 {
			dc, err := r.col(q.fact.Table, a.a)
			if err != nil {
				return nil, err
			}
			ap.A = dc.view()
		}
		if a.b >= 0 {
			dc, err := r.col(q.fact.Table, a.b)
			if err != nil {
				return nil, err
			}
			ap.B = dc.view()
		}
		sp.Aggs[i] = ap
	}
	sp.NAggs = int32(len(q.aggs))
	ngroups := strideAcc
	W := int64(1 + len(q.aggs))
	slots := ngroups * W
	if slots*8 > maxGroupTable {
		return nil, unsupported(q.agg, fmt.Sprintf("a group table of %d groups exceeds the GPU's %d MiB limit", ngroups, maxGroupTable>>20))
	}
	sp.NGroups = ngroups
	table, err := r.s.alloc(slots * 8)
	if err != nil {
		return nil, err
	}
	sp.Table = uint64(table)
	if sp.N >= 1<<31 {
		return nil, fmt.Errorf("gpu: fact tables of 2^31 rows or more are not supported on the GPU yet (%s has %d)", q.fact.Table.Name, sp.N)
	}
	block, it := starTuning.block, starTuning.items
	family := "star_pipeline"
	if starTuning.fast && fastEligible(&sp) {
		family = "star_fast"
	} else {
		it = min(it, 8)
	}
	kname := fmt.Sprintf("%s_%d", family, it)
	shmem := 0
	if ngroups == 1 {
		// Per-thread accumulators live in shared memory.
		kname = fmt.Sprintf("%s_scalar_%d", family, it)
		shmem = block * (1 + maxAggs) * 8
	} else {
		// The plan's layout rule, on the groups that survived the
		// dimension filters.
		sp.ReplicaStride = slots | 1
		_, replicas := planner.GroupLayoutFor(prof, ngroups, W)
		sp.SharedReplicas = int32(replicas)
		shmem = int(int64(sp.SharedReplicas) * sp.ReplicaStride * 8)
	}
	kern, err := d.fn(kname)
	if err != nil {
		return nil, err
	}
	if shmem > 48<<10 {
		if err := setMaxDynamicShared(kern, shmem); err != nil {
			return nil, err
		}
	}
	blocksPerSM := 2
	if occ, err := kern.MaxActiveBlocksPerMultiProcessor(block, int64(shmem)); err == nil && occ > 0 {
		blocksPerSM = occ
	}
	initK, err := d.fn("group_init")
	if err != nil {
		return nil, err
	}
	if err := launch(initK, min(grid1D(slots, threads), d.sms*8), threads, 0, unsafe.Pointer(&sp), unsafe.Sizeof(sp)); err != nil {
		return nil, err
	}
	tiles := grid1D(sp.N, block*it)
	d.ev[0].Record(cu.Stream{})
	if err := launch(kern, min(tiles, d.sms*blocksPerSM), block, shmem, unsafe.Pointer(&sp), unsafe.Sizeof(sp)); err != nil {
		return nil, err
	}
	d.ev[1].Record(cu.Stream{})
	host := make([]uint64, slots)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), table, slots*8); err != nil {
		return nil, fmt.Errorf("gpu: star pipeline failed: %v", err)
	}
	if ms, err := d.ev[0].Elapsed(d.ev[1]); err == nil {
		d.last = kernelTiming{name: "star_pipeline", ms: ms, rows: sp.N, groups: ngroups, replicas: int(sp.SharedReplicas)}
	}
	st := make([]int32, max(len(q.dims), 1))
	if err := cu.MemcpyDtoH(unsafe.Pointer(&st[0]), status, int64(4*len(st))); err != nil {
		return nil, err
	}
	for i, s := range st[:len(q.dims)] {
		if s&1 != 0 && !q.dims[i].semi {
			return nil, unsupported(q.dims[i].join, fmt.Sprintf("duplicate keys in the build side %s (the star pipeline needs a unique dimension key)", q.dims[i].scan.Table.Name))
		}
		if s&2 != 0 {
			return nil, fmt.Errorf("gpu: internal error: join key of %s outside its statistics range", q.dims[i].scan.Table.Name)
		}
	}
	return decodeStar(q, outs, dims, fkeys, host, W)
}

// starTuning is the fact kernel's launch shape: threads per block, rows per
// thread (kernels *_4, *_8, and *_16 for the fast path) and whether the fast
// path may be used. Benchmarks sweep it; tests run every shape.
var starTuning = tuning{block: 256, items: 8, fast: true}

type tuning struct {
	block, items int
	fast         bool
}

// fastEligible reports whether the star_fast kernels apply: every fact
// column read is 4 bytes wide without NULLs, predicates are integer ranges
// or sets (ranges clamped to the 32-bit domain, which loses nothing on
// 32-bit values), aggregates are integer.
func fastEligible(sp *starParams) bool {
	col := func(c colView) bool { return c.Width == 4 && c.Valid == 0 && c.IsFloat == 0 }
	for i := 0; i < int(sp.NPreds); i++ {
		p := &sp.Preds[i]
		if !col(p.Col) || (p.Kind != predRange && p.Kind != predSet) || p.NullPass != 0 {
			return false
		}
		if p.Kind == predSet && (p.Lo < math.MinInt32 || p.Lo > math.MaxInt32) {
			return false
		}
	}
	for i := 0; i < int(sp.NDims); i++ {
		if !col(sp.Dims[i].Key) || sp.Dims[i].KeyMin < math.MinInt32 || sp.Dims[i].KeyMin > math.MaxInt32 {
			return false
		}
	}
	for i := 0; i < int(sp.NGCols); i++ {
		if !col(sp.GCols[i].Col) {
			return false
		}
	}
	for i := 0; i < int(sp.NAggs); i++ {
		a := &sp.Aggs[i]
		if a.IsFloat != 0 || a.Fn != aggCountStar && !col(a.A) || a.Op != exprA && !col(a.B) {
			return false
		}
	}
	for i := 0; i < int(sp.NPreds); i++ {
		p := &sp.Preds[i]
		p.Lo, p.Hi = max(p.Lo, math.MinInt32), min(p.Hi, math.MaxInt32)
		if p.Lo > p.Hi && p.Kind == predRange {
			p.Lo, p.Hi = 1, 0
		}
	}
	return true
}

// factKey is the dense domain of a fact-table group column.
type factKey struct {
	lo, size int64
	nullable bool
}

func (r *queryRun) fillI64(p cu.DevicePtr, v int64, n int64) error {
	f, err := r.d.fn("fill_i64")
	if err != nil {
		return err
	}
	a := struct {
		P    uint64
		V, N int64
	}{uint64(p), v, n}
	return launch(f, min(grid1D(n, threads), r.d.sms*8), threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
}

// decodeStar turns the group table into the aggregate's output: one row
// per non-empty group (exactly one without GROUP BY), group columns first.
func decodeStar(q *starQuery, outs []starOutput, dims []*dimRun, fkeys []factKey, host []uint64, W int64) (*exec.Result, error) {
	ngroups := int64(len(host)) / W
	var groups []int64
	if len(q.keys) == 0 {
		groups = []int64{0}
	} else {
		for g := int64(0); g < ngroups; g++ {
			if host[g*W] != 0 {
				groups = append(groups, g)
			}
		}
	}
	n := len(groups)
	res := &exec.Result{Rows: n}
	schema := q.agg.Out
	for _, c := range schema {
		res.Names = append(res.Names, c.Name)
	}
	// Group keys.
	sizes := make([]int64, 0, len(dims)+len(fkeys))
	for _, dr := range dims {
		sizes = append(sizes, dr.k)
	}
	for _, fk := range fkeys {
		sizes = append(sizes, fk.size)
	}
	for ki, k := range q.keys {
		var src *columnar.Column
		if k.dim >= 0 {
			dm := q.dims[k.dim]
			src = dm.scan.Table.Columns[dm.gcols[k.j]]
		} else {
			src = q.fact.Table.Columns[q.nFact[k.j]]
		}
		col := columnar.NewColumnIn(columnar.HeapAllocator, schema[ki].Type, n, src.Valid != nil)
		col.Dict = src.Dict
		for row, g := range groups {
			var comp int64 // component index of this key in the group index
			if k.dim >= 0 {
				comp = int64(k.dim)
			} else {
				comp = int64(len(dims) + k.j)
			}
			digit := g
			for c := int64(0); c < comp; c++ {
				digit /= sizes[c]
			}
			digit %= sizes[comp]
			var v int64
			var null bool
			if k.dim >= 0 {
				dr := dims[k.dim]
				raw := dr.ranks[digit]
				inner := int64(1)
				for j := len(dr.sizes) - 1; j > k.j; j-- {
					inner *= dr.sizes[j]
				}
				dj := raw / inner % dr.sizes[k.j]
				null = dr.nullable[k.j] && dj == dr.sizes[k.j]-1
				v = dr.mins[k.j] + dj
			} else {
				fk := fkeys[k.j]
				null = fk.nullable && digit == fk.size-1
				v = fk.lo + digit
			}
			if null {
				col.SetNull(row)
				continue
			}
			if col.Valid != nil {
				col.SetValid(row)
			}
			setInt(col, row, v)
		}
		res.Columns = append(res.Columns, col)
	}
	// Aggregates.
	for oi, o := range outs {
		t := schema[len(q.keys)+oi].Type
		col := columnar.NewColumnIn(columnar.HeapAllocator, t, n, true)
		if o.ae.Arg != nil {
			if r, ok := colRefUnder(o.ae.Arg); ok && t.ID == columnar.String {
				col.Dict = r.Col.Dict
			}
		}
		a := q.aggs[o.slot]
		for row, g := range groups {
			base := g * W
			cnt := host[base]
			if o.countSlot >= 0 {
				cnt = host[base+1+int64(o.countSlot)]
			}
			v := host[base+1+int64(o.slot)]
			switch {
			case o.ae.Func == sql.AggCountStar || o.ae.Func == sql.AggCount:
				setInt(col, row, int64(v))
			case cnt == 0:
				col.SetNull(row)
				continue
			case o.ae.Func == sql.AggAvg:
				if a.isFloat || t.ID == columnar.Float64 {
					sum := math.Float64frombits(v)
					if !a.isFloat {
						sum = float64(int64(v))
					}
					col.F64[row] = sum / float64(cnt)
				} else {
					argScale := 0
					if o.ae.Arg.Type().ID == columnar.Decimal {
						argScale = o.ae.Arg.Type().Scale
					}
					setInt(col, row, avgScaled(int64(v), int64(cnt), t.Scale-argScale))
				}
			case a.isFloat:
				col.F64[row] = math.Float64frombits(v)
			default:
				setInt(col, row, int64(v))
			}
			col.SetValid(row)
		}
		res.Columns = append(res.Columns, col)
	}
	return res, nil
}

// avgScaled is sum/count scaled up by 10^up, rounded half away from zero.
func avgScaled(sum, count int64, up int) int64 {
	num := big.NewInt(sum)
	if up > 0 {
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(up)), nil))
	}
	den := big.NewInt(count)
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	m.Abs(m).Lsh(m, 1)
	if m.Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q.Int64()
}

// setInt stores v into row i of an integer-physical column.
func setInt(c *columnar.Column, i int, v int64) {
	switch {
	case c.I32 != nil:
		c.I32[i] = int32(v)
	case c.I64 != nil:
		c.I64[i] = v
	case c.F64 != nil:
		c.F64[i] = float64(v)
	}
}
