package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SetOp materializes both inputs and works on row keys (every column as a
// word, NULLs equal), but UNION ALL, whose inputs stream (union_all.go).
// UNION keeps the first of each distinct row of the concatenation;
// INTERSECT / EXCEPT keep the distinct left rows present / absent on the
// right; the ALL forms count: a left row consumes one matching right row.
// Columns of a case-insensitive collation compare by its keys (setOpKeys).
// Past the memory limit both inputs are partitioned (set_op_spill.go).
func (x *executor) runSetOp(n *planner.SetOp) (*rel, error) {
	if planner.UnionAll(n) != nil {
		return x.collect(n, -1, nil) // its inputs stream (union_all.go)
	}
	restore := x.attemptMark()
	l, err := x.collect(n.Left, -1, n)
	if err != nil {
		return x.setOpSpilled(n, err, restore)
	}
	r, err := x.collect(n.Right, -1, n)
	if err != nil {
		x.free(l)
		return x.setOpSpilled(n, err, restore)
	}
	return x.setOpRels(n, l, r)
}

// setOpRels applies n to its materialized inputs.
func (x *executor) setOpRels(n *planner.SetOp, l, r *rel) (*rel, error) {
	types := typesOf(n.Out)
	if n.Kind == sql.SetUnion {
		u := concatRels(l, r, types)
		if n.All {
			return u, nil
		}
		return x.distinctRel(u, types)
	}
	ins := keyInterners(types)
	lk, err := x.encodeRel(l, setOpKeys(n.Out, l.types), ins, types)
	if err != nil {
		return nil, err
	}
	rk, err := x.encodeRel(r, setOpKeys(n.Out, r.types), ins, types)
	if err != nil {
		return nil, err
	}
	gt := newGroupTable(len(types))
	rids := groupRows(gt, rk, r.rows)
	rightGroups := gt.n
	counts := make([]int64, rightGroups)
	for _, g := range rids {
		counts[g]++
	}
	lids := groupRows(gt, lk, l.rows)
	var keep []int32
	seen := make(map[int32]bool)
	for i, g := range lids {
		inRight := int(g) < rightGroups && counts[g] > 0
		switch {
		case n.All && n.Kind == sql.SetIntersect:
			if inRight {
				counts[g]--
				keep = append(keep, int32(i))
			}
		case n.All: // EXCEPT ALL
			if inRight {
				counts[g]--
			} else {
				keep = append(keep, int32(i))
			}
		default:
			if seen[g] {
				continue
			}
			seen[g] = true
			if inRight == (n.Kind == sql.SetIntersect) {
				keep = append(keep, int32(i))
			}
		}
	}
	return gatherRel(l, keep), nil
}

// setOpKeys are the values an input's rows (of types) compare by: its
// columns, a column of a case-insensitive collation by the collation's
// keys ('a' and 'A' meet under utf8mb4_0900_ai_ci; the left input's first
// spelling is kept, as in MySQL).
func setOpKeys(out sql.Schema, types []columnar.Type) []sql.Expr {
	keys := colRefs(types)
	for i, c := range out {
		if c.Collation != "" && i < len(keys) {
			keys[i] = sql.CollationKeyOf(keys[i], c.Collation)
		}
	}
	return keys
}

// distinctRel keeps the first row of each distinct row of r.
func (x *executor) distinctRel(r *rel, types []columnar.Type) (*rel, error) {
	rk, err := x.encodeRel(r, colRefs(r.types), keyInterners(types), types)
	if err != nil {
		return nil, err
	}
	gt := newGroupTable(len(types))
	var keep []int32
	for i, g := range groupRows(gt, rk, r.rows) {
		if int(g) == len(keep) {
			keep = append(keep, int32(i))
		}
	}
	return gatherRel(r, keep), nil
}

// concatRels appends b's rows to a's.
func concatRels(a, b *rel, types []columnar.Type) *rel {
	out := &rel{types: types, rows: a.rows + b.rows, cols: make([]*columnar.Column, len(types))}
	for c, t := range types {
		parts := []*vec{colVec(a.cols[c]), colVec(b.cols[c])}
		out.cols[c] = concatVecs(t, parts, []int{a.rows, b.rows}, out.rows)
	}
	return out
}

// colVec views a whole column as a vector.
func colVec(c *columnar.Column) *vec {
	v := &vec{t: c.Type, i32: c.I32, i64: c.I64, f64: c.F64, w: c.W, dict: c.Dict}
	if c.Type.ID == columnar.Vector {
		v.vecs = vectorRows(nil, c, 0, c.Len)
	}
	if c.Valid != nil {
		v.nulls = make([]bool, c.Len)
		for i := range v.nulls {
			v.nulls[i] = c.IsNull(i)
		}
	}
	return v
}
