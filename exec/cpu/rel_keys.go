package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// relKeys are key expressions evaluated over every row of a rel as words
// (see keys.go); rows with a NULL in any key have anyNull set.
type relKeys struct {
	words   [][]int64
	nulls   [][]bool // nil per column without NULLs
	anyNull []bool
}

// encodeRel evaluates keys over r. ins[i] is the interner of string key i,
// shared by every rel whose keys must compare.
func (x *executor) encodeRel(r *rel, keys []sql.Expr, ins []*interner, types []columnar.Type) (*relKeys, error) {
	rk := &relKeys{words: make([][]int64, len(keys)), nulls: make([][]bool, len(keys)),
		anyNull: make([]bool, r.rows)}
	cp := &compiler{x: x}
	vs := make([]*vec, len(r.cols))
	for i := range vs {
		vs[i] = &vec{}
	}
	b := &batch{}
	for i, k := range keys {
		ev, err := cp.compile(k)
		if err != nil {
			return nil, err
		}
		ev = castTo(ev, k.Type(), types[i])
		enc := keyEncoder{t: types[i], in: ins[i], insert: true}
		rk.words[i] = make([]int64, r.rows)
		nulls := make([]bool, batchSize)
		for off := 0; off < r.rows; off += batchSize {
			n := min(batchSize, r.rows-off)
			r.readBatch(b, vs, off, n)
			v := ev.eval(b, b.sel)
			if enc.encode(v, b.sel, rk.words[i][off:off+n], nulls) {
				if rk.nulls[i] == nil {
					rk.nulls[i] = make([]bool, r.rows)
				}
				for j := 0; j < n; j++ {
					if nulls[j] {
						rk.nulls[i][off+j] = true
						rk.anyNull[off+j] = true
					}
				}
			}
		}
	}
	return rk, nil
}

// colRefs returns references to every column of s.
func colRefs(s []columnar.Type) []sql.Expr {
	out := make([]sql.Expr, len(s))
	for i, t := range s {
		out[i] = &sql.ColRef{Index: i, Col: sql.Column{Type: t}}
	}
	return out
}

// keyInterners returns fresh interners for the string types.
func keyInterners(types []columnar.Type) []*interner {
	out := make([]*interner, len(types))
	for i, t := range types {
		if t.ID == columnar.String || isVectorKey(t) {
			out[i] = newInterner(nil)
		}
	}
	return out
}

// groupRows assigns each row of rk a group id (equal keys, NULLs equal) in
// table gt, returning the ids.
func groupRows(gt *groupTable, rk *relKeys, rows int) []int32 {
	ids := make([]int32, rows)
	for r := 0; r < rows; r++ {
		p := int32(r)
		h := hashKey(rk.words, rk.nulls, p)
		ids[r] = gt.findOrInsert(rk.words, rk.nulls, p, h)
	}
	return ids
}

// keyedInputs materializes both inputs of an equi-join (for op) and
// encodes their keys as words in the types both sides compare in, after
// reserving the join's working memory, perRow bytes for each row of both
// sides plus perLeft for each left row on top of the key words; release
// returns it.
func (x *executor) keyedInputs(op, left, right planner.Node, lkeys, rkeys []sql.Expr, perRow, perLeft int64) (l, r *rel, lk, rk *relKeys, release func(), err error) {
	if l, err = x.collect(left, -1, op); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	if r, err = x.collect(right, -1, op); err != nil {
		x.free(l)
		return nil, nil, nil, nil, nil, err
	}
	types := keyTypes(lkeys, rkeys)
	work := int64(l.rows+r.rows)*(8*int64(len(types))+perRow) + perLeft*int64(l.rows)
	if err := x.reserve(op, work); err != nil {
		// Given back: a join past the memory limit runs again by
		// partitions (grace_hash_join.go).
		x.free(l)
		x.free(r)
		return nil, nil, nil, nil, nil, err
	}
	release = func() { x.release(work) }
	ins := keyInterners(types)
	if lk, err = x.encodeRel(l, lkeys, ins, types); err == nil {
		rk, err = x.encodeRel(r, rkeys, ins, types)
	}
	if err != nil {
		release()
		return nil, nil, nil, nil, nil, err
	}
	return l, r, lk, rk, release, nil
}

// keyTypes is, per key pair of an equi-join, the type both sides compare in.
func keyTypes(lkeys, rkeys []sql.Expr) []columnar.Type {
	types := make([]columnar.Type, len(lkeys))
	for i := range types {
		types[i] = sql.OperandType(lkeys[i].Type(), rkeys[i].Type())
	}
	return types
}
