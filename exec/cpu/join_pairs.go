package cpu

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// pairJoin turns candidate pairs (a probe row of the current batch, a build
// row) into join output; every join algorithm that may meet several build
// rows per probe row (hash join with duplicate keys or a residual, sort-merge
// join, nested loops) feeds it. Pairs are gathered into batches of up to
// batchSize rows over left++right, the residual filters them, and by kind:
// inner joins emit the surviving pairs; left joins emit them plus the probe
// rows left without one, NULL-extended; semi and anti joins emit the probe
// rows with / without a surviving pair.
type pairJoin struct {
	kind      sql.JoinKind
	probeLeft bool
	nl, nr    int // left and right column counts
	build     *rel
	gather    []bool   // columns of left++right to gather into pair batches
	residual  selector // over left++right; nil: none
	next      operator

	pairP, pairB []int32
	matched      []bool
	pb           batch
	pvecs        []*vec
	nullCols     []*vec // all-NULL right columns for LEFT JOIN
	ob           batch
	keep         []int32
}

func newPairJoin(kind sql.JoinKind, probeLeft bool, leftTypes, rightTypes []columnar.Type,
	build *rel, gather []bool, residual selector, next operator) *pairJoin {
	pj := &pairJoin{kind: kind, probeLeft: probeLeft, nl: len(leftTypes), nr: len(rightTypes),
		build: build, gather: gather, residual: residual, next: next}
	pj.pvecs = make([]*vec, pj.nl+pj.nr)
	for i := range pj.pvecs {
		pj.pvecs[i] = &vec{}
	}
	pj.pb.cols = make([]*vec, pj.nl+pj.nr)
	if kind == sql.JoinLeft {
		for _, t := range rightTypes {
			pj.nullCols = append(pj.nullCols, nullVec(t))
		}
	}
	return pj
}

// begin starts a probe batch.
func (pj *pairJoin) begin(b *batch) {
	if cap(pj.matched) < b.n {
		pj.matched = make([]bool, max(b.n, batchSize))
	}
	pj.matched = pj.matched[:b.n]
	clear(pj.matched)
	pj.pairP, pj.pairB = pj.pairP[:0], pj.pairB[:0]
}

// markMatched counts probe row p as matched without a pair (NULL-aware anti
// joins drop rows with a NULL key this way).
func (pj *pairJoin) markMatched(p int32) { pj.matched[p] = true }

// add records a candidate pair, flushing a full batch of pairs.
func (pj *pairJoin) add(b *batch, p, r int32) error {
	pj.pairP = append(pj.pairP, p)
	pj.pairB = append(pj.pairB, r)
	if len(pj.pairP) == batchSize {
		return pj.flush(b)
	}
	return nil
}

func (pj *pairJoin) flush(b *batch) error {
	np := len(pj.pairP)
	if np == 0 {
		return nil
	}
	defer func() { pj.pairP, pj.pairB = pj.pairP[:0], pj.pairB[:0] }()
	pb := &pj.pb
	pb.n, pb.sel, pb.morsel = np, identSel[:np], b.morsel
	pOff, bOff := 0, pj.nl
	if !pj.probeLeft {
		pOff, bOff = pj.nl, 0
	}
	for i := range pb.cols {
		pb.cols[i] = nil
		if !pj.gather[i] {
			continue
		}
		v := pj.pvecs[i]
		if pj.isProbeCol(i) {
			if src := b.cols[i-pOff]; src != nil {
				gatherVecDense(v, src, pj.pairP)
				pb.cols[i] = v
			}
		} else if col := pj.build.cols[i-bOff]; col != nil {
			gatherColDense(v, col, pj.pairB)
			pb.cols[i] = v
		}
	}
	sel := pb.sel
	if pj.residual != nil {
		sel = pj.residual.filter(pb, sel)
	}
	for _, k := range sel {
		pj.matched[pj.pairP[k]] = true
	}
	if len(sel) > 0 && (pj.kind == sql.JoinInner || pj.kind == sql.JoinLeft || pj.kind == sql.JoinCross) {
		pb.sel = sel
		return pj.next.push(pb)
	}
	return nil
}

// isProbeCol reports whether column i of left++right comes from the probe
// input.
func (pj *pairJoin) isProbeCol(i int) bool {
	if pj.probeLeft {
		return i < pj.nl
	}
	return i >= pj.nl
}

// end finishes a probe batch: the unmatched (left join, anti join) or
// matched (semi join) probe rows are emitted.
func (pj *pairJoin) end(b *batch) error {
	if err := pj.flush(b); err != nil {
		return err
	}
	want := pj.kind == sql.JoinSemi
	if pj.kind != sql.JoinLeft && pj.kind != sql.JoinSemi && pj.kind != sql.JoinAnti {
		return nil
	}
	keep := pj.keep[:0]
	for _, p := range b.sel {
		if pj.matched[p] == want {
			keep = append(keep, p)
		}
	}
	pj.keep = keep
	if len(keep) == 0 {
		return nil
	}
	if pj.kind == sql.JoinLeft {
		ob := &pj.ob
		ob.n, ob.sel, ob.morsel = b.n, keep, b.morsel
		ob.cols = append(append(ob.cols[:0], b.cols...), pj.nullCols...)
		return pj.next.push(ob)
	}
	b.sel = keep
	return pj.next.push(b)
}
