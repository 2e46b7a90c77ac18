package cpu

import (
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// frameWideSum is SUM, AVG or COUNT over window frames where the argument
// or the result is a wide DECIMAL: 256-bit prefix sums per partition, a
// frame's total their difference (ok false for other aggregates).
func frameWideSum(w *sql.WindowFunc, wo *windowOrder, fr *frames, arg *columnar.Column) (*columnar.Column, bool) {
	f := w.Agg.Func
	argT := w.Agg.Arg.Type()
	if f != sql.AggSum && f != sql.AggAvg || !argT.IsWide() && !w.Agg.T.IsWide() || !isWideOperand(argT) {
		return nil, false
	}
	n := len(wo.perm)
	cnt := make([]int64, n+1)
	sum := make([]decimal.Num, n+1)
	wo.partitions(func(ps, pe int) {
		var c int64
		var s decimal.Num
		for i := ps; i < pe; i++ {
			row := int(wo.perm[i])
			if !arg.IsNull(row) {
				c++
				s = decimal.Add(s, wideColumnValue(arg, row))
			}
			cnt[i+1], sum[i+1] = c, s
		}
	})
	starts := partStarts(wo)
	acc := &wideSumAcc{avg: f == sql.AggAvg, argT: argT, t: w.Agg.T, expr: w.Agg}
	acc.grow(n)
	groups := make([]int32, n)
	for i := range wo.perm {
		groups[i] = int32(i)
		lo, hi := fr.lo[i], fr.hi[i]
		if hi <= lo {
			continue
		}
		acc.n[i], acc.s[i] = cnt[hi], sum[hi]
		if lo != starts[i] {
			acc.n[i], acc.s[i] = cnt[hi]-cnt[lo], decimal.Sub(sum[hi], sum[lo])
		}
	}
	return gatherColumn(acc.result(groups, nil), inversePerm(wo.perm)), true
}

// wideColumnValue is row i of a DECIMAL or integer column as an unscaled
// wide value at its own scale.
func wideColumnValue(c *columnar.Column, i int) decimal.Num {
	if c.Type.IsBigUnsigned() {
		return decimal.FromUint64(uint64(c.I64[i]))
	}
	return c.WideAt(i)
}
