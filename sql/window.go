package sql

import (
	"fmt"
	"strings"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// WinFunc names a window function.
type WinFunc uint8

const (
	WinRowNumber WinFunc = iota + 1
	WinRank
	WinDenseRank
	WinPercentRank
	WinCumeDist
	WinNtile
	WinLag
	WinLead
	WinFirstValue
	WinLastValue
	WinNthValue
	// WinAgg is an aggregate (WindowFunc.Agg) over the frame.
	WinAgg
)

var winFuncNames = map[WinFunc]string{
	WinRowNumber: "ROW_NUMBER", WinRank: "RANK", WinDenseRank: "DENSE_RANK",
	WinPercentRank: "PERCENT_RANK", WinCumeDist: "CUME_DIST", WinNtile: "NTILE",
	WinLag: "LAG", WinLead: "LEAD", WinFirstValue: "FIRST_VALUE",
	WinLastValue: "LAST_VALUE", WinNthValue: "NTH_VALUE",
}

// BoundKind is where a frame bound lies relative to the current row.
type BoundKind uint8

const (
	BoundUnboundedPreceding BoundKind = iota + 1
	BoundPreceding
	BoundCurrentRow
	BoundFollowing
	BoundUnboundedFollowing
)

// FrameBound is one end of a frame. For ROWS frames N is a row count; for
// RANGE frames the offset is a distance in the single ORDER BY key's value:
// N in its integer or scaled-decimal representation, or F (when not 0) for
// DOUBLE keys and for fractional offsets over integer keys. Over a DATE or
// DATETIME key the offset is an INTERVAL: N of Unit, one of AddDatetime's
// units (microsecond, second, minute, hour, day, month, year), and the
// bound is the current row's key plus or minus it with calendar arithmetic.
// Over a wide DECIMAL key (more than 18 digits) the offset is W, unscaled
// at the key's scale, which N may not hold.
type FrameBound struct {
	Kind BoundKind
	N    int64
	F    float64
	Unit string
	W    decimal.Num
}

// HasOffset reports a bound N PRECEDING or N FOLLOWING.
func (b FrameBound) HasOffset() bool { return b.Kind == BoundPreceding || b.Kind == BoundFollowing }

// RangeOffsets reports a RANGE frame with an offset bound: its bounds are
// found among the order key's values, not counted in rows or peers.
func (f Frame) RangeOffsets() bool { return !f.Rows && (f.Start.HasOffset() || f.End.HasOffset()) }

// Frame is the set of rows of the partition an aggregate or
// FIRST/LAST/NTH_VALUE reads for the current row. Range frames count peers
// (rows equal on the ORDER BY keys) together. MySQL's default, RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, is the running total with
// peers included, and the whole partition without ORDER BY (every row is
// then a peer of every other).
type Frame struct {
	Rows       bool
	Start, End FrameBound
}

// DefaultFrame is MySQL's frame when OVER names none.
var DefaultFrame = Frame{Start: FrameBound{Kind: BoundUnboundedPreceding}, End: FrameBound{Kind: BoundCurrentRow}}

// WindowFunc is one window function call: Func over the rows of the current
// row's partition (equal Partition values) in Order, with Frame for the
// functions that read one. Args: the value argument (LAG/LEAD/FIRST_VALUE/
// LAST_VALUE/NTH_VALUE, aggregates), then for LAG/LEAD the default value;
// N is NTILE's bucket count, LAG/LEAD's offset or NTH_VALUE's position.
type WindowFunc struct {
	Func      WinFunc
	Agg       AggExpr // Func == WinAgg; Agg.Arg is Args[0]
	Args      []Expr
	N         int64
	Partition []Expr
	Order     []SortKey
	Frame     Frame
	T         columnar.Type
}

// Exprs lists every expression the function evaluates over its input.
func (w *WindowFunc) Exprs() []Expr {
	out := append([]Expr{}, w.Args...)
	out = append(out, w.Partition...)
	for _, k := range w.Order {
		out = append(out, k.Expr)
	}
	return out
}

// SortKey identifies the sort the function needs: its partition and order
// keys. Functions with equal keys share one sort.
func (w *WindowFunc) SortKey() string {
	var sb strings.Builder
	for _, e := range w.Partition {
		sb.WriteString(ExprKey(e) + ",")
	}
	sb.WriteString("|")
	for _, s := range w.Order {
		sb.WriteString(ExprKey(s.Expr))
		if s.Desc {
			sb.WriteString(" DESC")
		}
		sb.WriteString(",")
	}
	return sb.String()
}

// MapExprs returns a copy of w with fn applied to each of its expressions.
func (w WindowFunc) MapExprs(fn func(Expr) Expr) WindowFunc {
	args := make([]Expr, len(w.Args))
	for i, e := range w.Args {
		args[i] = fn(e)
	}
	w.Args = args
	if len(args) > 0 && w.Func == WinAgg {
		w.Agg.Arg = args[0]
	}
	part := make([]Expr, len(w.Partition))
	for i, e := range w.Partition {
		part[i] = fn(e)
	}
	w.Partition = part
	order := make([]SortKey, len(w.Order))
	for i, k := range w.Order {
		order[i] = SortKey{Expr: fn(k.Expr), Desc: k.Desc}
	}
	w.Order = order
	return w
}

func (w *WindowFunc) String() string {
	var sb strings.Builder
	if w.Func == WinAgg {
		sb.WriteString(w.Agg.String())
	} else {
		sb.WriteString(winFuncNames[w.Func] + "(")
		var parts []string
		for _, a := range w.Args {
			parts = append(parts, a.String())
		}
		switch w.Func {
		case WinNtile:
			parts = []string{fmt.Sprint(w.N)}
		case WinLag, WinLead, WinNthValue:
			parts = append(parts[:1], append([]string{fmt.Sprint(w.N)}, parts[1:]...)...)
		}
		sb.WriteString(strings.Join(parts, ", ") + ")")
	}
	sb.WriteString(" OVER (")
	var clauses []string
	if len(w.Partition) > 0 {
		parts := make([]string, len(w.Partition))
		for i, e := range w.Partition {
			parts[i] = e.String()
		}
		clauses = append(clauses, "PARTITION BY "+strings.Join(parts, ", "))
	}
	if len(w.Order) > 0 {
		parts := make([]string, len(w.Order))
		for i, k := range w.Order {
			parts[i] = k.Expr.String()
			if k.Desc {
				parts[i] += " DESC"
			}
		}
		clauses = append(clauses, "ORDER BY "+strings.Join(parts, ", "))
	}
	if w.readsFrame() && w.Frame != DefaultFrame {
		clauses = append(clauses, w.Frame.String())
	}
	sb.WriteString(strings.Join(clauses, " ") + ")")
	return sb.String()
}

// readsFrame reports whether the function's value depends on its frame
// (ranking functions and LAG/LEAD ignore it).
func (w *WindowFunc) readsFrame() bool {
	switch w.Func {
	case WinAgg, WinFirstValue, WinLastValue, WinNthValue:
		return true
	}
	return false
}

func (f Frame) String() string {
	unit := "RANGE"
	if f.Rows {
		unit = "ROWS"
	}
	return fmt.Sprintf("%s BETWEEN %s AND %s", unit, f.Start, f.End)
}

func (b FrameBound) String() string {
	off := fmt.Sprint(b.N)
	if decimal.Sign(b.W) != 0 {
		off = decimal.Format(b.W, 0)
	}
	if b.F != 0 {
		off = fmt.Sprint(b.F)
	}
	if b.Unit != "" {
		off = fmt.Sprintf("INTERVAL %d %s", b.N, strings.ToUpper(b.Unit))
	}
	switch b.Kind {
	case BoundUnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case BoundPreceding:
		return off + " PRECEDING"
	case BoundCurrentRow:
		return "CURRENT ROW"
	case BoundFollowing:
		return off + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// Window computes Funcs for every row of its input. Output: the input
// columns, then one column per function. Rows keep their input order.
type Window struct {
	Input Plan
	Funcs []WindowFunc
	Out   Schema
}

func (p *Window) Schema() Schema   { return p.Out }
func (p *Window) Children() []Plan { return []Plan{p.Input} }
