package sql

import (
	"fmt"
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// winScope maps each window function call of the select list and ORDER BY
// to its output column in the Window node (calls with equal keys share one).
type winScope struct {
	cols map[*ast.WindowFuncExpr]int
}

// window binds every window function call of the select list and ORDER BY
// over sc (the FROM scope, or the scope after GROUP BY and HAVING: windows
// are computed after grouping, so SUM(SUM(x)) OVER () reads the groups) and
// returns the scope the select list then binds in: sc's names over a Window
// node whose output is sc's columns followed by one column per function.
func (b *binder) window(items []selItem, orderBy []*ast.ByItem, sc *scope) (*scope, error) {
	nodes := selectNodes(items, orderBy)
	var funcs []WindowFunc
	index := map[*ast.WindowFuncExpr]int{}
	keys := map[string]int{}
	var err error
	for _, n := range nodes {
		walkAST(n, func(x ast.Node) bool {
			if err != nil {
				return false
			}
			switch x := x.(type) {
			case *ast.SubqueryExpr:
				return false
			case *ast.WindowFuncExpr:
				var w WindowFunc
				if w, err = b.windowCall(x, sc); err != nil {
					return false
				}
				k := windowKey(&w)
				i, ok := keys[k]
				if !ok {
					i = len(funcs)
					keys[k] = i
					funcs = append(funcs, w)
				}
				index[x] = i
				return false
			}
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	// Read the input last: binding a function's arguments may have
	// decorrelated a subquery into a join that grew sc.plan.
	in := sc.plan.Schema()
	win := &Window{Input: sc.plan, Funcs: funcs, Out: append(Schema{}, in...)}
	for i := range funcs {
		w := &funcs[i]
		col := Column{Name: w.String(), Type: w.T, Nullable: windowNullable(w)}
		if w.Func == WinAgg && w.Agg.Func == AggAvg {
			// AVG OVER keeps MySQL's digits as AVG does (1.333333333
			// for 1, 1, 2: times 3 prints 4.0000), printed at the
			// argument's shown scale + 4 (average_digits.go).
			col.Shown = b.aggregateShown(w.Agg, sc)
		} else if len(w.Args) > 0 {
			// SUM, MIN, MAX, LAG, FIRST_VALUE... of a quotient print with
			// its scale (division_digits.go).
			_, col.Shown = b.shownDigits(w.Args[0], sc, false)
			if w.T.ID != columnar.Decimal || w.T.Scale != w.Args[0].Type().Scale {
				col.Shown = 0
			}
		}
		win.Out = append(win.Out, col)
	}
	ws := &winScope{cols: map[*ast.WindowFuncExpr]int{}}
	for x, i := range index {
		ws.cols[x] = len(in) + i
	}
	post := &scope{plan: win, cols: sc.cols, parent: sc.parent, corr: sc.corr, agg: sc.agg, win: ws}
	return post, nil
}

// windowColumn binds a window function call in the scope after the Window
// node: it is that node's column.
func (b *binder) windowColumn(n *ast.WindowFuncExpr, sc *scope) (Expr, error) {
	if sc.win != nil {
		if i, ok := sc.win.cols[n]; ok {
			return sc.colRef(i), nil
		}
	}
	err := b.errCode(b.posOr(n, -1), ErWindowInvalidUse, "You cannot use the window function '%s' in this context.'", strings.ToLower(n.Name))
	err.Detail = "window functions are allowed only in the select list and ORDER BY"
	return nil, err
}

// windowKey identifies a window function call by what it computes.
func windowKey(w *WindowFunc) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d/%d/%d/%v/%v|", w.Func, w.Agg.Func, w.N, w.Agg.Distinct, w.Frame)
	for _, e := range w.Args {
		sb.WriteString(exprKey(e) + ",")
	}
	sb.WriteString("|")
	for _, e := range w.Partition {
		sb.WriteString(exprKey(e) + ",")
	}
	sb.WriteString("|")
	for _, k := range w.Order {
		fmt.Fprintf(&sb, "%s %v,", exprKey(k.Expr), k.Desc)
	}
	return sb.String()
}

func windowNullable(w *WindowFunc) bool {
	switch w.Func {
	case WinRowNumber, WinRank, WinDenseRank, WinPercentRank, WinCumeDist, WinNtile:
		return false
	case WinAgg:
		switch w.Agg.Func {
		case AggCount, AggCountStar, AggBitAnd, AggBitOr, AggBitXor:
			return false
		}
		return true
	}
	return true
}

// selectNodes lists the select-list and ORDER BY expressions.
func selectNodes(items []selItem, orderBy []*ast.ByItem) []ast.Node {
	var nodes []ast.Node
	for _, it := range items {
		nodes = append(nodes, it.node)
	}
	for _, by := range orderBy {
		nodes = append(nodes, by.Expr)
	}
	return nodes
}

// anyWindow reports whether the select list or ORDER BY calls a window
// function (outside subqueries).
func anyWindow(items []selItem, orderBy []*ast.ByItem) bool {
	for _, it := range items {
		if hasWindow(it.node) {
			return true
		}
	}
	for _, by := range orderBy {
		if hasWindow(by.Expr) {
			return true
		}
	}
	return false
}

func hasWindow(n ast.Node) bool {
	return containsOutsideSubqueries(n, func(x ast.Node) bool {
		_, ok := x.(*ast.WindowFuncExpr)
		return ok
	})
}

// nestedInSpec is MySQL's 3595 where a window call is in the PARTITION BY
// or ORDER BY of window name.
func (b *binder) nestedInSpec(spec *ast.WindowSpec, name string, pos int) error {
	var items []*ast.ByItem
	if spec.PartitionBy != nil {
		items = append(items, spec.PartitionBy.Items...)
	}
	if spec.OrderBy != nil {
		items = append(items, spec.OrderBy.Items...)
	}
	for _, it := range items {
		if inner := firstWindow(it.Expr); inner != nil {
			return b.errCode(b.posOr(inner, pos), ErWindowNestedInSpec, "You cannot nest a window function in the specification of window '%s'.", name)
		}
	}
	return nil
}

// firstWindow is the first window function call in n outside subqueries.
func firstWindow(n ast.Node) *ast.WindowFuncExpr {
	var w *ast.WindowFuncExpr
	containsOutsideSubqueries(n, func(x ast.Node) bool {
		w, _ = x.(*ast.WindowFuncExpr)
		return w != nil
	})
	return w
}

// windowCall binds one window function call over sc.
func (b *binder) windowCall(n *ast.WindowFuncExpr, sc *scope) (WindowFunc, error) {
	pos := b.posOr(n, -1)
	name := strings.ToLower(n.Name)
	switch {
	case n.IgnoreNull:
		return WindowFunc{}, b.errCode(pos, ErNotSupportedYet, "This version of MySQL doesn't yet support 'IGNORE NULLS'")
	case n.FromLast:
		return WindowFunc{}, b.errCode(pos, ErNotSupportedYet, "This version of MySQL doesn't yet support 'FROM LAST'")
	case n.Distinct:
		return WindowFunc{}, b.errCode(pos, ErNotSupportedYet, errDistinctWindow)
	}
	for _, a := range n.Args {
		if inner := firstWindow(a); inner != nil {
			// MySQL's Item_sum::fix_fields: the inner call is out of place.
			err := b.errCode(b.posOr(inner, pos), ErWindowInvalidUse, "You cannot use the window function '%s' in this context.'", strings.ToLower(inner.Name))
			err.Detail = fmt.Sprintf("window function calls cannot be nested (in %s())", name)
			return WindowFunc{}, err
		}
	}
	w, err := b.windowFunc(n, name, sc, pos)
	if err != nil {
		return WindowFunc{}, err
	}
	if err := b.windowSpec(&w, &n.Spec, sc, name, pos); err != nil {
		return WindowFunc{}, err
	}
	return w, nil
}

// windowFunc binds the function and its arguments.
func (b *binder) windowFunc(n *ast.WindowFuncExpr, name string, sc *scope, pos int) (WindowFunc, error) {
	w := WindowFunc{}
	nargs := func(lo, hi int) error {
		if len(n.Args) < lo || len(n.Args) > hi {
			want := fmt.Sprint(lo)
			if hi > lo {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			return b.errf(pos, "%s() takes %s arguments, not %d", name, want, len(n.Args))
		}
		return nil
	}
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		w.Func = map[string]WinFunc{"row_number": WinRowNumber, "rank": WinRank, "dense_rank": WinDenseRank,
			"percent_rank": WinPercentRank, "cume_dist": WinCumeDist}[name]
		w.T = columnar.TInt64
		if w.Func == WinPercentRank || w.Func == WinCumeDist {
			w.T = columnar.TFloat64
		}
		return w, nargs(0, 0)
	case "ntile":
		w.Func, w.T = WinNtile, columnar.TInt64
		if err := nargs(1, 1); err != nil {
			return w, err
		}
		var err error
		w.N, err = b.windowCount(n.Args[0], sc, name, 1)
		return w, err
	case "lag", "lead", "first_value", "last_value", "nth_value":
		return b.valueFunc(n, name, sc, nargs)
	case "sum", "count", "avg", "min", "max", "var_pop", "variance", "var_samp", "stddev_pop", "stddev",
		"std", "stddev_samp", "bit_and", "bit_or", "bit_xor", "json_arrayagg", "json_objectagg":
		ae, err := b.aggCall(&ast.AggregateFuncExpr{F: name, Args: n.Args}, sc)
		if err != nil {
			return w, err
		}
		if ae.Arg != nil && ae.Arg.Type().ID == columnar.Vector && ae.Func != AggCount {
			return w, b.errf(pos, "unsupported: %s() OVER a VECTOR (the window frames compare scalars)", name)
		}
		if isJSON(ae.Arg) && (ae.Func == AggMin || ae.Func == AggMax) {
			return w, b.errf(pos, "%s", jsonCompareError(name+"() OVER a window"))
		}
		w.Func, w.Agg, w.T = WinAgg, ae, ae.T
		if ae.Arg != nil {
			w.Args = []Expr{ae.Arg}
		}
		return w, nil
	}
	return w, b.errf(pos, "unsupported: window function %s()", name)
}

// valueFunc binds LAG, LEAD, FIRST_VALUE, LAST_VALUE and NTH_VALUE: the
// result has the value argument's type, with LAG/LEAD's default the type
// of both.
func (b *binder) valueFunc(n *ast.WindowFuncExpr, name string, sc *scope, nargs func(lo, hi int) error) (WindowFunc, error) {
	w := WindowFunc{Func: map[string]WinFunc{"lag": WinLag, "lead": WinLead, "first_value": WinFirstValue,
		"last_value": WinLastValue, "nth_value": WinNthValue}[name]}
	var err error
	switch w.Func {
	case WinLag, WinLead:
		err = nargs(1, 3)
	case WinNthValue:
		err = nargs(2, 2)
	default:
		err = nargs(1, 1)
	}
	if err != nil {
		return w, err
	}
	arg, err := b.expr(n.Args[0], sc)
	if err != nil {
		return w, err
	}
	w.Args, w.T, w.N = []Expr{arg}, arg.Type(), 1
	if len(n.Args) > 1 {
		least := int64(0)
		if w.Func == WinNthValue {
			least = 1
		}
		if w.N, err = b.windowCount(n.Args[1], sc, name, least); err != nil {
			return w, err
		}
	}
	if len(n.Args) > 2 {
		def, err := b.expr(n.Args[2], sc)
		if err != nil {
			return w, err
		}
		// The result has the type of the value and the default together,
		// as IFNULL's (MySQL's Item_func_lead_lag): LAG(n, 1, 'none') is a
		// string, LAG(n, 1, 2.5) a DECIMAL.
		t, err := resultType([]Expr{arg, def})
		if err != nil {
			return w, b.errf(b.posOr(n.Args[2], -1), "unsupported: %s() default of type %s for a value of type %s", name, def.Type(), arg.Type())
		}
		if def, err = b.castDefault(def, t, b.posOr(n.Args[2], -1), name); err != nil {
			return w, err
		}
		w.Args[0], w.T = castTo(arg, t), t
		w.Args = append(w.Args, def)
	}
	return w, nil
}

// castDefault converts LAG/LEAD's default value to the value argument's
// type: numbers convert among themselves, other types must match.
func (b *binder) castDefault(def Expr, t columnar.Type, pos int, name string) (Expr, error) {
	if isNullConst(def) || sameType(def.Type(), t) {
		return castTo(def, t), nil
	}
	_, okA := numericType(t)
	_, okB := numericType(def.Type())
	if okA && okB && t.ID != columnar.String && def.Type().ID != columnar.String {
		return castTo(def, t), nil
	}
	return nil, b.errf(pos, "unsupported: %s() default of type %s for a value of type %s", name, def.Type(), t)
}

// windowCount reads a constant integer argument of at least least (NTILE's
// buckets, LAG/LEAD's offset, NTH_VALUE's position).
func (b *binder) windowCount(n ast.ExprNode, sc *scope, name string, least int64) (int64, error) {
	e, err := b.expr(n, sc)
	if err != nil {
		return 0, err
	}
	c, ok := e.(*Const)
	if !ok || c.Null || !c.T.IsInteger() || c.I < least {
		err := b.errCode(b.posOr(n, -1), ErWrongArguments, "Incorrect arguments to %s", strings.ToLower(name))
		err.Detail = fmt.Sprintf("%s() takes an integer constant of at least %d here, not %s", name, least, e)
		return 0, err
	}
	return c.I, nil
}

// windowSpec binds OVER (PARTITION BY ... ORDER BY ... frame).
func (b *binder) windowSpec(w *WindowFunc, spec *ast.WindowSpec, sc *scope, name string, pos int) error {
	if spec.Name.O != "" || spec.Ref.O != "" {
		return b.errCode(pos, ErWindowNoSuchWindow, "Window name '%s' is not defined.", spec.Name.O+spec.Ref.O)
	}
	if err := b.nestedInSpec(spec, "<unnamed window>", pos); err != nil {
		return err
	}
	if spec.PartitionBy != nil {
		for _, it := range spec.PartitionBy.Items {
			e, err := b.windowKeyExpr(it.Expr, sc)
			if err != nil {
				return err
			}
			if name, _ := collationOf(e); name != "" {
				e = collationKey(e, name) // rows equal in the collation share a partition
			}
			w.Partition = append(w.Partition, e)
		}
	}
	if spec.OrderBy != nil {
		for _, it := range spec.OrderBy.Items {
			e, err := b.windowKeyExpr(it.Expr, sc)
			if err != nil {
				return err
			}
			w.Order = append(w.Order, SortKey{Expr: orderKey(e), Desc: it.Desc})
		}
	}
	w.Frame = DefaultFrame
	if spec.Frame != nil && w.readsFrame() {
		f, err := b.frame(spec.Frame, w.Order, sc, pos)
		if err != nil {
			return err
		}
		w.Frame = f
	}
	return nil
}

// windowKeyExpr binds a PARTITION BY or ORDER BY expression of OVER.
func (b *binder) windowKeyExpr(n ast.ExprNode, sc *scope) (Expr, error) {
	if _, ok := unparen(n).(*ast.PositionExpr); ok {
		return nil, b.errf(b.posOr(n, -1), "unsupported: a position number in a window's PARTITION BY or ORDER BY")
	}
	e, err := b.expr(n, sc)
	if err != nil {
		return nil, err
	}
	// MySQL sorts and compares a window's keys as its temporary table
	// stores them: a quotient at the digits it prints, so 1/3 and
	// 3333/10000 are peers of one partition (division_digits.go).
	e, _ = b.shownDigits(e, sc, true)
	return e, nil
}

// frame binds ROWS|RANGE BETWEEN start AND end.
func (b *binder) frame(fc *ast.FrameClause, order []SortKey, sc *scope, pos int) (Frame, error) {
	if fc.Type != ast.Rows && fc.Type != ast.Ranges {
		// MySQL parses GROUPS and refuses it the same way.
		return Frame{}, b.errf(pos, "unsupported: GROUPS frames (MySQL 8 refuses them too: only ROWS and RANGE frames)")
	}
	f := Frame{Rows: fc.Type == ast.Rows}
	if f.Rows && (fc.Extent.Start.Unit != ast.TimeUnitInvalid || fc.Extent.End.Unit != ast.TimeUnitInvalid) {
		// MySQL asks this of the whole frame before either bound's value:
		// ROWS BETWEEN 1.5 PRECEDING AND INTERVAL 1 DAY FOLLOWING is 3596.
		return f, b.errCode(pos, ErWindowRowsIntervalUse, "Window '<unnamed window>': INTERVAL can only be used with RANGE frames.")
	}
	var err error
	if f.Start, err = b.frameBound(&fc.Extent.Start, f.Rows, order, sc, pos); err != nil {
		return f, err
	}
	if f.End, err = b.frameBound(&fc.Extent.End, f.Rows, order, sc, pos); err != nil {
		return f, err
	}
	switch {
	case f.Start.Kind == BoundUnboundedFollowing:
		return f, b.errCode(pos, ErWindowFrameStartIllegal, "Window '<unnamed window>': frame start cannot be UNBOUNDED FOLLOWING.")
	case f.End.Kind == BoundUnboundedPreceding:
		return f, b.errCode(pos, ErWindowFrameEndIllegal, "Window '<unnamed window>': frame end cannot be UNBOUNDED PRECEDING.")
	}
	return f, nil
}

// frameBound binds one bound: a non-negative integer constant for ROWS; for
// RANGE, a constant distance in the value of the single numeric ORDER BY key.
func (b *binder) frameBound(fb *ast.FrameBound, rows bool, order []SortKey, sc *scope, pos int) (FrameBound, error) {
	switch {
	case fb.Type == ast.CurrentRow:
		return FrameBound{Kind: BoundCurrentRow}, nil
	case fb.UnBounded && fb.Type == ast.Preceding:
		return FrameBound{Kind: BoundUnboundedPreceding}, nil
	case fb.UnBounded:
		return FrameBound{Kind: BoundUnboundedFollowing}, nil
	}
	out := FrameBound{Kind: BoundPreceding}
	if fb.Type == ast.Following {
		out.Kind = BoundFollowing
	}
	bpos := b.posOr(fb.Expr, pos)
	e, err := b.expr(fb.Expr, sc)
	if err != nil {
		return out, err
	}
	c, ok := e.(*Const)
	if rows {
		if !ok || c.Null || !c.T.IsInteger() || c.I < 0 {
			return out, b.frameIllegal(bpos, fmt.Sprintf("a ROWS frame offset must be a non-negative integer constant, not %s", e))
		}
		out.N = c.I
		return out, nil
	}
	if len(order) != 1 {
		err := b.errCode(bpos, ErWindowRangeFrameOrderType, "Window '<unnamed window>' with RANGE N PRECEDING/FOLLOWING frame requires exactly one ORDER BY expression, of numeric or temporal type")
		err.Detail = fmt.Sprintf("a RANGE frame with an offset needs exactly one ORDER BY expression in its window, not %d", len(order))
		return out, err
	}
	kt := order[0].Expr.Type()
	if kt.ID == columnar.Bool {
		// A comparison or ISNULL is MySQL's integer 0 or 1: offset as
		// one (the order of the key is unchanged).
		order[0].Expr, kt = castTo(order[0].Expr, columnar.TInt64), columnar.TInt64
	}
	if kt.ID == columnar.String {
		// MySQL's key must be numeric or temporal: ORDER BY s RANGE 1
		// PRECEDING is 3587 as a second key is.
		return out, b.errCode(bpos, ErWindowRangeFrameOrderType, "Window '<unnamed window>' with RANGE N PRECEDING/FOLLOWING frame requires exactly one ORDER BY expression, of numeric or temporal type")
	}
	if temporal := kt.ID == columnar.Date || kt.ID == columnar.Datetime; temporal || fb.Unit != ast.TimeUnitInvalid {
		return b.intervalBound(out, fb.Unit, c, kt, bpos)
	}
	// BIGINT UNSIGNED keys past 2^63 would be offset as negative int64s.
	if _, num := numericType(kt); !num || kt.ID == columnar.String || kt.ID == columnar.Bool || kt.IsBigUnsigned() {
		return out, b.errf(bpos, "unsupported: RANGE frame offset over an ORDER BY expression of type %s", kt)
	}
	if !ok || c.Null {
		return out, b.errf(bpos, "a RANGE frame offset must be a non-negative numeric constant, not %s", e)
	}
	f, okF := convertConst(c, columnar.TFloat64)
	v, ok := convertConst(c, kt)
	if !ok || !okF || v.Null || f.F < 0 {
		return out, b.errf(bpos, "a RANGE frame offset must be a non-negative numeric constant, not %s", e)
	}
	out.N, out.F, out.W = v.I, v.F, v.W
	if kt.IsInteger() && f.F != math.Trunc(f.F) {
		// 1.5 PRECEDING over an integer key: compare as doubles.
		out.N, out.F = 0, f.F
	}
	return out, nil
}

// resolveWindowNames replaces every OVER w and OVER (w ...) in nodes by the
// specification it names in the WINDOW clause, merged as MySQL does: a
// reference may add ORDER BY or a frame the named window lacks, never
// PARTITION BY. Resolving before GROUP BY lets aggregates inside a named
// window's ORDER BY be found like any other.
func (b *binder) resolveWindowNames(s *ast.SelectStmt, nodes []ast.Node) error {
	named := map[string]*ast.WindowSpec{}
	for i := range s.WindowSpecs {
		spec := &s.WindowSpecs[i]
		k := spec.Name.L
		if _, dup := named[k]; dup {
			return b.errCode(b.wordPos(spec.Name.O, b.findWord("window", b.start)), ErWindowDuplicateName, "Window '%s' is defined twice.", spec.Name.O)
		}
		named[k] = spec
		if err := b.nestedInSpec(spec, spec.Name.O, b.start); err != nil {
			return err
		}
	}
	var resolve func(spec ast.WindowSpec, depth int) (ast.WindowSpec, error)
	resolve = func(spec ast.WindowSpec, depth int) (ast.WindowSpec, error) {
		ref := spec.Ref
		if spec.OnlyAlias {
			ref = spec.Name
		}
		if ref.O == "" {
			spec.Name = ast.CIStr{}
			return spec, nil
		}
		base, ok := named[ref.L]
		if !ok || depth > len(named) {
			if ok {
				return spec, b.errCode(b.wordPos(ref.O, b.start), ErWindowCircularity, "There is a circularity in the window dependency graph.")
			}
			return spec, b.errCode(b.wordPos(ref.O, b.start), ErWindowNoSuchWindow, "Window name '%s' is not defined.", ref.O)
		}
		out, err := resolve(*base, depth+1)
		if err != nil {
			return spec, err
		}
		if spec.OnlyAlias {
			return out, nil
		}
		if err := b.checkInherit(spec, out, base.Name.O, b.wordPos(ref.O, b.start)); err != nil {
			return spec, err
		}
		if spec.OrderBy != nil {
			out.OrderBy = spec.OrderBy
		}
		if spec.Frame != nil {
			out.Frame = spec.Frame
		}
		return out, nil
	}
	for _, spec := range named {
		if _, err := resolve(*spec, 0); err != nil {
			return err
		}
	}
	var err error
	for _, n := range nodes {
		walkAST(n, func(x ast.Node) bool {
			if _, ok := x.(*ast.SubqueryExpr); ok {
				return false // its own WINDOW clause applies
			}
			if w, ok := x.(*ast.WindowFuncExpr); ok && err == nil {
				w.Spec, err = resolve(w.Spec, 0)
			}
			return err == nil
		})
	}
	return err
}

// checkInherit refuses what MySQL refuses where window spec refines the
// named window base (resolved as out): spec's own PARTITION BY (3581), a
// base with a frame at all, even where spec adds none (3582: OVER (w) over
// WINDOW w AS (ROWS ...) is an error, OVER w is not), and an ORDER BY in
// both (3583).
func (b *binder) checkInherit(spec, out ast.WindowSpec, base string, pos int) error {
	switch {
	case spec.PartitionBy != nil:
		return b.errCode(pos, ErWindowNoChildPartitioning, "A window which depends on another cannot define partitioning.")
	case out.Frame != nil:
		return b.errCode(pos, ErWindowNoInheritFrame, "Window '%s' has a frame definition, so cannot be referenced by another window.", base)
	case spec.OrderBy != nil && out.OrderBy != nil:
		name := spec.Name.O
		if name == "" {
			name = "<unnamed window>"
		}
		return b.errCode(pos, ErWindowNoRedefineOrderBy, "Window '%s' cannot inherit '%s' since both contain an ORDER BY clause.", name, base)
	}
	return nil
}
