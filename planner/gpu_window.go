package planner

import (
	"fmt"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The GPU runs a Window (exec/gpu/window.go, kernels/window.cu) by sorting
// its rows once per (partition, order) and computing each function from
// segmented scans over that order. A scan carries one running value from
// the partition's first row, so a frame's COUNT or integer SUM is the
// difference of two running values (exact), and MIN, MAX or a DOUBLE's
// SUM the running value at the frame's end when the frame starts at the
// partition's first row, else a segment tree's combination of the frame's
// own rows (O(log n) a row; a DOUBLE's sum keeps its small values after a
// huge one, as the CPU's tree does, in another order of additions). Frame
// bounds are positions: ROWS offsets, the partition's ends, the current
// row's peers for RANGE, or for a RANGE offset the binary search of the key
// moved by it. PERCENT_RANK, CUME_DIST and NTILE read the groups' bounds;
// LAG, LEAD, FIRST_VALUE, LAST_VALUE and NTH_VALUE gather the value at the
// sorted position they name. An integer AVG is its frame's exact SUM over
// its count at the result's scale, cut or rounded as the CPU's (exec/cpu's
// sumAcc). RANGE offsets in months or years and the statistical and JSON
// aggregates stay on the CPU.

// maxGPUWindowKeys is kernels/window.cu's MAX_WIN_KEYS.
const maxGPUWindowKeys = 8

// GPUFrameRefusal says why the GPU cannot compute w over its frame ("" when
// it can): ROWS frames with any bounds, RANGE frames bounded by the
// partition, the current row's peers or offsets GPURangeOffset takes (a
// binary search over the sorted keys per row).
func GPUFrameRefusal(w *sql.WindowFunc) string {
	f := w.Frame
	if !f.Rows {
		for _, b := range []sql.FrameBound{f.Start, f.End} {
			if _, err := GPURangeOffset(w, b); err != nil {
				return err.Error()
			}
		}
	}
	return ""
}

// GPURangeBound is a RANGE frame bound's offset as kernels/window.cu's
// win_range_bound applies it to the order key in sort direction: Off (or
// OffF where Float: a DOUBLE key, or a fractional offset of an integer
// one) added to the key times KeyMul, negative when preceding.
type GPURangeBound struct {
	Off    int64
	OffF   float64
	Float  bool
	KeyMul int64
}

// GPURangeOffset is b's offset for the GPU, zero for a bound without one,
// or why the GPU cannot compare it as exec/cpu's rangeKey does.
func GPURangeOffset(w *sql.WindowFunc, b sql.FrameBound) (GPURangeBound, error) {
	if !b.HasOffset() {
		return GPURangeBound{}, nil
	}
	sign := int64(1)
	if b.Kind == sql.BoundPreceding {
		sign = -1
	}
	kt := w.Order[0].Expr.Type()
	refuse := fmt.Errorf("RANGE offsets over a %s key are computed on the CPU", kt)
	switch {
	case kt.ID == columnar.Date || kt.ID == columnar.Datetime:
		per, ok := sql.IntervalMicros[b.Unit] // MONTH and YEAR move by the calendar
		if !ok {
			return GPURangeBound{}, fmt.Errorf("a RANGE frame INTERVAL in %sS (calendar arithmetic) is computed on the CPU", strings.ToUpper(b.Unit))
		}
		// Past 2^62 µs every key (years 0..9999) lies on the near side.
		off := int64(1) << 62
		if b.N <= off/per {
			off = b.N * per
		}
		mul := int64(1)
		if kt.ID == columnar.Date {
			mul = columnar.MicrosPerDay
		}
		return GPURangeBound{Off: sign * off, KeyMul: mul}, nil
	case kt.ID == columnar.Float64:
		return GPURangeBound{OffF: float64(sign) * b.F, Float: true, KeyMul: 1}, nil
	case kt.IsWide() || kt.IsBigUnsigned() || kt.Physical() != columnar.PhysInt64 && kt.Physical() != columnar.PhysInt32:
		return GPURangeBound{}, refuse
	case kt.IsInteger() && b.F != 0:
		return GPURangeBound{OffF: float64(sign) * b.F, Float: true, KeyMul: 1}, nil
	case kt.IsInteger() || kt.ID == columnar.Decimal && b.F == 0:
		return GPURangeBound{Off: sign * b.N, KeyMul: 1}, nil
	}
	return GPURangeBound{}, refuse
}

// gpuWindowRefusal says why the GPU cannot run n ("" when it can).
func gpuWindowRefusal(n *Window) string {
	for i := range n.Funcs {
		w := &n.Funcs[i]
		if why := gpuWindowFuncRefusal(w); why != "" {
			return fmt.Sprintf("%s in %s: %s", w.String(), opName(n), why)
		}
	}
	return ""
}

func gpuWindowFuncRefusal(w *sql.WindowFunc) string {
	if len(w.Partition)+len(w.Order) > maxGPUWindowKeys {
		return fmt.Sprintf("more than %d partition and order keys", maxGPUWindowKeys)
	}
	for _, e := range append(append([]sql.Expr{}, w.Partition...), sortKeyExprs(w.Order)...) {
		if t := e.Type(); t.ID == columnar.Vector || t.IsWide() || t.JSON {
			return fmt.Sprintf("a %s window key is compared on the CPU", t)
		}
	}
	switch w.Func {
	case sql.WinRowNumber, sql.WinRank, sql.WinDenseRank, sql.WinPercentRank, sql.WinCumeDist, sql.WinNtile:
		return ""
	case sql.WinLag, sql.WinLead, sql.WinFirstValue, sql.WinLastValue, sql.WinNthValue:
		return gpuWindowValueRefusal(w)
	case sql.WinAgg:
	default:
		return "not computed on the GPU"
	}
	if w.Agg.Distinct {
		return "DISTINCT aggregates over a window are computed on the CPU"
	}
	if why := GPUFrameRefusal(w); why != "" {
		return why
	}
	switch w.Agg.Func {
	case sql.AggCountStar:
		return ""
	case sql.AggCount:
		if t := w.Agg.Arg.Type(); t.ID == columnar.Vector || t.IsWide() {
			return fmt.Sprintf("COUNT of %s over a window is computed on the CPU", t)
		}
		return ""
	case sql.AggSum, sql.AggAvg:
		name := sql.AggName(w.Agg.Func)
		at := w.Agg.Arg.Type()
		if at.ID == columnar.Float64 && w.T.ID == columnar.Float64 {
			return ""
		}
		if !(at.IsInteger() || at.ID == columnar.Decimal) || at.IsBigUnsigned() || at.IsWide() {
			return fmt.Sprintf("%s of %s over a window is computed on the CPU (integers, DECIMALs and DOUBLEs only)", name, at)
		}
		if w.T.Physical() != columnar.PhysInt64 || w.Agg.Func == sql.AggSum && w.T.DecimalScale() != at.DecimalScale() {
			return fmt.Sprintf("%s as %s is computed on the CPU", name, w.T)
		}
		return ""
	case sql.AggMin, sql.AggMax:
		at := w.Agg.Arg.Type()
		switch at.ID {
		case columnar.Int32, columnar.Int64, columnar.Decimal, columnar.Float64, columnar.Date, columnar.Datetime, columnar.Time, columnar.Bool:
		default:
			return fmt.Sprintf("MIN / MAX of %s over a window is computed on the CPU", at)
		}
		if at.IsBigUnsigned() || at.IsWide() || w.T.ID != at.ID || w.T.DecimalScale() != at.DecimalScale() {
			return fmt.Sprintf("MIN / MAX of %s as %s is computed on the CPU", at, w.T)
		}
		return ""
	}
	return sql.AggName(w.Agg.Func) + "() over a window is computed on the CPU"
}

// gpuWindowValueRefusal says why the GPU cannot compute LAG, LEAD,
// FIRST_VALUE, LAST_VALUE or NTH_VALUE w: it gathers the value from the
// sorted position the function names, so any value it can read goes, but
// a string default of LAG / LEAD would be a second dictionary in one
// column.
func gpuWindowValueRefusal(w *sql.WindowFunc) string {
	t := w.T
	if t.ID == columnar.Vector || t.IsWide() {
		return fmt.Sprintf("a %s value is gathered on the CPU", t)
	}
	if len(w.Args) > 1 && t.ID == columnar.String {
		return "a string default of LAG / LEAD is computed on the CPU"
	}
	if w.Func != sql.WinLag && w.Func != sql.WinLead {
		return GPUFrameRefusal(w)
	}
	return ""
}

// GPUWindowTree reports whether the GPU takes w's value from a segment
// tree over the sorted values: a frame that may start after its
// partition's first row, for MIN, MAX and a DOUBLE's SUM or AVG (a
// running value cannot be taken back, or its difference would lose a
// frame's small values after a huge one).
func GPUWindowTree(w *sql.WindowFunc) bool {
	if w.Func != sql.WinAgg || w.Frame.Start.Kind == sql.BoundUnboundedPreceding {
		return false
	}
	switch w.Agg.Func {
	case sql.AggMin, sql.AggMax:
		return true
	case sql.AggSum, sql.AggAvg:
		return w.Agg.Arg.Type().ID == columnar.Float64
	}
	return false
}

// windowFrameHow names the work beyond the scans that x's frames take:
// binary searches for RANGE offsets, segment trees (GPUWindowTree).
func windowFrameHow(x *Window) string {
	var search, tree bool
	for i := range x.Funcs {
		w := &x.Funcs[i]
		search = search || w.Frame.RangeOffsets()
		tree = tree || GPUWindowTree(w)
	}
	how := ""
	if search {
		how += ", a binary search per row for RANGE offsets"
	}
	if tree {
		how += ", segment trees for sliding MIN / MAX and DOUBLE sums"
	}
	return how
}
