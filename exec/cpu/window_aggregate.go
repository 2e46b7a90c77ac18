package cpu

import (
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// frameAggregate computes SUM, COUNT, AVG, MIN or MAX over each row's
// frame (the statistical and bitwise aggregates: window_aggregate_more.go).
// SUM, COUNT and AVG subtract prefix sums (restarted at every
// partition, so a running total adds exactly as a sequential sum would);
// integer and decimal prefixes may wrap, and their differences are still
// exact whenever the frame's own sum fits. A DOUBLE frame that starts after
// its partition's first row is summed on its own (window_float_sum.go). The per-row sums and counts feed
// the hash aggregate's sumAcc, so types, rounding and the NULL of an empty
// frame follow GROUP BY exactly. MIN and MAX keep a monotonic deque.
func frameAggregate(w *sql.WindowFunc, wo *windowOrder, fr *frames, args []*columnar.Column) (*columnar.Column, error) {
	n := len(wo.perm)
	switch w.Agg.Func {
	case sql.AggMin, sql.AggMax:
		return gatherColumn(args[0], minMaxRows(w.Agg.Func == sql.AggMax, wo, fr, args[0])), nil
	case sql.AggCountStar:
		col := newColumn(columnar.TInt64, n, false)
		for i, row := range wo.perm {
			col.I64[row] = int64(fr.hi[i] - fr.lo[i])
		}
		return col, nil
	}
	arg := args[0]
	if col, ok := frameWideSum(w, wo, fr, arg); ok {
		return col, nil
	}
	if col, ok := frameMoreAggregate(w, wo, fr, arg); ok {
		return col, nil
	}
	float := arg.F64 != nil
	cnt, si, sh, sf := prefixSums(wo, arg)
	// frameSum reads the prefix difference; a frame starting at its
	// partition's first row reads the prefix alone.
	starts := partStarts(wo)
	count := func(i int) int64 {
		lo, hi := fr.lo[i], fr.hi[i]
		if hi <= lo {
			return 0
		}
		if lo == starts[i] {
			return cnt[hi]
		}
		return cnt[hi] - cnt[lo]
	}
	if w.Agg.Func == sql.AggCount {
		col := newColumn(columnar.TInt64, n, false)
		for i, row := range wo.perm {
			col.I64[row] = count(i)
		}
		return col, nil
	}
	acc := &sumAcc{avg: w.Agg.Func == sql.AggAvg, argT: w.Agg.Arg.Type(), t: w.Agg.T, float: float, expr: w.Agg}
	acc.grow(n)
	if float {
		slidingFloatSums(wo, arg, fr, starts, acc.f)
	}
	rc := make([]int64, n)
	groups := make([]int32, n)
	for i := range wo.perm {
		lo, hi := fr.lo[i], fr.hi[i]
		groups[i] = int32(i)
		c := count(i)
		if hi > lo {
			rc[i] = int64(hi - lo)
		}
		acc.nulls[i] = rc[i] - c
		if c == 0 {
			continue
		}
		switch {
		case float && lo == starts[i]:
			acc.f[i] = sf[hi]
		case float: // slidingFloatSums
		case lo == starts[i]:
			acc.s[i], acc.hi[i] = si[hi], sh[hi]
		default:
			// The 128-bit difference of the two prefixes.
			borrow := int64(0)
			if uint64(si[hi]) < uint64(si[lo]) {
				borrow = 1
			}
			acc.s[i], acc.hi[i] = si[hi]-si[lo], sh[hi]-sh[lo]-borrow
		}
	}
	return gatherColumn(acc.result(groups, rc), inversePerm(wo.perm)), nil
}

// prefixSums returns, per sorted position i, the count and sum of the
// non-NULL values of arg at the positions of i's partition before i (index
// i+1 holds them through i); integer sums (raw decimals) are 128 bits, low
// words si and high words sh (an unsigned column's values extend no sign),
// so that no running total wraps; DOUBLE sums are float64.
func prefixSums(wo *windowOrder, arg *columnar.Column) (cnt, si, sh []int64, sf []float64) {
	n := len(wo.perm)
	float := arg.F64 != nil
	cnt = make([]int64, n+1)
	if float {
		sf = make([]float64, n+1)
	} else {
		si, sh = make([]int64, n+1), make([]int64, n+1)
	}
	unsigned := arg.Type.Unsigned
	wo.eachPartition(func(ps, pe int) {
		var c, s, h int64
		var f float64
		for i := ps; i < pe; i++ {
			row := int(wo.perm[i])
			if !arg.IsNull(row) {
				c++
				if float {
					f += arg.F64[row]
				} else {
					v := arg.Int64At(row)
					next := s + v
					if uint64(next) < uint64(s) {
						h++ // carry out of the low word
					}
					if v < 0 && !unsigned {
						h--
					}
					s = next
				}
			}
			cnt[i+1] = c
			if float {
				sf[i+1] = f
			} else {
				si[i+1], sh[i+1] = s, h
			}
		}
	})
	return cnt, si, sh, sf
}

// partStarts returns each sorted position's partition start.
func partStarts(wo *windowOrder) []int {
	out := make([]int, len(wo.perm))
	wo.partitions(func(ps, pe int) {
		for i := ps; i < pe; i++ {
			out[i] = ps
		}
	})
	return out
}

// inversePerm maps each row to its sorted position.
func inversePerm(perm []int32) []int32 {
	inv := make([]int32, len(perm))
	for i, r := range perm {
		inv[r] = int32(i)
	}
	return inv
}

// minMaxRows returns, per input row, the row holding its frame's least
// (greatest) non-NULL value, or -1. The deque holds the frame's candidate
// positions with values strictly improving from back to front; each position
// enters and leaves once per partition, since frames only slide forward.
func minMaxRows(max bool, wo *windowOrder, fr *frames, arg *columnar.Column) []int32 {
	idx := make([]int32, len(wo.perm))
	better := func(a, b int32) bool { // a's value beats (or ties) b's
		c := compareRows(arg, a, b)
		if max {
			return c >= 0
		}
		return c <= 0
	}
	wo.partitions(func(ps, pe int) {
		var dq []int
		next := ps
		for i := ps; i < pe; i++ {
			lo, hi := fr.lo[i], fr.hi[i]
			for ; next < hi; next++ {
				r := wo.perm[next]
				if arg.IsNull(int(r)) {
					continue
				}
				for len(dq) > 0 && better(r, wo.perm[dq[len(dq)-1]]) {
					dq = dq[:len(dq)-1]
				}
				dq = append(dq, next)
			}
			for len(dq) > 0 && dq[0] < lo {
				dq = dq[1:]
			}
			if len(dq) > 0 && lo < hi {
				idx[wo.perm[i]] = wo.perm[dq[0]]
			} else {
				idx[wo.perm[i]] = -1
			}
		}
	})
	return idx
}

// compareRows orders the non-NULL values of rows a and b of c.
func compareRows(c *columnar.Column, a, b int32) int {
	switch {
	case c.Type.ID == columnar.String:
		x, y := c.StringAt(int(a)), c.StringAt(int(b))
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case c.F64 != nil:
		return cmp3(c.F64[a], c.F64[b])
	case c.W != nil:
		return decimal.Cmp(c.W[a], c.W[b])
	}
	return cmp3(orderedInt64(c.Type, c.Int64At(int(a))), orderedInt64(c.Type, c.Int64At(int(b))))
}
