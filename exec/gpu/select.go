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

// selectParams mirrors SelectParams in kernels/select.cu.
type selectParams struct {
	N       int64
	NPreds  int32
	Pad     int32
	Preds   [maxPreds]predParam
	Counts  uint64
	Offsets uint64
	RowIDs  uint64
	Mask    uint64
}

const selectItems = 8 // SEL_IT in kernels/select.cu

// selectQuery is a filtered, projected scan without aggregate: Filter and
// Projection nodes over one TableScan, in any order. It runs as stream
// compaction on the GPU (kernels/select.cu), whose second pass writes the
// plain output columns at the selected rows itself (compactEmit); computed
// output columns run through the expression VM's tile kernels
// (kernels/expr_vm.cu) at the selected rows, all in one launch, and
// conjuncts the range/bitmap predicates cannot express run through the VM
// into a flag per row first. Only the selected rows come back.
type selectQuery struct {
	scan  *planner.TableScan
	conds []sql.Expr // conjuncts over the scan's output
	outs  []sql.Expr // output columns over the scan's output
	body  planner.Node
}

func matchSelect(body planner.Node) (*selectQuery, error) {
	q := &selectQuery{body: body}
	for i, c := range body.Schema() {
		q.outs = append(q.outs, &sql.ColRef{Index: i, Col: c})
	}
	n := body
	for q.scan == nil {
		switch x := n.(type) {
		case *planner.TableScan:
			q.scan = x
		case *planner.Filter:
			q.conds = append(q.conds, conjuncts(x.Cond)...)
			n = x.Input
		case *planner.Projection:
			sub := func(r *sql.ColRef) sql.Expr { return x.Exprs[r.Index] }
			for i, e := range q.outs {
				q.outs[i] = mapColRefs(e, sub)
			}
			for i, e := range q.conds {
				q.conds[i] = mapColRefs(e, sub)
			}
			n = x.Input
		default:
			return nil, unsupported(n, "")
		}
	}
	// Every expression must compile (without evaluating anything).
	for _, e := range q.outs {
		if _, ok := e.(*sql.ColRef); ok {
			continue
		}
		if _, err := compileVM(e, q.colOf, true); err != nil {
			return nil, unsupported(body, err.Error())
		}
	}
	for _, e := range q.conds {
		if _, err := compileVM(e, q.colOf, true); err != nil {
			if _, single := q.singleColumn(e); !single {
				return nil, unsupported(body, err.Error())
			}
		}
	}
	return q, nil
}

// colOf is the table column behind output column idx of the scan.
func (q *selectQuery) colOf(idx int) (*columnar.Column, bool) {
	if idx < 0 || idx >= len(q.scan.Columns) {
		return nil, false
	}
	return q.scan.Table.Columns[q.scan.Columns[idx]], true
}

// singleColumn returns the table column a conjunct reads when it reads
// exactly one.
func (q *selectQuery) singleColumn(e sql.Expr) (int, bool) {
	col, ok := -1, true
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			if col >= 0 && col != r.Index {
				ok = false
			}
			col = r.Index
		case *planner.Subquery:
			ok = false
		}
	})
	if !ok || col < 0 || col >= len(q.scan.Columns) {
		return 0, false
	}
	return q.scan.Columns[col], true
}

func (d *device) runSelect(ctx context.Context, q *selectQuery) (*exec.Result, error) {
	r := d.newQueryRun()
	r.ctx = ctx
	defer r.close()
	t := q.scan.Table
	if int64(t.Rows) >= 1<<31 {
		return nil, fmt.Errorf("gpu: tables of 2^31 rows or more are not supported on the GPU yet (%s)", t.Name)
	}
	sp, err := r.selectPreds(q)
	if err != nil {
		return nil, err
	}
	preds := sp.Preds[:sp.NPreds]
	res := &exec.Result{Columns: make([]*columnar.Column, len(q.outs))}
	schema := q.body.Schema()
	// Plain output columns are written by the compaction itself
	// (compactEmit); computed ones run together through the tile VM at the
	// selected rows (one launch reads the columns they share once).
	var plain, computed []int
	var srcs []*devColumn
	var progs []*vmProgram
	var types []columnar.Type
	for i, e := range q.outs {
		res.Names = append(res.Names, schema[i].Name)
		if ref, ok := e.(*sql.ColRef); ok {
			plain = append(plain, i)
			if len(preds) > 0 {
				dc, err := r.col0(t.Columns[q.scan.Columns[ref.Index]])
				if err != nil {
					return nil, err
				}
				srcs = append(srcs, dc)
			}
			continue
		}
		prog, err := r.compile(e, q.colOf)
		if err != nil {
			return nil, unsupported(q.body, err.Error())
		}
		progs, computed, types = append(progs, prog), append(computed, i), append(types, schema[i].Type)
	}
	m := sp.N
	var rowids cu.DevicePtr
	var selected []selectedColumn
	if len(preds) > 0 && sp.N > 0 {
		var err error
		if rowids, m, selected, err = r.compactEmit(sp, srcs, len(progs) > 0); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Rows = int(m)
	for j, i := range plain {
		src := t.Columns[q.scan.Columns[q.outs[i].(*sql.ColRef).Index]]
		var err error
		if selected == nil {
			res.Columns[i] = hostCopy(src, m, schema[i].Type)
		} else if res.Columns[i], err = downloadSelected(src, selected[j], m, schema[i].Type); err != nil {
			return nil, err
		}
	}
	cols, err := r.vmColumns(progs, m, rowids, types)
	if err != nil {
		return nil, err
	}
	for j, i := range computed {
		res.Columns[i] = cols[j]
	}
	return res, nil
}

// selectPreds compiles q's conjuncts into the compaction's predicates:
// conjuncts of one column become range or bitmap predicates where they
// can; the rest are ANDed into one VM program whose flags are the last
// predicate.
func (r *queryRun) selectPreds(q *selectQuery) (*selectParams, error) {
	t := q.scan.Table
	sp := &selectParams{N: int64(t.Rows)}
	var preds []predParam
	var rest []sql.Expr
	for _, e := range q.conds {
		c, single := q.singleColumn(e)
		if !single || len(preds) >= maxPreds-1 {
			rest = append(rest, e)
			continue
		}
		dc, err := r.col(t, c)
		if err != nil {
			return nil, err
		}
		p, set, err := compilePred(e, dc, t.Fields[c].Type)
		if err != nil {
			rest = append(rest, e)
			continue
		}
		if set != nil {
			ptr, err := r.upload(bytesOf(set))
			if err != nil {
				return nil, err
			}
			p.Set = uint64(ptr)
		}
		preds = append(preds, p)
	}
	if len(rest) > 0 && sp.N > 0 {
		e := rest[0]
		for _, c := range rest[1:] {
			e = &sql.Binary{Op: sql.OpAnd, L: e, R: c, T: columnar.TBool}
		}
		prog, err := r.compile(e, q.colOf)
		if err != nil {
			return nil, unsupported(q.body, err.Error())
		}
		p, err := r.vmPred(prog, sp.N)
		if err != nil {
			return nil, err
		}
		preds = append(preds, p)
	}
	sp.NPreds = int32(len(preds))
	copy(sp.Preds[:], preds)
	return sp, nil
}

// hostCopy is the first m rows of src as a column of type t: a select
// without a predicate keeps every row, which the host already has.
func hostCopy(src *columnar.Column, m int64, t columnar.Type) *columnar.Column {
	out := columnar.NewColumnIn(columnar.HeapAllocator, t, int(m), src.Valid != nil)
	out.Dict = src.Dict
	if m > 0 {
		copy(out.Data(), src.Data())
		if src.Valid != nil {
			copy(out.Valid, src.Valid)
		}
	}
	return out
}

// downloadSelected copies a column compactEmit wrote (m rows) back into a
// host column of type t like src, widening values the device held
// narrowed.
func downloadSelected(src *columnar.Column, o selectedColumn, m int64, t columnar.Type) (*columnar.Column, error) {
	out := columnar.NewColumnIn(columnar.HeapAllocator, t, int(m), src.Valid != nil)
	out.Dict = src.Dict
	if m == 0 {
		return out, nil
	}
	if emitWidth(o.src) == 4 && src.I64 != nil {
		tmp := make([]int32, m)
		if err := cu.MemcpyDtoH(unsafe.Pointer(&tmp[0]), o.data, 4*m); err != nil {
			return nil, fmt.Errorf("gpu: select result: %v", err)
		}
		for i, v := range tmp {
			out.I64[i] = int64(v)
		}
	} else {
		host := out.Data()
		if int64(len(host)) != m*emitWidth(o.src) {
			return nil, fmt.Errorf("gpu: select result: %d bytes for %d rows of %s", len(host), m, t)
		}
		if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), o.data, int64(len(host))); err != nil {
			return nil, fmt.Errorf("gpu: select result: %v", err)
		}
	}
	if src.Valid == nil {
		return out, nil
	}
	if o.valid == 0 {
		for i := range int(m) {
			out.SetValid(i)
		}
		return out, nil
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&out.Valid[0]), o.valid, 8*((m+63)/64)); err != nil {
		return nil, fmt.Errorf("gpu: select result: %v", err)
	}
	return out, nil
}

// col0 is col for a column known only by identity.
func (r *queryRun) col0(c *columnar.Column) (*devColumn, error) {
	return r.column(c, false)
}
