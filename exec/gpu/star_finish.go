//go:build cuda

package gpu

import (
	"os"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The star's device finish (planner/gpu_star_finish.go,
// kernels/star_finish.cu): one block turns the group table into the
// output columns, sorted when the plan says so, inside the query's launch
// chain; the host copies the columns out of the read-back buffer. What
// the kernel cannot take at run time (too many groups or key values, a
// dense table of too many slots, packed sort keys wider than a word) the
// host decodes or sorts as before.

// finishOff (GPUSQL_STAR_FINISH=off) decodes every star on the host, for
// comparison.
var finishOff = os.Getenv("GPUSQL_STAR_FINISH") == "off"

const finThreads = 1024

// finishRuns counts the stars the device finished (tests tell the paths
// apart by it).
var finishRuns atomic.Int64

// star_finish's column kinds and output flags.
const (
	finKeyTab int32 = iota
	finKeyFact
	finAggInt
	finAggFloat
	finAggIntAsFloat
)

const (
	finOverflow = 1
	finUnsorted = 2
)

// finCol, finSortKey and finParams are star_finish.cu's FinCol,
// FinSortKey and FinParams.
type finCol struct {
	Out, Valid, Stride, Size, Lo, NullDigit int64
	Kind, Width, Tab, Word, Cnt, Pad        int32
}

type finSortKey struct{ Col, Desc int32 }

type finParams struct {
	Table, Count, Out              uint64
	NGroups, Width                 int64
	Compact, NCols, NSort, Reverse int32
	Cols                           [planner.GPUFinishMaxCols]finCol
	Sort                           [planner.GPUFinishMaxSortKeys]finSortKey
	Tab                            [planner.GPUFinishMaxKeyValues]int64
	TabNull                        [planner.GPUFinishMaxKeyValues / 64]uint64
}

// starFinish is one query's device finish: the kernel's parameters and
// the output columns' types, dictionaries and places in its output.
type starFinish struct {
	p       finParams
	types   []columnar.Type
	dicts   []*columnar.Dictionary
	rows    int64 // row capacity of the output
	bytes   int64
	inOrder bool   // the groups come in the sort's order as they are
	host    []byte // the output, read back
	tabUsed int32  // entries of p.Tab the keys fill
}

// prepareFinish lays out q's device finish of ngroups slots (at most
// maxRows of them non-empty) over dims and fkeys for ps's order (nil:
// none), or returns nil when the plan, the surviving slots or the keys'
// values do not allow one.
func prepareFinish(q *starQuery, outs []starOutput, ps *planner.GPUStarSort, dims []*dimRun, fkeys []factKey, ngroups, maxRows int64) *starFinish {
	if !q.finish.Device || finishOff || ngroups < q.finish.MinGroups {
		return nil
	}
	f := &starFinish{rows: max(min(maxRows, planner.GPUFinishMaxRows), 1), bytes: 16}
	sizes := componentSizes(dims, fkeys)
	strides := slotStrides(q.slotOrder(), sizes)
	for _, k := range q.keys {
		if !f.addKey(q, k, dims, fkeys, sizes, strides) {
			return nil
		}
	}
	for oi, o := range outs {
		t := q.agg.Out[len(q.keys)+oi].Type
		c, ok := finAggregate(o, q.aggs[o.slot], t)
		if !ok {
			return nil
		}
		var dict *columnar.Dictionary
		if o.ae.Arg != nil && t.ID == columnar.String {
			if r, ok := colRefUnder(o.ae.Arg); ok {
				dict = r.Col.Dict
			}
		}
		f.addColumn(c, t, dict, true)
	}
	f.orderBy(q, ps, dims, fkeys)
	return f
}

// addKey adds GROUP BY key k's column: a dimension key's values by digit
// in the kernel's table (false when the table is full), a fact key's
// offset and NULL digit.
func (f *starFinish) addKey(q *starQuery, k starKey, dims []*dimRun, fkeys []factKey, sizes, strides []int64) bool {
	t := q.agg.Out[f.p.NCols].Type
	if k.dim < 0 {
		fk, comp := fkeys[k.j], len(dims)+k.j
		src := q.fact.Table.Columns[q.nFact[k.j]]
		c := finCol{Kind: finKeyFact, Stride: strides[comp], Size: sizes[comp], Lo: fk.lo, NullDigit: -1}
		if fk.nullable {
			c.NullDigit = fk.size - 1
		}
		f.addColumn(c, t, src.Dict, src.Valid != nil)
		return true
	}
	dm := q.dims[k.dim]
	src := dm.scan.Table.Columns[dm.gcols[k.j]]
	kd := newKeyDecoder(k, dims, fkeys)
	tab, n := int(f.tabUsed), len(dims[k.dim].ranks)
	if tab+max(n, 1) > planner.GPUFinishMaxKeyValues {
		return false
	}
	for d := range n {
		v, null := kd.dimValue(d)
		f.p.Tab[tab+d] = v
		if null {
			f.p.TabNull[(tab+d)>>6] |= 1 << uint((tab+d)&63)
		}
	}
	f.tabUsed += int32(max(n, 1))
	f.addColumn(finCol{Kind: finKeyTab, Stride: strides[k.dim], Size: sizes[k.dim], Tab: int32(tab)}, t, src.Dict, src.Valid != nil)
	return true
}

// finAggregate is output o's column as decodeAggregate makes it, false
// for what the kernel does not write (AVG, a wide or odd type).
func finAggregate(o starOutput, a starAgg, t columnar.Type) (finCol, bool) {
	c := finCol{Word: int32(1 + o.slot), Cnt: -1}
	fn := o.ae.Func
	phys := t.Physical()
	if phys != columnar.PhysInt32 && phys != columnar.PhysInt64 && phys != columnar.PhysFloat64 || fn == sql.AggAvg {
		return c, false
	}
	if fn != sql.AggCountStar && fn != sql.AggCount {
		c.Cnt = 0 // the group's row count: never 0
		if o.countSlot >= 0 {
			c.Cnt = int32(1 + o.countSlot)
		}
	}
	switch {
	case a.isFloat && fn != sql.AggCountStar && fn != sql.AggCount:
		if phys != columnar.PhysFloat64 {
			return c, false
		}
		c.Kind = finAggFloat
	case phys == columnar.PhysFloat64:
		c.Kind = finAggIntAsFloat
	default:
		c.Kind = finAggInt
	}
	return c, true
}

// addColumn gives c its places in the output: values of t's width, and a
// validity bitmap when nullable.
func (f *starFinish) addColumn(c finCol, t columnar.Type, dict *columnar.Dictionary, nullable bool) {
	c.Width = 8
	if t.Physical() == columnar.PhysInt32 {
		c.Width = 4
	}
	c.Out = f.bytes
	f.bytes += (f.rows*int64(c.Width) + 7) &^ 7
	c.Valid = -1
	if nullable {
		c.Valid = f.bytes
		f.bytes += 8 * ((f.rows + 63) / 64)
	}
	f.p.Cols[f.p.NCols] = c
	f.p.NCols++
	f.types = append(f.types, t)
	f.dicts = append(f.dicts, dict)
}

// orderBy sets how the rows come: in slot order (reversed for an all
// descending sort) when the slots are laid out by ps, else sorted by the
// kernel when the plan lets it.
func (f *starFinish) orderBy(q *starQuery, ps *planner.GPUStarSort, dims []*dimRun, fkeys []factKey) {
	switch {
	case ps == nil:
	case slotsSorted(q, dims, fkeys):
		f.inOrder = true
		f.p.Reverse = b2i(ps.Reversed)
	case q.finish.SortOnDevice:
		for i, c := range ps.Cols {
			f.p.Sort[i] = finSortKey{Col: int32(c), Desc: b2i(ps.Desc[i])}
		}
		f.p.NSort = int32(len(ps.Cols))
	}
}

// takes reports whether the kernel finishes a table of ngroups slots of W
// words, dense or compacted (a dense one it scans in one block).
func (f *starFinish) takes(compacted bool, ngroups, W int64) bool {
	return f != nil && (compacted || ngroups <= planner.GPUFinishMaxDense && ngroups*(W+1) < 1<<31)
}

// finishOnDevice launches star_finish over the table (its compacted rows
// when cp is set), ends the launch chain and reads the output back, and
// reports whether the kernel took the groups (false: more than it holds).
func (r *queryRun) finishOnDevice(table cu.DevicePtr, ngroups, W int64, cp *compaction, f *starFinish) (bool, error) {
	p := &f.p
	p.Table, p.NGroups, p.Width = uint64(table), ngroups, W
	read := ngroups * W * 8
	if cp != nil {
		p.Table, p.Count, p.Compact = uint64(cp.out), uint64(cp.total), 1
		read = cp.maxRows * (W + 1) * 8
	}
	out, err := r.d.finishOut()
	if err != nil {
		return false, err
	}
	p.Out = uint64(out)
	fn, err := r.d.fn("star_finish")
	if err != nil {
		return false, err
	}
	bound := ngroups
	if cp != nil {
		bound = cp.maxRows
	}
	if err := r.launch(fn, 1, finBlock(bound), 0, unsafe.Pointer(p), unsafe.Sizeof(*p)); err != nil {
		return false, err
	}
	noteKernel(read, f.bytes, ngroups, -1)
	at := lastKernel()
	if err := r.startChain(); err != nil {
		return false, err
	}
	buf, err := r.d.readback(f.bytes)
	if err != nil {
		return false, err
	}
	if err := cu.MemcpyDtoHAsync(buf, out, f.bytes, cu.Stream{}); err != nil {
		return false, err
	}
	if err := r.d.sync(); err != nil {
		return false, err
	}
	f.host = unsafe.Slice((*byte)(buf), f.bytes)
	if f.flags()&finOverflow != 0 {
		return false, nil
	}
	m := int64(f.header(0))
	if cp != nil {
		noteKernelAt(cp.scatter, ngroups*W*8+8*cp.tiles, m*(W+1)*8, ngroups, m)
	}
	noteKernelAt(at, read, f.bytes, ngroups, m)
	finishRuns.Add(1)
	return true, nil
}

// finishMaxBytes bounds a finish's output: the header and GPUFinishMaxCols
// columns of GPUFinishMaxRows 8-byte values with their bitmaps.
const finishMaxBytes = 16 + planner.GPUFinishMaxCols*(planner.GPUFinishMaxRows*8+planner.GPUFinishMaxRows/8)

// finishOut is the device's buffer star_finish writes into, kept across
// queries: from scratch memory its address moved between a query's first
// and second run (the dimension builds' uploads came first), so the
// launch chain changed and the second run replayed no graph.
func (d *device) finishOut() (cu.DevicePtr, error) {
	if d.finishBuf == 0 {
		p, err := cu.MemAlloc(finishMaxBytes)
		if err != nil {
			return 0, err
		}
		d.finishBuf = p
	}
	return d.finishBuf, nil
}

// finBlock is the kernel's block for at most rows groups: a power of two
// from 64 to finThreads (a small block's barriers cost less).
func finBlock(rows int64) int {
	b := 64
	for b < finThreads && int64(b) < rows {
		b *= 2
	}
	return b
}

func (f *starFinish) header(i int) uint64 { return *(*uint64)(unsafe.Pointer(&f.host[8*i])) }
func (f *starFinish) flags() uint64       { return f.header(1) }

// result copies the finished columns out of the read-back buffer, and
// reports whether they come in the sort's order.
func (f *starFinish) result(q *starQuery) (*exec.Result, bool) {
	m := int(f.header(0))
	res := &exec.Result{Rows: m}
	for ci, t := range f.types {
		c := f.p.Cols[ci]
		res.Names = append(res.Names, q.agg.Out[ci].Name)
		col := columnar.NewColumnIn(columnar.HeapAllocator, t, m, c.Valid >= 0)
		col.Dict = f.dicts[ci]
		var dst []byte
		switch {
		case col.I32 != nil:
			dst = bytesOf(col.I32)
		case col.I64 != nil:
			dst = bytesOf(col.I64)
		default:
			dst = bytesOf(col.F64)
		}
		copy(dst, f.host[c.Out:])
		if c.Valid >= 0 {
			copy(bytesOf(col.Valid), f.host[c.Valid:])
		}
		res.Columns = append(res.Columns, col)
	}
	sorted := f.inOrder || f.p.NSort > 0 && f.flags()&finUnsorted == 0
	return res, sorted
}
