//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The star pipeline's fact side (kernels/star_pipeline.cu): the fact
// table's predicates, group columns and aggregates become the kernel's
// parameters, and one launch scans the fact table into the group table,
// laid out as the plan's rule says for the groups that survived.

// factParams fills the fact table's predicates and group columns (but
// their strides: layOutSlots) and returns the fact keys' domains and the
// number of groups, dimGroups those of the dimensions'.
func (r *queryRun) factParams(q *starQuery, sp *starParams, dimGroups int64, dimPreds map[int]predParam) ([]factKey, int64, error) {
	groups := dimGroups
	preds, err := r.factPreds(q, dimPreds)
	if err != nil {
		return nil, 0, err
	}
	sp.NPreds = int32(len(preds))
	copy(sp.Preds[:], preds)
	fkeys := make([]factKey, len(q.nFact))
	for j, c := range q.nFact {
		dc, err := r.col(q.fact.Table, c)
		if err != nil {
			return nil, 0, err
		}
		if dc.isFloat {
			return nil, 0, fmt.Errorf("gpu: DOUBLE group key %s is not supported on the GPU yet", q.fact.Table.Fields[c].Name)
		}
		lo, hi, err := r.factDomain(q.fact.Table.Columns[c], dc)
		if err != nil {
			return nil, 0, err
		}
		size := hi - lo + 1
		if hi < lo {
			lo, size = 0, 0
		}
		nullable := q.fact.Table.Columns[c].Valid != nil
		if nullable {
			size++
		}
		size = max(size, 1)
		fkeys[j] = factKey{lo, size, nullable}
		sp.GCols[j] = gcolParam{Col: dc.view(), Min: lo, NullSlot: size - 1}
		if size > maxGroupTable || groups > maxGroupTable/size {
			return nil, 0, fmt.Errorf("gpu: %d x %d groups exceed the GPU's dense group table", groups, size)
		}
		groups *= size
	}
	sp.NGCols = int32(len(q.nFact))
	return fkeys, groups, nil
}

// aggParams fills the kernel's aggregates; arguments that are expressions
// are computed by the expression VM into columns first. It reports
// whether every aggregate is a COUNT or an integer SUM of columns whose
// ranges prove it cannot overflow (sumCannotOverflow).
func (r *queryRun) aggParams(q *starQuery, sp *starParams) (bool, error) {
	vmArgs := map[sql.Expr]colView{}
	sumsSafe := true
	for i, a := range q.aggs {
		ap := aggParam{Fn: a.fn, Op: a.op, IsFloat: b2i(a.isFloat)}
		if a.expr != nil {
			v, ok := vmArgs[a.expr]
			if !ok {
				x := scanExpr{e: a.expr, node: q.agg.Input, scan: q.fact}
				prog, err := r.compile(a.expr, x.colOf)
				if err != nil {
					return false, fmt.Errorf("gpu: aggregate argument %w: %v", ErrUnsupported, err)
				}
				kind := vmOutI64
				if a.expr.Type().ID == columnar.Float64 {
					kind = vmOutF64
				}
				data, valid, err := r.evalVM(prog, r.rows(q.fact.Table), 0, kind)
				if err != nil {
					return false, err
				}
				v = colView{Data: uint64(data), Valid: uint64(valid), Width: 8, IsFloat: b2i(kind == vmOutF64)}
				vmArgs[a.expr] = v
			}
			ap.A = v
		}
		var da, db *devColumn
		if a.a >= 0 {
			dc, err := r.col(q.fact.Table, a.a)
			if err != nil {
				return false, err
			}
			ap.A, da = dc.view(), dc
		}
		if a.b >= 0 {
			dc, err := r.col(q.fact.Table, a.b)
			if err != nil {
				return false, err
			}
			ap.B, db = dc.view(), dc
		}
		sp.Aggs[i] = ap
		sumsSafe = sumsSafe && aggCannotOverflow(a, da, db, int64(q.fact.Table.Rows))
	}
	sp.NAggs = int32(len(q.aggs))
	return sumsSafe, nil
}

// aggCannotOverflow reports whether aggregate a is a COUNT or an integer
// SUM of fact columns (da, db) that no rows rows can overflow.
func aggCannotOverflow(a starAgg, da, db *devColumn, rows int64) bool {
	switch {
	case a.fn == aggCountStar || a.fn == aggCount:
		return true
	case a.fn != aggSum || a.isFloat || a.expr != nil || da == nil:
		return false
	}
	bound := argBound(da)
	switch a.op {
	case exprMul:
		bound *= argBound(db)
	case exprAdd, exprSub:
		bound += argBound(db)
	}
	return sumCannotOverflow(rows, bound)
}

// launchStar allocates the group table, launches the fused kernel and
// brings the table back (readGroups: whole, or compacted on the device).
func (r *queryRun) launchStar(q *starQuery, sp *starParams, ngroups int64, prof *planner.GPUProfile, sumsSafe bool, fin *starFinish) (groupRows, error) {
	d := r.d
	W := int64(1 + len(q.aggs))
	slots := ngroups * W
	if slots*8 > maxGroupTable {
		return groupRows{}, unsupported(q.agg, fmt.Sprintf("a group table of %d groups exceeds the GPU's %d MiB limit", ngroups, maxGroupTable>>20))
	}
	sp.NGroups = ngroups
	if sp.GroupSlotValue == 0 {
		sp.ShGroups = ngroups
	}
	table, err := r.s.alloc(slots * 8)
	if err != nil {
		return groupRows{}, err
	}
	sp.Table = uint64(table)
	if sp.N >= planner.GPUMaxLaunchRows && len(r.streamed) == 0 {
		return groupRows{}, fmt.Errorf("gpu: internal error: the plan did not stream %s's %d rows (2^31 rows or more run in chunks)", q.fact.Table.Name, sp.N)
	}
	block, it := starTuning.block, starTuning.items
	var kname string
	if starTuning.fast && fastEligible(sp) {
		f := fastFeatures(sp, sumsSafe)
		if name, ok := scanKernelName(sp, ngroups, f); ok && q.scan && starTuning.scan {
			kname, it = name, scanRows
		} else {
			kname = fastKernelName(ngroups == 1, it, f)
		}
	} else if ngroups == 1 {
		kname = fmt.Sprintf("star_pipeline_scalar_%d", min(it, 8))
	} else {
		kname = fmt.Sprintf("star_pipeline_%d", min(it, 8))
	}
	shmem := 0
	if ngroups == 1 {
		// Per-thread accumulators live in shared memory.
		shmem = block * (1 + maxAggs) * 8
	} else if sp.GroupSlotValue != 0 {
		// One shared table of the remap's slots (groupRemapParams).
		sp.ReplicaStride = sp.ShGroups*W | 1
		sp.SharedReplicas = 1
		shmem = int(sp.ReplicaStride * 8)
	} else {
		// The plan's layout rule, on the groups that survived the
		// dimension filters.
		sp.ReplicaStride = slots | 1
		_, replicas := planner.GroupLayoutFor(prof, ngroups, W)
		sp.SharedReplicas = int32(replicas)
		shmem = int(int64(sp.SharedReplicas) * sp.ReplicaStride * 8)
	}
	shmem = placeRemappedDims(sp, shmem)
	kern, err := d.fn(kname)
	if err != nil {
		return groupRows{}, err
	}
	if shmem > d.maxShared {
		return groupRows{}, unsupported(q.agg, fmt.Sprintf("the kernel's shared memory (%d KiB) exceeds the device's %d KiB per block", shmem>>10, d.maxShared>>10))
	}
	blocksPerSM, err := d.launchShape(kern, block, shmem)
	if err != nil {
		return groupRows{}, err
	}
	initK, err := d.fn("group_init")
	if err != nil {
		return groupRows{}, err
	}
	r.beginChain()
	if err := r.launch(initK, min(grid1D(slots, threads), d.sms*8), threads, 0, unsafe.Pointer(sp), unsafe.Sizeof(*sp)); err != nil {
		return groupRows{}, err
	}
	noteKernel(0, slots*8, -1, -1)
	timed := timeFactKernel.Load()
	if timed {
		d.ev[0].Record(cu.Stream{})
	}
	if err := r.launchFact(kern, block*it, d.sms*blocksPerSM, block, shmem, sp); err != nil {
		return groupRows{}, err
	}
	if timed {
		d.ev[1].Record(cu.Stream{})
	}
	fact := lastKernel()
	hostSteps.mark("launches")
	groups, err := r.readGroups(q, prof, table, ngroups, W, sp.N, fin)
	if err != nil {
		return groupRows{}, err
	}
	hostSteps.mark("wait+copy")
	if kprof() != nil && len(r.streamed) == 0 {
		fetched := q.fetchedBytes(sp)
		if r.zoneScale > 0 {
			fetched = int64(float64(fetched) * r.zoneScale)
		}
		noteKernelAt(fact, fetched, slots*8, sp.N, groups.nonEmpty())
	}
	if timed {
		if ms, err := d.ev[0].Elapsed(d.ev[1]); err == nil {
			d.last = kernelTiming{name: kname, ms: ms, rows: sp.N, groups: ngroups, replicas: int(sp.SharedReplicas)}
		}
	}
	return groups, nil
}

// checkDimStatus reports what the build kernels found: duplicate keys in
// a dimension that is not a semi-join (the star needs unique dimension
// keys; the plan's fallback runs the aggregate operator at a time), or a
// key outside its statistics range (a bug).
func checkDimStatus(q *starQuery, status cu.DevicePtr) error {
	st := make([]int32, max(len(q.dims), 1))
	if err := cu.MemcpyDtoH(unsafe.Pointer(&st[0]), status, int64(4*len(st))); err != nil {
		return err
	}
	for i, s := range st[:len(q.dims)] {
		if s&1 != 0 && !q.dims[i].semi {
			return unsupported(q.dims[i].join, fmt.Sprintf("duplicate keys in the build side %s (the star pipeline needs a unique dimension key)", q.dims[i].scan.Table.Name))
		}
		if s&2 != 0 {
			return fmt.Errorf("gpu: internal error: join key of %s outside its statistics range", q.dims[i].scan.Table.Name)
		}
	}
	return nil
}

// starTuning is the fact kernel's launch shape: threads per block, rows per
// thread (kernels *_4, *_8, and *_16 for the fast path) and whether the fast
// path may be used. Benchmarks sweep it; tests run every shape.
var starTuning = tuning{block: 256, items: starItemsDefault(), fast: true, scan: scanEnabled()}

// starItemsDefault is 8 rows a thread, or GPUSQL_STAR_ITEMS (4, 8 or 16)
// where set, so that a GPU machine can compare the shapes through bench.
func starItemsDefault() int {
	switch v := os.Getenv("GPUSQL_STAR_ITEMS"); v {
	case "4", "16":
		n, _ := strconv.Atoi(v)
		return n
	}
	return 8
}

type tuning struct {
	block, items int
	fast         bool
	scan         bool // whether the star_scan kernels may take a star
}

// fastEligible reports whether the star_fast kernels apply: every fact
// column read is 32-bit (4 bytes wide, packed or narrow) without NULLs,
// predicates are integer ranges or sets (ranges clamped to the 32-bit
// domain, which loses nothing on 32-bit values), aggregates are integer.
func fastEligible(sp *starParams) bool {
	col := func(c colView) bool { return (c.Width == 4 || c.Frame != 0) && c.Valid == 0 && c.IsFloat == 0 }
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

// fetchedBytes is what the fused kernel over sp's rows fetches: the plan's
// estimate (the kernel skips the sectors of rows that failed earlier
// tests), scaled to the rows of sp (a device's part of a split fact
// table), or the columns' whole bytes where the plan has none.
func (q *starQuery) fetchedBytes(sp *starParams) int64 {
	whole := factReadBytes(sp)
	rows := int64(q.fact.Table.Rows)
	if q.fetched <= 0 || rows == 0 {
		return whole
	}
	return min(whole, int64(float64(q.fetched)*float64(sp.N)/float64(rows)))
}

// factReadBytes is what the fused kernel reads at most: each fact column
// it names once, at device width, with its validity bitmap (the kernel
// skips sectors of rows that failed earlier predicates, so it may read
// less).
func factReadBytes(sp *starParams) int64 {
	var views []colView
	for i := 0; i < int(sp.NPreds); i++ {
		views = append(views, sp.Preds[i].Col)
	}
	for i := 0; i < int(sp.NDims); i++ {
		views = append(views, sp.Dims[i].Key)
	}
	for i := 0; i < int(sp.NGCols); i++ {
		views = append(views, sp.GCols[i].Col)
	}
	for i := 0; i < int(sp.NAggs); i++ {
		views = append(views, sp.Aggs[i].A, sp.Aggs[i].B)
	}
	return viewBytes(views, sp.N)
}
