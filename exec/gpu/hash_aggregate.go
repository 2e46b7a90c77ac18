//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// HashAggregate and Distinct on the materializing executor
// (kernels/group_by.cu), for whatever the fused star pipeline does not
// take: keys that are expressions or wide-range values, several keys of any
// type, inputs that are joins of any kind, COUNT/SUM/AVG(DISTINCT).
//
// Groups: every row finds its group in a global open-addressing table of
// representative rows (the key columns normalized to 8 bytes by the
// expression VM), the representatives are compacted in row order and
// numbered densely, and each aggregate folds into an 8-byte accumulator
// per group with atomics. A DISTINCT argument first deduplicates
// (group, value) pairs with the same table and aggregates only the first
// row of each. Accumulators are decoded on the host (O(groups)) exactly as
// the star pipeline decodes its group table.

const maxGroupKeys = 8 // MAX_GKEYS

// groupParams mirrors GroupParams in kernels/group_by.cu.
type groupParams struct {
	N       int64
	NKeys   int32
	Pad     int32
	Keys    [maxGroupKeys]colView
	Slots   uint64
	Mask    int64
	GroupOf uint64
}

// groupAggParams mirrors GroupAggParams.
type groupAggParams struct {
	N    int64
	GID  uint64
	Only uint64
	A    aggParam
	Acc  uint64
}

// normKey evaluates e over rel as an 8-byte vector (values, string codes,
// or double bits) with validity.
func (r *queryRun) normKey(rel *relation, e sql.Expr, op planner.Node) (colView, *vmProgram, error) {
	prog, err := r.compile(e, relColOf(rel))
	if err != nil {
		return colView{}, nil, unsupported(op, err.Error())
	}
	kind := vmOutI64
	if e.Type().ID == columnar.Float64 {
		kind = vmOutF64
	}
	data, valid, err := r.evalVM(prog, rel.n, 0, kind)
	if err != nil {
		return colView{}, nil, err
	}
	return colView{Data: uint64(data), Valid: uint64(valid), Width: 8, IsFloat: b2i(kind == vmOutF64)}, prog, nil
}

// groupRows assigns every one of n rows its group by keys. It returns the
// per-row slot, the table of representative rows and the first-row flags.
func (r *queryRun) groupRows(n int64, keys []colView) (groupOf, slots, first cu.DevicePtr, err error) {
	if len(keys) > maxGroupKeys {
		return 0, 0, 0, fmt.Errorf("gpu: group by %d keys %w (at most %d)", len(keys), ErrUnsupported, maxGroupKeys)
	}
	size := int64(16)
	for size < 2*n {
		size *= 2
	}
	if slots, err = r.s.alloc(4 * size); err != nil {
		return
	}
	if err = cu.MemsetD32(slots, 0xffffffff, size); err != nil {
		return
	}
	if groupOf, err = r.s.alloc(4 * max(n, 2)); err != nil {
		return
	}
	if first, err = r.s.alloc(max(n, 8) + 4096); err != nil {
		return
	}
	if n == 0 {
		return
	}
	gp := groupParams{N: n, NKeys: int32(len(keys)), Slots: uint64(slots), Mask: size - 1, GroupOf: uint64(groupOf)}
	copy(gp.Keys[:], keys)
	f, err := r.d.fn("group_insert")
	if err != nil {
		return
	}
	if err = launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&gp), unsafe.Sizeof(gp)); err != nil {
		return
	}
	if f, err = r.d.fn("group_first"); err != nil {
		return
	}
	p := struct {
		N                     int64
		GroupOf, Slots, Flags uint64
	}{n, uint64(groupOf), uint64(slots), uint64(first)}
	err = launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p))
	return
}

// denseGroups numbers the groups of n rows densely in order of first
// appearance: gid per row and the representative row of each group.
func (r *queryRun) denseGroups(n int64, keys []colView) (gid, reps cu.DevicePtr, g int64, err error) {
	groupOf, slots, first, err := r.groupRows(n, keys)
	if err != nil || n == 0 {
		return 0, first, 0, err
	}
	if reps, g, err = r.flagsRows(first, n); err != nil {
		return
	}
	size := int64(16)
	for size < 2*n {
		size *= 2
	}
	_ = slots
	repSlots, err := r.s.alloc(4 * max(g, 2))
	if err != nil {
		return
	}
	dense, err := r.s.alloc(4 * size)
	if err != nil {
		return
	}
	if gid, err = r.s.alloc(4 * max(n, 2)); err != nil {
		return
	}
	mapIdx := func(in cu.DevicePtr, m int64, table, out cu.DevicePtr) error {
		f, err := r.d.fn("map_index")
		if err != nil {
			return err
		}
		p := struct {
			In         uint64
			N          int64
			Table, Out uint64
		}{uint64(in), m, uint64(table), uint64(out)}
		return launch(f, r.d.grid(m), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p))
	}
	if err = mapIdx(reps, g, groupOf, repSlots); err != nil {
		return
	}
	f, err := r.d.fn("scatter_index")
	if err != nil {
		return
	}
	p := struct {
		List uint64
		M    int64
		Out  uint64
	}{uint64(repSlots), g, uint64(dense)}
	if err = launch(f, r.d.grid(g), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return
	}
	err = mapIdx(groupOf, n, dense, gid)
	return
}

func (r *queryRun) hashAggregate(ctx context.Context, x *planner.HashAggregate) (*relation, error) {
	in, err := r.rel(ctx, x.Input)
	if err != nil {
		return nil, err
	}
	var keys []colView
	var keyCols []*columnar.Column
	for i, e := range x.GroupBy {
		k, _, err := r.normKey(in, e, x)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
		if ref, ok := e.(*sql.ColRef); ok {
			keyCols = append(keyCols, in.cols[ref.Index])
			continue
		}
		c, err := r.exprCol(in, e, x.Out[i].Type, x)
		if err != nil {
			return nil, err
		}
		keyCols = append(keyCols, c)
	}
	var gid, reps cu.DevicePtr
	var g int64
	if len(keys) == 0 {
		g = 1
		if gid, err = r.s.alloc(4 * max(in.n, 2)); err != nil {
			return nil, err
		}
		if err := cu.MemsetD32(gid, 0, max(in.n, 2)); err != nil {
			return nil, err
		}
	} else if gid, reps, g, err = r.denseGroups(in.n, keys); err != nil {
		return nil, err
	}
	out := &relation{n: g}
	for _, c := range keyCols {
		k, err := r.gatherCol(c, reps, g)
		if err != nil {
			return nil, err
		}
		out.cols = append(out.cols, k)
	}
	gidView := colView{Data: uint64(gid), Width: 4}
	for i, ae := range x.Aggs {
		t := x.Out[len(x.GroupBy)+i].Type
		c, err := r.aggregate(in, ae, t, gid, gidView, g, x)
		if err != nil {
			return nil, err
		}
		out.cols = append(out.cols, c)
	}
	return out, nil
}

// aggregate computes one aggregate per group and returns it as a device
// column of type t.
func (r *queryRun) aggregate(in *relation, ae sql.AggExpr, t columnar.Type, gid cu.DevicePtr, gidView colView, g int64, op planner.Node) (*columnar.Column, error) {
	fold := func(a aggParam, only cu.DevicePtr) ([]uint64, error) {
		acc, err := r.s.alloc(8 * max(g, 1))
		if err != nil {
			return nil, err
		}
		var ident int64
		switch {
		case a.Fn == aggMin && a.IsFloat != 0:
			ident = int64(math.Float64bits(math.Inf(1)))
		case a.Fn == aggMax && a.IsFloat != 0:
			ident = int64(math.Float64bits(math.Inf(-1)))
		case a.Fn == aggMin:
			ident = math.MaxInt64
		case a.Fn == aggMax:
			ident = math.MinInt64
		}
		if err := r.fillI64(acc, ident, max(g, 1)); err != nil {
			return nil, err
		}
		noteKernel(0, 8*max(g, 1), max(g, 1), max(g, 1))
		if in.n > 0 && g > 0 {
			// One group: partials per thread and warp instead of every
			// row's atomic on one word.
			kernel := "group_agg"
			if g == 1 {
				kernel = "group_agg_one"
			}
			f, err := r.d.fn(kernel)
			if err != nil {
				return nil, err
			}
			p := groupAggParams{N: in.n, GID: uint64(gid), Only: uint64(only), A: a, Acc: uint64(acc)}
			if err := launch(f, r.d.grid(in.n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
				return nil, err
			}
			read := viewBytes([]colView{a.A, a.B}, in.n)
			if g > 1 {
				read += 4 * in.n // the group ids
			}
			if only != 0 {
				read += in.n
			}
			noteKernel(read, 8*g, in.n, g)
		}
		host := make([]uint64, max(g, 1))
		if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), acc, 8*max(g, 1)); err != nil {
			return nil, fmt.Errorf("gpu: aggregate failed: %v", err)
		}
		return host[:g], nil
	}
	col := columnar.NewColumnIn(columnar.HeapAllocator, t, int(g), true)
	if ae.Func == sql.AggCountStar {
		cnt, err := fold(aggParam{Fn: aggCountStar}, 0)
		if err != nil {
			return nil, err
		}
		for i, v := range cnt {
			setInt(col, i, int64(v))
			col.SetValid(i)
		}
		return r.uploadCol(col)
	}
	arg, prog, err := r.normKey(in, ae.Arg, op)
	if err != nil {
		return nil, err
	}
	argT := ae.Arg.Type()
	if argT.ID == columnar.String {
		col.Dict = prog.dict
		if ae.Func != sql.AggMin && ae.Func != sql.AggMax && ae.Func != sql.AggCount {
			return nil, unsupported(op, "aggregate of a string other than COUNT, MIN, MAX")
		}
	}
	var only cu.DevicePtr
	if ae.Distinct {
		_, _, first, err := r.groupRows(in.n, []colView{gidView, arg})
		if err != nil {
			return nil, err
		}
		only = first
	}
	isF := argT.ID == columnar.Float64
	cnt, err := fold(aggParam{Fn: aggCount, A: arg}, only)
	if err != nil {
		return nil, err
	}
	if ae.Func == sql.AggCount {
		for i, v := range cnt {
			setInt(col, i, int64(v))
			col.SetValid(i)
		}
		return r.uploadCol(col)
	}
	fn := map[sql.AggFunc]int32{sql.AggSum: aggSum, sql.AggAvg: aggSum, sql.AggMin: aggMin, sql.AggMax: aggMax}[ae.Func]
	vals, err := fold(aggParam{Fn: fn, A: arg, IsFloat: b2i(isF)}, only)
	if err != nil {
		return nil, err
	}
	for i, v := range vals {
		if cnt[i] == 0 {
			col.SetNull(i)
			continue
		}
		switch {
		case ae.Func == sql.AggAvg && (isF || t.ID == columnar.Float64):
			sum := math.Float64frombits(v)
			if !isF {
				sum = float64(int64(v))
			}
			col.F64[i] = sum / float64(cnt[i])
		case ae.Func == sql.AggAvg:
			setInt(col, i, avgScaled(int64(v), int64(cnt[i]), t.Scale-argT.DecimalScale()))
		case isF && col.F64 != nil:
			col.F64[i] = math.Float64frombits(v)
		case isF:
			return nil, unsupported(op, "a DOUBLE aggregate of a non-DOUBLE type")
		case col.F64 != nil:
			col.F64[i] = float64(int64(v))
		default:
			setInt(col, i, int64(v))
		}
		col.SetValid(i)
	}
	return r.uploadCol(col)
}

// uploadCol copies a host column to the device as an intermediate column.
func (r *queryRun) uploadCol(c *columnar.Column) (*columnar.Column, error) {
	data, err := r.upload(c.Data())
	if err != nil {
		return nil, err
	}
	valid, err := r.upload(bytesOf(c.Valid))
	if err != nil {
		return nil, err
	}
	w := int32(8)
	if c.Type.Physical() == columnar.PhysInt32 {
		w = 4
	}
	v := colView{Data: uint64(data), Valid: uint64(valid), Width: w, IsFloat: b2i(c.F64 != nil)}
	return r.newDevCol(c.Type, c.Dict, int64(c.Len), v), nil
}

// distinct keeps the first row of every distinct row of its input.
func (r *queryRun) distinct(ctx context.Context, x *planner.Distinct) (*relation, error) {
	in, err := r.rel(ctx, x.Input)
	if err != nil {
		return nil, err
	}
	if in, err = r.canonFloats(in); err != nil {
		return nil, err
	}
	if c := r.setChoice(x); c.Algorithm == planner.SetSort {
		return r.sortDistinct(in, c, x)
	}
	keys, err := r.rowKeys(in, x)
	if err != nil {
		return nil, err
	}
	_, reps, g, err := r.denseGroups(in.n, keys)
	if err != nil {
		return nil, err
	}
	return r.gatherRel(in, reps, g)
}

// rowKeys normalizes every column of rel into a group key.
func (r *queryRun) rowKeys(rel *relation, op planner.Node) ([]colView, error) {
	var keys []colView
	for i, c := range rel.cols {
		k, _, err := r.normKey(rel, &sql.ColRef{Index: i, Col: sql.Column{Name: "c", Type: c.Type, Dict: c.Dict}}, op)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	if len(keys) > maxGroupKeys {
		return nil, unsupported(op, fmt.Sprintf("more than %d columns", maxGroupKeys))
	}
	return keys, nil
}
