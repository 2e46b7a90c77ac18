//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"unsafe"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SetOp on the materializing executor, by hashing (kernels/group_by.cu)
// or, where the GPU plan says, by sorting (set_op_sort.go): both inputs are brought to the output types (string columns onto one
// merged dictionary) and concatenated. UNION ALL is the concatenation,
// UNION its distinct rows; INTERSECT and EXCEPT [ALL] group the
// concatenation by every column (NULLs equal, as set operations compare
// rows) and count each group's rows from either side, and each group's
// first row is repeated as often as the operation says: once or
// min(left, right) times for INTERSECT [ALL], once if right is 0 or
// max(left - right, 0) times for EXCEPT [ALL].

func (r *queryRun) setOp(ctx context.Context, x *planner.SetOp) (*relation, error) {
	L, err := r.rel(ctx, x.Left)
	if err != nil {
		return nil, err
	}
	R, err := r.rel(ctx, x.Right)
	if err != nil {
		return nil, err
	}
	if len(L.cols) != len(x.Out) || len(R.cols) != len(x.Out) {
		return nil, unsupported(x, "inputs of different widths")
	}
	cat := &relation{n: L.n + R.n}
	for j, oc := range x.Out {
		a, b := L.cols[j], R.cols[j]
		if oc.Type.ID == columnar.String {
			if a.Type.ID != columnar.String || b.Type.ID != columnar.String || a.Dict == nil || b.Dict == nil {
				return nil, unsupported(x, "string column without a dictionary")
			}
			if a.Dict != b.Dict {
				merged, fromA, fromB := a.Dict.Merge(b.Dict)
				if a, err = r.remapCodes(L, j, fromA, merged, x); err != nil {
					return nil, err
				}
				if b, err = r.remapCodes(R, j, fromB, merged, x); err != nil {
					return nil, err
				}
			}
		} else {
			if a, err = r.castCol(L, j, oc.Type, x); err != nil {
				return nil, err
			}
			if b, err = r.castCol(R, j, oc.Type, x); err != nil {
				return nil, err
			}
		}
		c, err := r.concatCol(a, b, L.n, R.n, oc.Type)
		if err != nil {
			return nil, err
		}
		cat.cols = append(cat.cols, c)
	}
	if x.Kind == sql.SetUnion && x.All {
		return cat, nil
	}
	if c := r.setChoice(x); c.Algorithm == planner.SetSort {
		if x.Kind == sql.SetUnion {
			return r.sortDistinct(cat, c, x)
		}
		return r.sortIntersectExcept(cat, L.n, c, x)
	}
	if x.Kind == sql.SetUnion {
		keys, err := r.rowKeys(cat, x)
		if err != nil {
			return nil, err
		}
		_, reps, g, err := r.denseGroups(cat.n, keys)
		if err != nil {
			return nil, err
		}
		return r.gatherRel(cat, reps, g)
	}
	keys, err := r.rowKeys(cat, x)
	if err != nil {
		return nil, err
	}
	gid, reps, g, err := r.denseGroups(cat.n, keys)
	if err != nil {
		return nil, err
	}
	if g == 0 {
		return &relation{n: 0, cols: cat.cols}, nil
	}
	// tag = 1 for left rows: a group's left count is its sum.
	tag, err := r.s.alloc(4 * max(cat.n, 2))
	if err != nil {
		return nil, err
	}
	if err := memsetInts(tag, 1, L.n); err != nil {
		return nil, err
	}
	if R.n > 0 {
		if err := memsetInts(tag+devOff(4*L.n), 0, R.n); err != nil {
			return nil, err
		}
	}
	tagCol := r.newDevCol(columnar.TInt32, nil, cat.n, colView{Data: uint64(tag), Width: 4})
	gidView := colView{Data: uint64(gid), Width: 4}
	left, err := r.aggregate(&relation{n: cat.n, cols: []*columnar.Column{tagCol}}, sql.AggExpr{Func: sql.AggSum,
		Arg: &sql.ColRef{Index: 0, Col: sql.Column{Name: "tag", Type: columnar.TInt32}}, T: columnar.TInt64},
		columnar.TInt64, gid, gidView, g, x)
	if err != nil {
		return nil, err
	}
	all, err := r.aggregate(cat, sql.AggExpr{Func: sql.AggCountStar, T: columnar.TInt64}, columnar.TInt64, gid, gidView, g, x)
	if err != nil {
		return nil, err
	}
	res, err := r.download(&relation{n: g, cols: []*columnar.Column{left, all}},
		sql.Schema{{Name: "l", Type: columnar.TInt64}, {Name: "n", Type: columnar.TInt64}})
	if err != nil {
		return nil, err
	}
	repRows := make([]int32, g)
	if err := copyDtoH(repRows, reps); err != nil {
		return nil, err
	}
	var rows []int32
	for i := 0; i < int(g); i++ {
		cl := res.Columns[0].I64[i]
		cr := res.Columns[1].I64[i] - cl
		k := int64(0)
		switch {
		case x.Kind == sql.SetIntersect && x.All:
			k = min(cl, cr)
		case x.Kind == sql.SetIntersect:
			if cl > 0 && cr > 0 {
				k = 1
			}
		case x.All:
			k = max(cl-cr, 0)
		default:
			if cl > 0 && cr == 0 {
				k = 1
			}
		}
		for ; k > 0; k-- {
			rows = append(rows, repRows[i])
		}
	}
	if len(rows) == 0 {
		return &relation{n: 0, cols: cat.cols}, nil
	}
	dr, err := r.upload(bytesOf(rows))
	if err != nil {
		return nil, err
	}
	return r.gatherRel(cat, dr, int64(len(rows)))
}

// castCol is column j of rel in type t.
func (r *queryRun) castCol(rel *relation, j int, t columnar.Type, op planner.Node) (*columnar.Column, error) {
	c := rel.cols[j]
	if sameType(c.Type, t) {
		return c, nil
	}
	ref := &sql.ColRef{Index: j, Col: sql.Column{Name: "c", Type: c.Type, Dict: c.Dict}}
	return r.exprCol(rel, &sql.Cast{E: ref, T: t}, t, op)
}

// remapCodes is string column j of rel with its codes mapped through
// from into dictionary into.
func (r *queryRun) remapCodes(rel *relation, j int, from []int32, into *columnar.Dictionary, op planner.Node) (*columnar.Column, error) {
	c := rel.cols[j]
	vals := make([]int64, len(from)+1)
	ok := make([]byte, len(vals))
	for i, v := range from {
		vals[i], ok[i] = int64(v), 1
	}
	p := &vmProgram{cols: []*columnar.Column{c}, t: c.Type, dict: into, out: 1, nreg: 2,
		tables: [][]byte{append(append([]byte(nil), bytesOf(vals)...), ok...)},
		ins:    []vmIns{{Op: vmLdCol, Dst: 0}, {Op: vmLookup, Dst: 1, A: 0, Imm: 0, Imm2: int64(len(from))}}}
	data, valid, err := r.evalVM(p, rel.n, 0, vmOutI32)
	if err != nil {
		return nil, err
	}
	return r.newDevCol(c.Type, into, rel.n, colView{Data: uint64(data), Valid: uint64(valid), Width: 4}), nil
}

// concatCol is a's na rows followed by b's nb rows, 8 bytes per value.
func (r *queryRun) concatCol(a, b *columnar.Column, na, nb int64, t columnar.Type) (*columnar.Column, error) {
	va, err := r.devView(a)
	if err != nil {
		return nil, err
	}
	vb, err := r.devView(b)
	if err != nil {
		return nil, err
	}
	m := na + nb
	data, err := r.s.alloc(max(8*m, 8))
	if err != nil {
		return nil, err
	}
	valid, err := r.s.alloc(max((m+63)/64*8, 8))
	if err != nil {
		return nil, err
	}
	if m > 0 {
		f, err := r.d.fn("concat_cols")
		if err != nil {
			return nil, err
		}
		p := struct {
			NA, NB   int64
			A, B     colView
			Out      uint64
			OutValid uint64
		}{na, nb, va, vb, uint64(data), uint64(valid)}
		if err := launch(f, r.d.grid((m+31)&^31), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return nil, err
		}
		noteKernel(va.readBytes(na)+vb.readBytes(nb), 8*m+(m+7)/8, m, m)
	}
	return r.newDevCol(t, a.Dict, m, colView{Data: uint64(data), Valid: uint64(valid), Width: 8, IsFloat: b2i(t.ID == columnar.Float64)}), nil
}

func checkSetOp(x *planner.SetOp) error {
	if len(x.Left.Schema()) != len(x.Out) || len(x.Right.Schema()) != len(x.Out) {
		return unsupported(x, "inputs of different widths")
	}
	if len(x.Out) > maxGroupKeys && !(x.Kind == sql.SetUnion && x.All) {
		return unsupported(x, fmt.Sprintf("more than %d columns", maxGroupKeys))
	}
	return nil
}
