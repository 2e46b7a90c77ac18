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
}

const selectItems = 8 // SEL_IT in kernels/select.cu

// selectQuery is a filtered, projected scan without aggregate: Filter and
// Projection nodes over one TableScan, in any order. It runs as stream
// compaction on the GPU (kernels/select.cu) and a gather of each plain
// output column (kernels/gather.cu); computed output columns run through
// the expression VM (kernels/expr_vm.cu) at the selected rows, and
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
	var sp selectParams
	sp.N = int64(t.Rows)
	// Conjuncts of one column become range or bitmap predicates where they
	// can; the rest are ANDed into one VM program whose flags are the last
	// predicate.
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
	tile := int64(256 * selectItems)
	tiles := (sp.N + tile - 1) / tile
	m := sp.N
	var rowids cu.DevicePtr
	if len(preds) > 0 && tiles > 0 {
		var err error
		if rowids, m, err = r.compact(&sp); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &exec.Result{Rows: int(m), Columns: make([]*columnar.Column, len(q.outs))}
	schema := q.body.Schema()
	// Computed columns run together through the tile VM (one launch reads
	// the columns they share once); plain ones are gathered.
	var progs []*vmProgram
	var computed []int
	var types []columnar.Type
	for i, e := range q.outs {
		res.Names = append(res.Names, schema[i].Name)
		if ref, ok := e.(*sql.ColRef); ok {
			c := q.scan.Columns[ref.Index]
			col, err := r.gather(t.Columns[c], rowids, m, schema[i].Type)
			if err != nil {
				return nil, err
			}
			res.Columns[i] = col
			continue
		}
		prog, err := r.compile(e, q.colOf)
		if err != nil {
			return nil, unsupported(q.body, err.Error())
		}
		progs, computed, types = append(progs, prog), append(computed, i), append(types, schema[i].Type)
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

// gather copies rows rowids (all rows when rowids is 0) of src, as cached
// on the device, back into a host column of type t.
func (r *queryRun) gather(src *columnar.Column, rowids cu.DevicePtr, m int64, t columnar.Type) (*columnar.Column, error) {
	out := columnar.NewColumnIn(columnar.HeapAllocator, t, int(m), src.Valid != nil)
	out.Dict = src.Dict
	if m == 0 {
		return out, nil
	}
	if rowids == 0 {
		// Every row: the host already has them; no device round trip.
		copy(out.Data(), src.Data())
		if src.Valid != nil {
			copy(out.Valid, src.Valid)
		}
		return out, nil
	}
	dc, err := r.col0(src)
	if err != nil {
		return nil, err
	}
	dst, err := r.s.alloc(m * int64(dc.width))
	if err != nil {
		return nil, err
	}
	f, err := r.d.fn("gather_col")
	if err != nil {
		return nil, err
	}
	p := struct {
		RowIDs uint64
		M      int64
		In     uint64
		Out    uint64
		Width  int64
	}{uint64(rowids), m, uint64(dc.data), uint64(dst), int64(dc.width)}
	if err := launch(f, min(grid1D(m, 256), r.d.sms*8), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return nil, err
	}
	noteKernel(4*m+m*int64(dc.width), m*int64(dc.width), m, m)
	host := out.Data()
	if dc.width == 4 && src.I64 != nil {
		// Narrowed on the device: widen on the way back.
		tmp := make([]int32, m)
		if err := cu.MemcpyDtoH(unsafe.Pointer(&tmp[0]), dst, 4*m); err != nil {
			return nil, err
		}
		for i, v := range tmp {
			out.I64[i] = int64(v)
		}
	} else if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), dst, int64(len(host))); err != nil {
		return nil, err
	}
	if src.Valid != nil {
		words := (m + 63) / 64
		vb, err := r.s.alloc(8 * words)
		if err != nil {
			return nil, err
		}
		if err := cu.MemsetD32(vb, 0, 2*words); err != nil {
			return nil, err
		}
		f, err := r.d.fn("gather_valid")
		if err != nil {
			return nil, err
		}
		p := struct {
			RowIDs uint64
			M      int64
			In     uint64
			Out    uint64
		}{uint64(rowids), m, uint64(dc.valid), uint64(vb)}
		if err := launch(f, min(grid1D(m, 256), r.d.sms*8), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return nil, err
		}
		noteKernel(4*m+(m+7)/8, (m+7)/8, m, m)
		if err := cu.MemcpyDtoH(unsafe.Pointer(&out.Valid[0]), vb, 8*words); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// col0 is col for a column known only by identity.
func (r *queryRun) col0(c *columnar.Column) (*devColumn, error) {
	return r.column(c, false)
}
