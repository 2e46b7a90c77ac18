package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SortMergeJoin materializes both inputs, encodes their keys as words, sorts
// the rows of each side with non-NULL keys, and merges the two orders to find
// for every left row its run of equal right rows. The left rows then stream
// (morsel-parallel) through pairJoin with the run as their candidates, so
// residuals and outer / semi / anti semantics are shared with the hash join.
func (x *executor) runSortMergeJoin(n *planner.SortMergeJoin) (*rel, error) {
	// Key words and the sort permutations of both sides, the runs per left row.
	l, r, lk, rk, release, err := x.keyedInputs(n, n.Left, n.Right, n.LeftKeys, n.RightKeys, 4, 8)
	if err != nil {
		return nil, err
	}
	defer release()
	ordered := wordsKeepOrder(keyTypes(n.LeftKeys, n.RightKeys))
	lperm, err := x.sortedRows(lk, l.rows, ordered && n.LeftSorted)
	if err != nil {
		return nil, err
	}
	rperm, err := x.sortedRows(rk, r.rows, ordered && n.RightSorted)
	if err != nil {
		return nil, err
	}
	lo, hi := make([]int32, l.rows), make([]int32, l.rows)
	for i, j := 0, 0; i < len(lperm) && j < len(rperm); {
		c := cmpKeyRows(lk, lperm[i], rk, rperm[j])
		switch {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			j2 := j + 1
			for j2 < len(rperm) && cmpKeyRows(rk, rperm[j], rk, rperm[j2]) == 0 {
				j2++
			}
			for i < len(lperm) && cmpKeyRows(lk, lperm[i], rk, rperm[j]) == 0 {
				lo[lperm[i]], hi[lperm[i]] = int32(j), int32(j2)
				i++
			}
			j = j2
		}
	}
	rightHasNull := false
	for _, a := range rk.anyNull {
		rightHasNull = rightHasNull || a
	}
	if n.NullAware && n.Kind == sql.JoinAnti {
		switch {
		case r.rows == 0:
			return l, nil
		case rightHasNull:
			return gatherRel(l, nil), nil
		}
	}
	return x.streamRuns(n.Kind, n.Residual, n.NullAware, n.Out, l, r, lk.anyNull, lo, hi, rperm, n)
}

// streamRuns streams the left rows (morsel-parallel) through pairJoin with
// left row i's candidates the right rows runs[lo[i]:hi[i]], which gives
// the join's output by kind and residual; lnull marks left rows with a
// NULL key.
func (x *executor) streamRuns(kind sql.JoinKind, residual sql.Expr, nullAware bool, out sql.Schema,
	l, r *rel, lnull []bool, lo, hi, runs []int32, owner planner.Node) (*rel, error) {
	cs := &collectSink{x: x, owner: owner, types: typesOf(out), limit: -1}
	cp := &compiler{x: x}
	gather := make([]bool, len(l.cols)+len(r.cols))
	for i := range gather {
		gather[i] = true
	}
	chain := func(w int, sink operator) (operator, error) {
		var res selector
		if residual != nil {
			var err error
			if res, err = cp.compileFilter(residual); err != nil {
				return nil, err
			}
		}
		pj := newPairJoin(kind, true, l.types, r.types, r, gather, res, sink)
		return &mergeProbeOp{lo: lo, hi: hi, rperm: runs, lnull: lnull, pj: pj,
			nullAware: nullAware, semiShortcut: residual == nil &&
				(kind == sql.JoinSemi || kind == sql.JoinAnti)}, nil
	}
	if _, err := x.runRel(l, chain, cs, nil); err != nil {
		return nil, err
	}
	if err := cs.finish(); err != nil {
		return nil, err
	}
	x.free(l)
	x.free(r)
	return cs.result, nil
}

// sortedRows returns the rows without NULL keys, sorted by key words; rows
// that arrive sorted on the keys (the plan's LeftSorted / RightSorted,
// with words that keep the values' order) are only filtered.
func (x *executor) sortedRows(k *relKeys, rows int, arrivesSorted bool) ([]int32, error) {
	perm := make([]int32, 0, rows)
	for i := 0; i < rows; i++ {
		if !k.anyNull[i] {
			perm = append(perm, int32(i))
		}
	}
	if arrivesSorted {
		return perm, nil
	}
	if len(k.words) == 1 {
		w := k.words[0]
		if done, err := x.sortPermByInt(perm, func(i int32) (int64, bool) { return w[i], false }, false); done || err != nil {
			return perm, err
		}
	}
	err := x.sortPerm(perm, func(a, b int32) int { return cmpKeyRows(k, a, k, b) })
	return perm, err
}

// wordsKeepOrder reports whether key words of these types compare (as
// int64) in the order of their values, as a Sort left them: signed
// integers, dates, decimals and times do; interned strings, doubles' bit
// patterns and unsigned values above 2^63 do not, so such inputs are
// sorted again.
func wordsKeepOrder(types []columnar.Type) bool {
	for _, t := range types {
		switch t.ID {
		case columnar.Int32, columnar.Int64, columnar.Decimal, columnar.Date, columnar.Datetime, columnar.Time:
			if t.Unsigned {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func cmpKeyRows(a *relKeys, i int32, b *relKeys, j int32) int {
	for c := range a.words {
		if r := cmp3(a.words[c][i], b.words[c][j]); r != 0 {
			return r
		}
	}
	return 0
}

// mergeProbeOp feeds each left row's run of equal right rows to pairJoin.
type mergeProbeOp struct {
	lo, hi       []int32
	rperm        []int32
	lnull        []bool
	pj           *pairJoin
	nullAware    bool
	semiShortcut bool
}

func (m *mergeProbeOp) push(b *batch) error {
	pj := m.pj
	pj.begin(b)
	for _, p := range b.sel {
		row := b.off + int(p)
		if m.lnull[row] {
			if m.nullAware {
				pj.markMatched(p)
			}
			continue
		}
		for k := m.lo[row]; k < m.hi[row]; k++ {
			if err := pj.add(b, p, m.rperm[k]); err != nil {
				return err
			}
			if m.semiShortcut {
				break
			}
		}
	}
	return pj.end(b)
}
