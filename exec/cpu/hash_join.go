package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// hashJoinOp probes a HashJoin's table with each batch of its probe input.
//
// Fast path (build keys unique and no residual — every dimension join of a
// star schema): each probe row meets at most one build row, so the join
// keeps the batch's positions, narrows (inner, semi, anti) or keeps (left)
// its selection, and gathers only the needed build columns at the surviving
// positions; with a direct array and one integer key the probe loop is a
// subtract, a bounds check and a load per row. Otherwise candidate pairs go
// through pairJoin.
type hashJoinOp struct {
	j     *planner.HashJoin
	t     *joinTable
	keys  []evaluator
	enc   []keyEncoder
	pk    [][]int64
	pnull []bool
	knull []bool // per position: some key is NULL
	fast  bool
	idx   []int32
	keep  []int32
	out   batch
	bvecs []*vec
	// Output layout: probe columns at probeOff, build columns at buildOff.
	probeOff, buildOff int
	nBuild             int
	needed             []bool
	pj                 *pairJoin
	semiShortcut       bool
	next               operator
}

func newHashJoinOp(cp *compiler, j *planner.HashJoin, t *joinTable, next operator) (*hashJoinOp, error) {
	op := &hashJoinOp{j: j, t: t, next: next}
	for i, k := range j.ProbeKeys() {
		ev, err := cp.compile(k)
		if err != nil {
			return nil, err
		}
		// Probe and build keys must be words of the same domain.
		bt := j.BuildKeys()[i].Type()
		if keyDomain(k.Type()) != keyDomain(bt) {
			ev = castTo(ev, k.Type(), bt)
		}
		op.keys = append(op.keys, ev)
		op.enc = append(op.enc, keyEncoder{t: bt, in: t.interners[i]})
		op.pk = append(op.pk, make([]int64, batchSize))
	}
	op.pnull = make([]bool, batchSize)
	op.knull = make([]bool, batchSize)
	op.idx = make([]int32, batchSize)
	nl, nr := len(j.Left.Schema()), len(j.Right.Schema())
	if j.BuildSide == planner.BuildLeft {
		op.probeOff, op.buildOff, op.nBuild = nl, 0, nl
	} else {
		op.probeOff, op.buildOff, op.nBuild = 0, nl, nr
	}
	semiAnti := j.Kind == sql.JoinSemi || j.Kind == sql.JoinAnti
	op.needed = j.Needed
	if op.needed == nil {
		op.needed = make([]bool, len(j.Out))
		for i := range op.needed {
			op.needed[i] = true
		}
	}
	op.fast = t.unique && j.Residual == nil
	if !semiAnti {
		op.out.cols = make([]*vec, nl+nr)
		op.bvecs = make([]*vec, op.nBuild)
		for i := range op.bvecs {
			op.bvecs[i] = &vec{}
		}
	}
	if !op.fast {
		var res selector
		gather := make([]bool, nl+nr)
		copy(gather, op.needed)
		if j.Residual != nil {
			var err error
			if res, err = cp.compileFilter(j.Residual); err != nil {
				return nil, err
			}
			walkCols(j.Residual, func(c int) { gather[c] = true })
		}
		op.pj = newPairJoin(j.Kind, j.BuildSide == planner.BuildRight, typesOf(j.Left.Schema()),
			typesOf(j.Right.Schema()), t.rel, gather, res, next)
		op.semiShortcut = semiAnti && j.Residual == nil
	}
	return op, nil
}

func (op *hashJoinOp) push(b *batch) error {
	j, t := op.j, op.t
	sel := b.sel
	// NULL-aware anti join (NOT IN): an empty subquery keeps every row, a
	// NULL in it keeps none.
	if j.NullAware && j.Kind == sql.JoinAnti {
		if t.rows == 0 {
			return op.next.push(b)
		}
		if t.hasNullKey {
			return nil
		}
	}
	anyNull := false
	for i, ev := range op.keys {
		v := ev.eval(b, sel)
		if i == 0 && op.fast && t.bitmap != nil && v.f64 == nil {
			return op.probeBitmap(b, v)
		}
		if i == 0 && op.fast && t.direct && len(op.keys) == 1 && v.nulls == nil && v.f64 == nil &&
			op.enc[0].t.ID != columnar.String {
			return op.probeDirect(b, v)
		}
		if op.enc[i].encode(v, sel, op.pk[i], op.pnull) {
			if !anyNull {
				for _, p := range sel {
					op.knull[p] = false
				}
			}
			anyNull = true
			for _, p := range sel {
				op.knull[p] = op.knull[p] || op.pnull[p]
			}
		}
	}
	if op.fast {
		idx := op.idx
		for _, p := range sel {
			idx[p] = -1
			if anyNull && op.knull[p] {
				continue
			}
			if r := t.first(op.pk, p); r != 0 {
				idx[p] = r - 1
			}
		}
		if anyNull && j.NullAware && j.Kind == sql.JoinAnti {
			for _, p := range sel {
				if op.knull[p] {
					idx[p] = 0 // counts as matched: dropped
				}
			}
		}
		return op.emit(b)
	}
	pj := op.pj
	pj.begin(b)
	for _, p := range sel {
		if anyNull && op.knull[p] {
			if j.NullAware {
				pj.markMatched(p)
			}
			continue
		}
		for r := t.first(op.pk, p); r != 0; r = t.nextMatch(r, op.pk, p) {
			if err := pj.add(b, p, r-1); err != nil {
				return err
			}
			if op.semiShortcut {
				break
			}
		}
	}
	return pj.end(b)
}

// probeDirect is the fast path for one integer key against a direct array:
// per row a subtract, a bounds check and a load, with the surviving
// positions compacted branch-free as they are found.
func (op *hashJoinOp) probeDirect(b *batch, v *vec) error {
	t := op.t
	heads, lo, n := t.heads, t.min, uint64(len(t.heads))
	idx := op.idx
	sel := b.sel
	keep := growSel(op.keep, len(sel))
	op.keep = keep
	k := 0
	// Inner and semi joins keep matches, anti joins the others; left joins
	// keep every row (k is then unused).
	want := 1
	if op.j.Kind == sql.JoinAnti {
		want = 0
	}
	if v.i32 != nil {
		keys := v.i32
		for _, p := range sel {
			r := int32(-1)
			if s := uint64(int64(keys[p]) - lo); s < n {
				r = heads[s] - 1
			}
			idx[p] = r
			keep[k] = p
			k += b2n(r >= 0) ^ want ^ 1
		}
	} else {
		keys := v.i64
		for _, p := range sel {
			r := int32(-1)
			if s := uint64(keys[p] - lo); s < n {
				r = heads[s] - 1
			}
			idx[p] = r
			keep[k] = p
			k += b2n(r >= 0) ^ want ^ 1
		}
	}
	if op.j.Kind == sql.JoinLeft {
		return op.output(b, sel)
	}
	return op.output(b, keep[:k])
}

// emit finishes the general fast path: idx[p] is the matching build row or
// -1.
func (op *hashJoinOp) emit(b *batch) error {
	idx := op.idx
	keep := growSel(op.keep, len(b.sel))
	op.keep = keep
	k := 0
	want := 1
	switch op.j.Kind {
	case sql.JoinLeft:
		return op.output(b, b.sel)
	case sql.JoinAnti:
		want = 0
	}
	for _, p := range b.sel {
		keep[k] = p
		k += b2n(idx[p] >= 0) ^ want ^ 1
	}
	return op.output(b, keep[:k])
}

// output pushes the rows keep of b joined with their build rows idx[p].
func (op *hashJoinOp) output(b *batch, keep []int32) error {
	if len(keep) == 0 {
		return nil
	}
	j := op.j
	if j.Kind == sql.JoinSemi || j.Kind == sql.JoinAnti {
		b.sel = keep
		return op.next.push(b)
	}
	o := &op.out
	o.n, o.sel, o.morsel = b.n, keep, b.morsel
	copy(o.cols[op.probeOff:], b.cols)
	for i := 0; i < op.nBuild; i++ {
		o.cols[op.buildOff+i] = nil
		if op.needed[op.buildOff+i] {
			if col := op.t.rel.cols[i]; col != nil {
				gatherColAt(op.bvecs[i], col, op.idx, keep, b.n)
				o.cols[op.buildOff+i] = op.bvecs[i]
			}
		}
	}
	return op.next.push(o)
}

// walkCols calls fn with every column an expression references.
func walkCols(e sql.Expr, fn func(int)) {
	planner.WalkExpr(e, func(x sql.Expr) {
		switch x := x.(type) {
		case *sql.ColRef:
			fn(x.Index)
		case *sql.CodeSet:
			fn(x.E.Index)
		}
	})
}

// keyDomain names the word domain of a key type: keys of equal domains
// compare as words without conversion.
func keyDomain(t columnar.Type) int {
	switch t.ID {
	case columnar.String:
		return -1
	case columnar.Float64:
		return -2
	case columnar.Vector:
		return -3
	case columnar.Decimal:
		return t.Scale
	}
	return 0
}
