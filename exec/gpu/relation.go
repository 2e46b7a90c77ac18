//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The materializing executor: plans without an aggregate to fuse into
// (joins whose rows are the result, filters and projections above them) run
// operator by operator, each producing a relation of device columns that
// the next one reads. Only the final relation is copied back to the host.
// TableScan columns are the cached device columns themselves; Filter is the
// expression VM into flags plus stream compaction (kernels/select.cu) and a
// gather; Projection is the VM; HashJoin and NestedLoopJoin produce row
// pairs (kernels/hash_join.cu) and gather both sides.

// relation is a set of device columns of n rows.
type relation struct {
	n    int64
	cols []*columnar.Column // host placeholders (or base columns) keyed in queryRun.views
}

// devView returns the device view of c: an intermediate result's registered
// view, or the cached base column.
func (r *queryRun) devView(c *columnar.Column) (colView, error) {
	if v, ok := r.views[c]; ok {
		return v, nil
	}
	dc, err := r.col0(c)
	if err != nil {
		return colView{}, err
	}
	if dc.packing != nil || dc.narrow != nil {
		// Operators read 4-byte values; only the fused star kernel
		// decodes the packed form (placement.go hands it no one else).
		return colView{}, fmt.Errorf("gpu: internal error: a packed or narrow column reached an operator that reads 4-byte values")
	}
	return dc.view(), nil
}

// newDevCol registers an intermediate device column of type t and returns
// its placeholder.
func (r *queryRun) newDevCol(t columnar.Type, dict *columnar.Dictionary, n int64, v colView) *columnar.Column {
	ph := &columnar.Column{Type: t, Len: int(n), Dict: dict}
	if r.views == nil {
		r.views = map[*columnar.Column]colView{}
	}
	r.views[ph] = v
	return ph
}

// gatherRel materializes rel at rows (m entries; -1 gives NULLs).
func (r *queryRun) gatherRel(rel *relation, rows cu.DevicePtr, m int64) (*relation, error) {
	out := &relation{n: m}
	for _, c := range rel.cols {
		g, err := r.gatherCol(c, rows, m)
		if err != nil {
			return nil, err
		}
		out.cols = append(out.cols, g)
	}
	return out, nil
}

func (r *queryRun) gatherCol(c *columnar.Column, rows cu.DevicePtr, m int64) (*columnar.Column, error) {
	v, err := r.devView(c)
	if err != nil {
		return nil, err
	}
	w := int64(v.Width)
	data, err := r.s.alloc(max(m*w, 8))
	if err != nil {
		return nil, err
	}
	valid, err := r.s.alloc(max((m+63)/64*8, 8))
	if err != nil {
		return nil, err
	}
	if m > 0 {
		f, err := r.d.fn("gather_rows")
		if err != nil {
			return nil, err
		}
		p := struct {
			Rows     uint64
			M        int64
			In       colView
			Out      uint64
			OutValid uint64
		}{uint64(rows), m, v, uint64(data), uint64(valid)}
		m32 := (m + 31) &^ 31
		if err := launch(f, min(grid1D(m32, 256), r.d.sms*8), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return nil, err
		}
		noteKernel(4*m+v.readBytes(m), m*w+(m+7)/8, m, m)
	}
	return r.newDevCol(c.Type, c.Dict, m, colView{Data: uint64(data), Valid: uint64(valid), Width: v.Width, IsFloat: v.IsFloat}), nil
}

// download copies rel to host columns of the schema's types.
func (r *queryRun) download(rel *relation, schema sql.Schema) (*exec.Result, error) {
	res := &exec.Result{Rows: int(rel.n)}
	for i, c := range rel.cols {
		t := schema[i].Type
		out := columnar.NewColumnIn(columnar.HeapAllocator, t, int(rel.n), true)
		if t.ID == columnar.String {
			out.Dict = c.Dict
		}
		res.Names = append(res.Names, schema[i].Name)
		res.Columns = append(res.Columns, out)
		if rel.n == 0 {
			continue
		}
		v, err := r.devView(c)
		if err != nil {
			return nil, err
		}
		host := out.Data()
		if v.Width == 8 && out.I32 != nil {
			tmp := make([]int64, rel.n)
			if err := cu.MemcpyDtoH(unsafe.Pointer(&tmp[0]), cu.DevicePtr(v.Data), 8*rel.n); err != nil {
				return nil, err
			}
			for i, x := range tmp {
				out.I32[i] = int32(x)
			}
		} else if v.Width == 4 && out.I64 != nil {
			tmp := make([]int32, rel.n)
			if err := cu.MemcpyDtoH(unsafe.Pointer(&tmp[0]), cu.DevicePtr(v.Data), 4*rel.n); err != nil {
				return nil, err
			}
			for i, x := range tmp {
				out.I64[i] = int64(x)
			}
		} else if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), cu.DevicePtr(v.Data), int64(len(host))); err != nil {
			return nil, fmt.Errorf("gpu: copying a result back: %v", err)
		}
		if v.Valid == 0 {
			for i := range out.Valid {
				out.Valid[i] = ^uint64(0)
			}
			continue
		}
		if err := cu.MemcpyDtoH(unsafe.Pointer(&out.Valid[0]), cu.DevicePtr(v.Valid), int64(len(out.Valid))*8); err != nil {
			return nil, fmt.Errorf("gpu: copying a result back: %v", err)
		}
	}
	return res, nil
}

// relColOf is the VM compiler's view of rel's columns.
func relColOf(rel *relation) func(int) (*columnar.Column, bool) {
	return func(i int) (*columnar.Column, bool) {
		if i < 0 || i >= len(rel.cols) {
			return nil, false
		}
		return rel.cols[i], true
	}
}

// checkRel reports, without touching the device, whether the materializing
// executor runs every operator of n.
func checkRel(n planner.Node) error {
	switch x := n.(type) {
	case *planner.TableScan:
		return nil
	case *planner.Filter:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		return checkExprs(x, x.Input, x.Cond)
	case *planner.Projection:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		return checkExprs(x, x.Input, x.Exprs...)
	case *planner.HashJoin:
		if err := checkRel(x.Left); err != nil {
			return err
		}
		if err := checkRel(x.Right); err != nil {
			return err
		}
		switch x.Kind {
		case sql.JoinInner, sql.JoinLeft, sql.JoinSemi, sql.JoinAnti:
		default:
			return unsupported(x, fmt.Sprintf("join kind %v", x.Kind))
		}
		if len(x.LeftKeys) > maxJoinKeys {
			return unsupported(x, fmt.Sprintf("more than %d join keys", maxJoinKeys))
		}
		if x.NullAware && len(x.LeftKeys) != 1 {
			return unsupported(x, "NOT IN over several keys")
		}
		if err := checkExprs(x, x.Left, x.LeftKeys...); err != nil {
			return err
		}
		if err := checkExprs(x, x.Right, x.RightKeys...); err != nil {
			return err
		}
		if x.Residual != nil {
			return checkExprs(x, joinedSchemaNode{x.Left, x.Right}, x.Residual)
		}
		return nil
	case *planner.HashAggregate:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		if len(x.GroupBy) > maxGroupKeys {
			return unsupported(x, fmt.Sprintf("more than %d group keys", maxGroupKeys))
		}
		if err := checkExprs(x, x.Input, x.GroupBy...); err != nil {
			return err
		}
		for _, ae := range x.Aggs {
			if ae.Arg == nil {
				continue
			}
			if ae.Arg.Type().ID == columnar.String && ae.Func != sql.AggMin && ae.Func != sql.AggMax && ae.Func != sql.AggCount {
				return unsupported(x, "aggregate of a string other than COUNT, MIN, MAX")
			}
			if err := checkExprs(x, x.Input, ae.Arg); err != nil {
				return err
			}
		}
		return nil
	case *planner.Values:
		return checkValues(x)
	case *planner.Limit:
		// Without an order below, any rows are a correct answer; the
		// device's first rows are taken.
		return checkRel(x.Input)
	case *planner.Distinct:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		if len(x.Schema()) > maxGroupKeys {
			return unsupported(x, fmt.Sprintf("more than %d columns", maxGroupKeys))
		}
		return nil
	case *planner.SetOp:
		if err := checkRel(x.Left); err != nil {
			return err
		}
		if err := checkRel(x.Right); err != nil {
			return err
		}
		return checkSetOp(x)
	case *planner.SortMergeJoin:
		return checkSortMergeJoin(x)
	case *planner.Sort:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		return checkExprs(x, x.Input, sortExprs(x.Keys)...)
	case *planner.TopN:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		return checkExprs(x, x.Input, sortExprs(x.Keys)...)
	case *planner.Window:
		if err := checkRel(x.Input); err != nil {
			return err
		}
		return checkWindow(x)
	case *planner.NestedLoopJoin:
		if err := checkRel(x.Left); err != nil {
			return err
		}
		if err := checkRel(x.Right); err != nil {
			return err
		}
		switch x.Kind {
		case sql.JoinInner, sql.JoinCross, sql.JoinLeft, sql.JoinSemi:
		case sql.JoinAnti:
			if x.NullAware {
				return unsupported(x, "NOT IN without equality")
			}
		default:
			return unsupported(x, fmt.Sprintf("join kind %v", x.Kind))
		}
		if x.Cond != nil {
			return checkExprs(x, joinedSchemaNode{x.Left, x.Right}, x.Cond)
		}
		return nil
	}
	return unsupported(n, "")
}

// joinedSchemaNode stands for the left++right input of a join condition
// when checking it compiles.
type joinedSchemaNode struct{ l, r planner.Node }

// checkExprs compiles es over in's schema without evaluating anything.
func checkExprs(op planner.Node, in any, es ...sql.Expr) error {
	var schema sql.Schema
	switch x := in.(type) {
	case joinedSchemaNode:
		schema = append(append(sql.Schema{}, x.l.Schema()...), x.r.Schema()...)
	case planner.Node:
		schema = x.Schema()
	}
	cols := make([]*columnar.Column, len(schema))
	for i, c := range schema {
		cols[i] = &columnar.Column{Type: c.Type, Dict: c.Dict}
		if c.Type.ID == columnar.String && c.Dict == nil {
			cols[i].Dict = &columnar.Dictionary{}
		}
	}
	for _, e := range es {
		if _, err := compileVM(e, relColOf(&relation{cols: cols}), true); err != nil {
			return unsupported(op, err.Error())
		}
	}
	return nil
}

// runRel runs the plan body n on the materializing executor, DISTINCT
// and set operations by the algorithms g names.
func (d *device) runRel(ctx context.Context, n planner.Node, g *planner.GPUPlan) (*exec.Result, error) {
	r := d.newQueryRun()
	r.ctx, r.setOps, r.presorted, r.joinPasses = ctx, g.SetOps, g.Presorted, g.JoinPasses
	defer r.close()
	rel, err := r.rel(ctx, n)
	if err != nil {
		return nil, err
	}
	if err := d.sync(); err != nil {
		return nil, err
	}
	return r.download(rel, n.Schema())
}

func (r *queryRun) rel(ctx context.Context, n planner.Node) (*relation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rel, ok := r.fixed[n]; ok {
		return rel, nil
	}
	switch x := n.(type) {
	case *planner.TableScan:
		if int64(x.Table.Rows) >= 1<<31 {
			return nil, fmt.Errorf("gpu: tables of 2^31 rows or more are not supported on the GPU yet (%s)", x.Table.Name)
		}
		rel := &relation{n: int64(x.Table.Rows)}
		for _, c := range x.Columns {
			rel.cols = append(rel.cols, x.Table.Columns[c])
		}
		return rel, nil
	case *planner.Filter:
		in, err := r.rel(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return r.filterRel(in, x.Cond, x)
	case *planner.Projection:
		in, err := r.rel(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		out := &relation{n: in.n}
		for i, e := range x.Exprs {
			if ref, ok := e.(*sql.ColRef); ok {
				out.cols = append(out.cols, in.cols[ref.Index])
				continue
			}
			c, err := r.exprCol(in, e, x.Out[i].Type, x)
			if err != nil {
				return nil, err
			}
			out.cols = append(out.cols, c)
		}
		return out, nil
	case *planner.HashJoin:
		return r.hashJoin(ctx, x)
	case *planner.NestedLoopJoin:
		return r.nestedLoopJoin(ctx, x)
	case *planner.SortMergeJoin:
		return r.sortMergeJoin(ctx, x)
	case *planner.Sort:
		return r.orderedRel(ctx, x.Input, x.Keys, x)
	case *planner.TopN:
		return r.topN(ctx, x)
	case *planner.Window:
		return r.windowRel(ctx, x)
	case *planner.HashAggregate:
		if j, jp := r.foldedJoin(x); j != nil && r.fixed[j] == nil {
			return r.aggregateOverPasses(ctx, x, j, jp)
		}
		return r.hashAggregate(ctx, x)
	case *planner.Distinct:
		return r.distinct(ctx, x)
	case *planner.SetOp:
		return r.setOp(ctx, x)
	case *planner.Values:
		return r.values(x)
	case *planner.Limit:
		in, err := r.rel(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return r.limit(in, x.Offset, x.Count)
	}
	return nil, unsupported(n, "")
}

// limit keeps rows [offset, offset+count) of rel (count < 0: all).
func (r *queryRun) limit(rel *relation, offset, count int64) (*relation, error) {
	lo := min(max(offset, 0), rel.n)
	hi := rel.n
	if count >= 0 {
		hi = min(hi, lo+count)
	}
	if lo == 0 && hi == rel.n {
		return rel, nil
	}
	rows := make([]int32, hi-lo)
	for i := range rows {
		rows[i] = int32(lo + int64(i))
	}
	dr, err := r.upload(bytesOf(rows))
	if err != nil {
		return nil, err
	}
	return r.gatherRel(rel, dr, hi-lo)
}

func memsetInts(p cu.DevicePtr, v uint32, n int64) error {
	if n <= 0 {
		return nil
	}
	return cu.MemsetD32(p, v, n)
}

func devOff(n int64) cu.DevicePtr { return cu.DevicePtr(n) }

func copyDtoH(dst []int32, src cu.DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), src, int64(4*len(dst)))
}

// exprCol evaluates e over rel into a new device column.
func (r *queryRun) exprCol(rel *relation, e sql.Expr, t columnar.Type, op planner.Node) (*columnar.Column, error) {
	prog, err := r.compile(e, relColOf(rel))
	if err != nil {
		return nil, unsupported(op, err.Error())
	}
	kind := vmOutKind(t)
	data, valid, err := r.evalVM(prog, rel.n, 0, kind)
	if err != nil {
		return nil, err
	}
	w := int32(8)
	if kind == vmOutI32 {
		w = 4
	}
	v := colView{Data: uint64(data), Valid: uint64(valid), Width: w, IsFloat: b2i(kind == vmOutF64)}
	var dict *columnar.Dictionary
	if t.ID == columnar.String {
		dict = prog.dict
	}
	return r.newDevCol(t, dict, rel.n, v), nil
}

// flagsRows compacts the rows whose flag byte is set into row numbers.
func (r *queryRun) flagsRows(flags cu.DevicePtr, n int64) (cu.DevicePtr, int64, error) {
	var sp selectParams
	sp.N = n
	sp.NPreds = 1
	sp.Preds[0] = predParam{Col: colView{Data: uint64(flags), Width: 1}, Kind: predFlags}
	return r.compact(&sp)
}

// filterRel keeps the rows of rel where cond is TRUE.
func (r *queryRun) filterRel(rel *relation, cond sql.Expr, op planner.Node) (*relation, error) {
	if rel.n == 0 {
		return rel, nil
	}
	prog, err := r.compile(cond, relColOf(rel))
	if err != nil {
		return nil, unsupported(op, err.Error())
	}
	flags, _, err := r.evalVM(prog, rel.n, 0, vmOutFlag)
	if err != nil {
		return nil, err
	}
	rows, m, err := r.flagsRows(flags, rel.n)
	if err != nil {
		return nil, err
	}
	return r.gatherRel(rel, rows, m)
}
