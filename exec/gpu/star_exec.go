//go:build cuda

package gpu

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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
	// The dimension build cache (star_dim_cache.go): cached is the build
	// found there; otherwise cacheKey ("" when not cacheable) names the one
	// made now, whose join table (built) lives in owned, not in scratch.
	cached     *dimBuild
	cacheKey   string
	cols       []*columnar.Column
	built      dimParam
	owned      []cu.DevicePtr
	ownedBytes int64
	// keys is the join key interval its build found (star_dim_zones.go).
	keys keyRange
}

// queryRun holds what one query pins and allocates on the device.
type queryRun struct {
	d      *device
	s      scratch
	pinned []*devColumn
	// inPlace are fact columns read in place by a cold run; behind their
	// entries, allocated while its fact kernel runs and loaded when it
	// ends (column_in_place.go).
	inPlace []*devColumn
	behind  []behindLoad
	// ahead are the fact columns whose copies it started before the
	// dimension builds (column_ahead.go).
	ahead []*devColumn
	// views are the device columns of intermediate relations, keyed by
	// their host placeholders (relation.go).
	views map[*columnar.Column]colView
	// ctx and subq: the query's context and its scalar subqueries' values.
	ctx  context.Context
	subq map[*planner.Subquery]sql.Expr
	// streamed are the fact columns the star kernel reads chunk by chunk
	// (streaming.go).
	streamed []streamedCol
	// unadopted are dimension builds allocated for the cache and not yet
	// handed to it.
	unadopted []*dimRun
	// part, when set, is the device's row range of a split plan's fact
	// table (star_split.go).
	part *factPart
	// recording and chain: the kernels launched since beginChain, kept to
	// be started together by endChain (launch_graph.go).
	recording bool
	chain     []launchRecord
	// zoneScale, when not 0, is the share of the plan's live fact chunks
	// left after the dimension key intervals (star_dim_zones.go).
	zoneScale float64
	// setOps are the GPU plan's algorithms for DISTINCT and set
	// operations (set_op_sort.go).
	setOps map[planner.Node]planner.GPUSetChoice
	// presorted are the Sorts and TopNs whose input arrives in order from
	// a sort-based DISTINCT or set operation.
	presorted map[planner.Node]planner.Node
	// joinPasses are the hash joins that run in passes over partitions
	// (hash_join_passes.go).
	joinPasses map[planner.Node]*planner.GPUJoinPasses
	// fixed are relations that stand for plan nodes already computed: a
	// join folded pass by pass is one pass's rows (aggregate_passes.go).
	fixed map[planner.Node]*relation
}

func (d *device) newQueryRun() *queryRun { return &queryRun{d: d, s: scratch{d: d}} }

func (r *queryRun) close() {
	r.settleAheadAll()
	r.freeUnadopted()
	r.s.release()
	for _, c := range r.pinned {
		r.d.cache.unpin(c)
	}
	r.d.cache.reclaim()
	r.allocBehind()
	if len(r.behind) > 0 {
		hostSteps.mark("release")
		r.d.cache.launchBehind(r.behind)
		hostSteps.mark("load-behind")
	}
}

// allocBehind allocates the entries the columns read in place will be
// loaded into (column_in_place.go).
func (r *queryRun) allocBehind() {
	if len(r.inPlace) > 0 {
		r.behind = append(r.behind, r.d.cache.allocBehind(r.inPlace)...)
		r.inPlace = nil
	}
}

func (r *queryRun) col(t *columnar.Table, c int) (*devColumn, error) {
	dc, err := r.column(t.Columns[c], true)
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", t.Name, t.Fields[c].Name, err)
	}
	return dc, nil
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
	out, err := r.compilePreds(q.preds, q.predOrder(scanOf), t)
	if err != nil {
		return nil, err
	}
	return r.withVMPreds(q, out, t, scanOf)
}

// factPreds compiles the fact table's filters in the plan's order: its
// columns' conjuncts, and the dimensions tested as filters (dimPreds, by
// dimension), then the expression VM's flags.
func (r *queryRun) factPreds(q *starQuery, dimPreds map[int]predParam) ([]predParam, error) {
	var out []predParam
	for _, f := range q.factFilters {
		if f.dim >= 0 {
			p, ok := dimPreds[f.dim]
			if !ok {
				return nil, fmt.Errorf("gpu: internal error: dimension %s has no filter bitmap", q.dims[f.dim].scan.Table.Name)
			}
			out = append(out, p)
			continue
		}
		ps, err := r.compilePreds(q.preds, []baseCol{{q.fact, f.col}}, q.fact.Table)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return r.withVMPreds(q, out, q.fact.Table, func(b baseCol) bool { return b.scan == q.fact })
}

// withVMPreds appends the expression VM's flags of the scan scanOf
// accepts to out.
func (r *queryRun) withVMPreds(q *starQuery, out []predParam, t *columnar.Table, scanOf func(baseCol) bool) ([]predParam, error) {
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
	return r.vmPred(prog, r.rows(t))
}

// predOrder lists the filtered columns of a dimension scanOf accepts, by
// column.
func (q *starQuery) predOrder(scanOf func(baseCol) bool) []baseCol {
	var cols []baseCol
	for b := range q.preds {
		if scanOf(b) {
			cols = append(cols, b)
		}
	}
	slices.SortFunc(cols, func(a, b baseCol) int { return cmp.Compare(a.col, b.col) })
	return cols
}

func (r *queryRun) compilePreds(preds map[baseCol][]sql.Expr, order []baseCol, t *columnar.Table) ([]predParam, error) {
	var out []predParam
	for _, b := range order {
		cs := preds[b]
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

// runStar executes the planned star pipeline and returns the aggregate's
// output, sorted by ps (when not nil) if it could (sorted).
func (d *device) runStar(ctx context.Context, q *starQuery, outs []starOutput, prof *planner.GPUProfile, ps *planner.GPUStarSort) (res *exec.Result, sorted bool, err error) {
	t, err := d.starTable(ctx, q, prof, nil, &finishFor{outs, ps})
	if err != nil {
		return nil, false, err
	}
	if fin := t.groups.fin; fin != nil {
		res, sorted = fin.result(q)
		if !sorted {
			sorted = presort(res, ps, &d.sortScratch)
		}
		hostSteps.mark("decode")
		return res, sorted, nil
	}
	res, err = decodeStar(q, outs, t.dims, t.fkeys, t.groups, &d.sortScratch)
	if err != nil {
		return nil, false, err
	}
	sorted = sortDecoded(q, res, ps, t.dims, t.fkeys, &d.sortScratch)
	hostSteps.mark("decode")
	return res, sorted, nil
}

// finishFor is what the device finish of a star's groups needs besides
// the star: its outputs and the order they are wanted in.
type finishFor struct {
	outs []starOutput
	ps   *planner.GPUStarSort
}

// starGroups is a star pipeline's group table back on the host with what
// decoding it needs.
type starGroups struct {
	groups groupRows
	dims   []*dimRun
	fkeys  []factKey
}

// starTable runs the star pipeline over the fact table, or over part of
// it (a device's range of a split plan; nil: all of it): dimension builds
// (filters, surviving group values, join tables), then the fused fact
// kernel into the group table, which the device finishes into the output
// columns where ff (nil: never) and the plan allow it.
func (d *device) starTable(ctx context.Context, q *starQuery, prof *planner.GPUProfile, part *factPart, ff *finishFor) (starGroups, error) {
	r := d.newQueryRun()
	r.ctx, r.part = ctx, part
	defer r.close()
	if err := r.copyAhead(q); err != nil {
		return starGroups{}, err
	}
	hostSteps.mark("copies-ahead")
	dims, status, err := r.markDims(q)
	if err != nil {
		return starGroups{}, err
	}
	hostSteps.mark("dims-mark")
	if err := ctx.Err(); err != nil {
		return starGroups{}, err
	}
	if err := r.rankGroups(dims); err != nil {
		return starGroups{}, err
	}
	hostSteps.mark("dims-rank")
	var sp starParams
	sp.N = r.rows(q.fact.Table)
	dimGroups, dimPreds, err := r.buildJoinTables(q, dims, &sp)
	if err != nil {
		return starGroups{}, err
	}
	hostSteps.mark("dims")
	fkeys, ngroups, err := r.factParams(q, &sp, dimGroups, dimPreds)
	if err != nil {
		return starGroups{}, err
	}
	layOutSlots(q, &sp, dims, fkeys)
	hostSteps.mark("fact-columns")
	sumsSafe, err := r.aggParams(q, &sp)
	if err != nil {
		return starGroups{}, err
	}
	if err := r.zoneParams(q, dims, &sp); err != nil {
		return starGroups{}, err
	}
	hostSteps.mark("params")
	if part == nil {
		if _, err := r.groupRemapParams(q, &sp, fkeys, ngroups, int64(1+len(q.aggs)), prof); err != nil {
			return starGroups{}, err
		}
	}
	var fin *starFinish
	if ff != nil {
		fin = prepareFinish(q, ff.outs, ff.ps, dims, fkeys, ngroups, min(ngroups, sp.N))
	}
	groups, err := r.launchStar(q, &sp, ngroups, prof, sumsSafe, fin)
	if err != nil {
		return starGroups{}, err
	}
	if !allCached(dims) {
		// Builds made now report duplicate keys; cached ones had none.
		if err := checkDimStatus(q, status); err != nil {
			return starGroups{}, err
		}
		r.keepDimBuilds(dims)
	}
	return starGroups{groups: groups, dims: dims, fkeys: fkeys}, nil
}
