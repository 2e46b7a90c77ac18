//go:build cuda

package gpu

import (
	"math"
	"testing"
)

// The kernel feature set and the overflow proof that lets a fast kernel
// add sums without checking them.
func TestFastFeatures(t *testing.T) {
	col := func(lo, hi int64) *devColumn { return &devColumn{min: lo, max: hi} }
	sum := func(op int32) starAgg { return starAgg{fn: aggSum, op: op, a: 0, b: 1} }
	cases := []struct {
		name   string
		a      starAgg
		da, db *devColumn
		rows   int64
		want   bool
	}{
		{"count", starAgg{fn: aggCountStar, a: -1, b: -1}, nil, nil, 1 << 40, true},
		{"ssb revenue", sum(exprMul), col(90000, 10500000), col(0, 10), 60_000_000, true},
		{"negative range", sum(exprA), col(-math.MaxInt32, 5), nil, 1 << 31, true},
		{"product past 2^62 over rows", sum(exprMul), col(0, math.MaxInt32), col(0, math.MaxInt32), 2, false},
		{"sum past 2^62", sum(exprA), col(0, math.MaxInt32), nil, 1 << 32, false},
		{"min", starAgg{fn: aggMin, a: 0, b: -1}, col(0, 1), nil, 10, false},
		{"float", starAgg{fn: aggSum, a: 0, b: -1, isFloat: true}, col(0, 1), nil, 10, false},
		{"empty column", sum(exprA), col(1, 0), nil, 10, false},
	}
	for _, c := range cases {
		if got := aggCannotOverflow(c.a, c.da, c.db, c.rows); got != c.want {
			t.Errorf("%s: cannot overflow %v, want %v", c.name, got, c.want)
		}
	}
	var sp starParams
	sp.NDims, sp.NAggs = 2, 1
	if f := fastFeatures(&sp, true); f != 0 || fastKernelName(false, 8, f) != "star_fast_8_f0" {
		t.Errorf("plain star: features %d, kernel %s", f, fastKernelName(false, 8, f))
	}
	sp.Dims[1].Bits = 1
	if f := fastFeatures(&sp, false); f != fastNeedBits|fastNeedAggs || fastKernelName(true, 8, f) != "star_fast_scalar_8_f3" {
		t.Errorf("bitmap, checked sums: features %d", f)
	}
	sp.Aggs[0].A.Frame, sp.Aggs[0].A.Width = 1, 4
	if f := fastFeatures(&sp, true); fastKernelName(false, 8, f) != "star_fast_8_f17" || fastKernelName(false, 16, f) != "star_fast_16_f63" || fastKernelName(false, 16, 0) != "star_fast_16" {
		t.Errorf("packed: features %d, kernel %s", f, fastKernelName(false, 8, f))
	}
	sp.Dims[0].SlotValue = 1
	if f := fastFeatures(&sp, true); fastKernelName(true, 8, f) != "star_fast_scalar_8_f21" {
		t.Errorf("packed, remapped: features %d, kernel %s", f, fastKernelName(true, 8, f))
	}
	sp.Dims[0].HKeys = 1
	if f := fastFeatures(&sp, true); fastKernelName(false, 8, f) != "star_fast_8_f63" {
		t.Errorf("packed, hash table: features %d, kernel %s", f, fastKernelName(false, 8, f))
	}
	sp.Aggs[0].A.Frame = 0
	if f := fastFeatures(&sp, true); fastKernelName(false, 8, f) != "star_fast_8" {
		t.Errorf("hash table: features %d, kernel %s", f, fastKernelName(false, 8, f))
	}
	// Narrow columns (1 or 2 bytes, frames): their own kernels without
	// hash tables, the all-feature ones with; beside a packed column, the
	// all-feature packed ones.
	sp.Dims[0].HKeys, sp.Dims[0].SlotValue = 0, 0
	sp.Preds[0].Col = colView{Width: 2, Frame: 1}
	sp.NPreds = 1
	if f := fastFeatures(&sp, true); f != fastNeedBits|fastNeedNarrow || fastKernelName(false, 8, f) != "star_fast_8_f33" || fastKernelName(true, 16, f) != "star_fast_scalar_16" {
		t.Errorf("narrow: features %d, kernel %s", f, fastKernelName(false, 8, f))
	}
	var one starParams
	one.NPreds, one.Preds[0].Col = 1, colView{Width: 1, Frame: 1}
	if !fastEligible(&one) {
		t.Error("a narrow column is not eligible for the fast kernels")
	}
	if one.Preds[0].Col.Valid = 1; fastEligible(&one) {
		t.Error("a narrow column with NULLs is eligible for the fast kernels")
	}
	sp.Aggs[0].A = colView{Width: 4, Frame: 1}
	if f := fastFeatures(&sp, true); fastKernelName(false, 8, f) != "star_fast_8_f63" {
		t.Errorf("narrow and packed: features %d, kernel %s", f, fastKernelName(false, 8, f))
	}
}
