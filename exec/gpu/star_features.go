//go:build cuda

package gpu

import (
	"fmt"
	"math"
)

// The fast star kernels come compiled per feature set (kernels/
// star_pipeline.cu, FAST_NEED_*): a kernel carries a branch in its inner
// loops for every feature it may meet, and those branches cost more than
// the tests they make. The launch names the smallest set that covers the
// query's parameters.
const (
	fastNeedBits   = 1 << iota // a dimension has a bitmap
	fastNeedAggs               // an aggregate is MIN/MAX or a SUM that could overflow
	fastNeedExt                // a remapped dimension payload
	fastNeedHash               // a dimension is a hash table
	fastNeedPacked             // a packed column (the lane-interleaved row map)
	fastNeedNarrow             // a narrow column (1 or 2 bytes a row)
)

// fastFeatures is the feature set sp needs; sumsSafe says every aggregate
// is a COUNT or a SUM that cannot overflow (sumCannotOverflow).
func fastFeatures(sp *starParams, sumsSafe bool) int {
	f := 0
	if !sumsSafe {
		f |= fastNeedAggs
	}
	packed := func(c colView) {
		switch {
		case c.Frame != 0 && c.Width < 4:
			f |= fastNeedNarrow
		case c.Frame != 0:
			f |= fastNeedPacked
		}
	}
	for i := range sp.Preds[:sp.NPreds] {
		packed(sp.Preds[i].Col)
	}
	for i := range sp.Dims[:sp.NDims] {
		d := &sp.Dims[i]
		packed(d.Key)
		if d.SlotValue != 0 {
			f |= fastNeedExt
		}
		if d.HKeys != 0 {
			f |= fastNeedHash
		}
		if d.Bits != 0 {
			f |= fastNeedBits
		}
	}
	for i := range sp.GCols[:sp.NGCols] {
		packed(sp.GCols[i].Col)
	}
	for i := range sp.Aggs[:sp.NAggs] {
		packed(sp.Aggs[i].A)
		packed(sp.Aggs[i].B)
	}
	return f
}

// fastKernelName is the fast kernel for it rows a thread and feature set
// f: the specialized ones exist at 8 rows without hash tables, with packed
// or narrow columns but not both; every other case takes the kernel with
// all features, with packed columns (_f63) or without (narrow ones
// included).
func fastKernelName(scalar bool, it, f int) string {
	name := "star_fast"
	if scalar {
		name += "_scalar"
	}
	name = fmt.Sprintf("%s_%d", name, it)
	both := f&fastNeedPacked != 0 && f&fastNeedNarrow != 0
	switch {
	case it == 8 && f&fastNeedHash == 0 && !both:
		name += fmt.Sprintf("_f%d", f)
	case f&fastNeedPacked != 0:
		name += "_f63"
	}
	return name
}

// sumCannotOverflow reports whether a SUM over rows fact rows of values
// bounded by bound in magnitude stays within int64 whatever the rows
// hold, so the kernel need not check each partial sum (MySQL's error 1690
// cannot happen). A margin of 2 keeps the shared replicas' and the
// flush's partial sums inside too.
func sumCannotOverflow(rows int64, bound float64) bool {
	return float64(max(rows, 1))*bound < math.Exp2(62)
}

// argBound is the largest magnitude of a column's values (devColumn's
// range), +Inf when it has none.
func argBound(dc *devColumn) float64 {
	if dc == nil || dc.isFloat || dc.max < dc.min {
		return math.Inf(1)
	}
	return math.Max(math.Abs(float64(dc.min)), math.Abs(float64(dc.max)))
}
