//go:build cuda

package gpu

import (
	"fmt"
	"sort"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// StarPipeline is how the GPU runs a HashAggregate over a tree of inner (or
// semi) HashJoins whose probe side is one fact-table scan and whose build
// sides are each a filtered dimension scan — every SSB query: one fused
// kernel scans the fact table, tests its filters, probes every dimension
// and aggregates (kernels/star_pipeline.cu), after one small build kernel
// per dimension (kernels/hash_build.cu). It is derived from the physical
// plan here, not planned separately, so the CPU runs the very same plan.
//
// Requirements (otherwise Run reports the operator as not supported on the
// GPU yet): each join has one key, no residual, and its probe key is a fact
// column; each build side is Filter/Projection over one TableScan; every
// filter conjunct reads one column; group keys are columns; aggregate
// arguments are a fact column or a+b, a-b, a*b of two fact columns.
type starQuery struct {
	agg     *planner.HashAggregate
	fact    *planner.TableScan
	filters []*planner.Filter
	preds   map[baseCol][]sql.Expr // conjuncts per scan column, fact and dimensions
	dims    []*starDim
	keys    []starKey
	aggs    []starAgg
	nFact   []int // fact group columns (table column indexes)
	// vmPreds are conjuncts reading several columns of one scan, or one
	// column in a way the range/bitmap predicates cannot express: they run
	// through the expression VM into a flag per row of that scan.
	vmPreds []scanExpr
}

// scanExpr is an expression over node's output whose every column is a
// column of scan.
type scanExpr struct {
	e    sql.Expr
	node planner.Node
	scan *planner.TableScan
}

// colOf maps the expression's column references to the scan's table
// columns for the VM compiler.
func (x scanExpr) colOf(idx int) (*columnar.Column, bool) {
	b, ok := resolve(x.node, idx)
	if !ok || b.scan != x.scan {
		return nil, false
	}
	return x.scan.Table.Columns[b.col], true
}

type starDim struct {
	join  *planner.HashJoin
	scan  *planner.TableScan
	key   int     // build key column of scan's table
	probe baseCol // probe key, a fact column
	semi  bool
	gcols []int // group key columns of this dimension's table
	// sel is the planner's estimate of the fraction of dimension rows that
	// survive its filters; the kernel probes the most selective first.
	sel float64
}

// starKey locates GROUP BY key i: dimension dim's gcols[j], or (dim = -1)
// fact group column nFact[j].
type starKey struct{ dim, j int }

// starAgg is one kernel aggregate: fn over a op b (fact table columns).
type starAgg struct {
	fn, op  int32
	a, b    int // fact table columns; -1 none
	isFloat bool
	// expr, when set, is the argument as an expression over the fact
	// table's columns, computed by the expression VM before the pipeline
	// runs (a and b are then -1).
	expr sql.Expr
}

// starOutput says how output aggregate i is made from kernel aggregates.
type starOutput struct {
	ae        sql.AggExpr
	slot      int // kernel aggregate of the value (sum for AVG)
	countSlot int // kernel aggregate counting non-NULL arguments; -1: the group's row count
}

func colRefUnder(e sql.Expr) (*sql.ColRef, bool) {
	for {
		switch x := e.(type) {
		case *sql.ColRef:
			return x, true
		case *sql.Cast:
			if !valuePreservingCast(x.E.Type(), x.T) {
				return nil, false
			}
			e = x.E
		default:
			return nil, false
		}
	}
}

// matchStar derives the star pipeline of aggregate a, or says which
// operator stops it.
func matchStar(a *planner.HashAggregate) (*starQuery, []starOutput, error) {
	q := &starQuery{agg: a, preds: map[baseCol][]sql.Expr{}}
	if err := q.walkProbe(a.Input); err != nil {
		return nil, nil, err
	}
	// Probe order: most selective dimension first (fewest rows survive to
	// the later probes), smaller tables first among equals (their arrays
	// stay in L1/L2).
	sort.SliceStable(q.dims, func(i, j int) bool {
		a, b := q.dims[i], q.dims[j]
		if a.sel != b.sel {
			return a.sel < b.sel
		}
		return a.scan.Table.Rows < b.scan.Table.Rows
	})
	for _, dm := range q.dims {
		if dm.probe.scan != q.fact {
			return nil, nil, unsupported(dm.join, "join between dimension tables (snowflake)")
		}
	}
	for _, f := range q.filters {
		for _, c := range conjuncts(f.Cond) {
			cols, ok := columnsOf(c, f.Input)
			if ok && len(cols) > 1 {
				same := true
				for _, b := range cols {
					same = same && b.scan == cols[0].scan
				}
				if same && (cols[0].scan == q.fact || q.dimOf(cols[0].scan) != nil) {
					x := scanExpr{e: c, node: f.Input, scan: cols[0].scan}
					if _, err := compileVM(c, x.colOf, true); err != nil {
						return nil, nil, unsupported(f, err.Error())
					}
					q.vmPreds = append(q.vmPreds, x)
					continue
				}
			}
			if !ok || len(cols) != 1 {
				return nil, nil, unsupported(f, fmt.Sprintf("predicate %s reads %d columns", c, len(cols)))
			}
			if cols[0].scan != q.fact && q.dimOf(cols[0].scan) == nil {
				return nil, nil, unsupported(f, "predicate on a column the star pipeline does not see")
			}
			q.preds[cols[0]] = append(q.preds[cols[0]], c)
		}
	}
	for _, g := range a.GroupBy {
		r, ok := colRefUnder(g)
		var b baseCol
		if ok {
			b, ok = resolve(a.Input, r.Index)
		}
		if !ok {
			return nil, nil, unsupported(a, fmt.Sprintf("group key %s is not a column", g))
		}
		q.keys = append(q.keys, q.keyOf(b))
		if q.keys[len(q.keys)-1].dim == -2 {
			return nil, nil, unsupported(a, fmt.Sprintf("group key %s comes from a semi-join", g))
		}
	}
	outs, err := q.matchAggs()
	if err != nil {
		return nil, nil, err
	}
	if len(q.aggs) > maxAggs || len(q.dims) > maxDims || len(q.nFact) > maxGCols {
		return nil, nil, unsupported(a, fmt.Sprintf("%d aggregates, %d joins, %d fact group keys exceed the kernel's %d, %d, %d",
			len(q.aggs), len(q.dims), len(q.nFact), maxAggs, maxDims, maxGCols))
	}
	return q, outs, nil
}

func (q *starQuery) dimOf(s *planner.TableScan) *starDim {
	for _, d := range q.dims {
		if d.scan == s {
			return d
		}
	}
	return nil
}

func (q *starQuery) keyOf(b baseCol) starKey {
	if b.scan == q.fact {
		for j, c := range q.nFact {
			if c == b.col {
				return starKey{-1, j}
			}
		}
		q.nFact = append(q.nFact, b.col)
		return starKey{-1, len(q.nFact) - 1}
	}
	for i, d := range q.dims {
		if d.scan != b.scan {
			continue
		}
		if d.semi {
			return starKey{-2, 0}
		}
		for j, c := range d.gcols {
			if c == b.col {
				return starKey{i, j}
			}
		}
		d.gcols = append(d.gcols, b.col)
		return starKey{i, len(d.gcols) - 1}
	}
	return starKey{-2, 0}
}

// findFact picks the fact table of a star: at each join the side that holds
// further joins; at the last join (two filtered scans) the probe side when
// the planner knows the build keys are unique, else the larger table.
func findFact(n planner.Node) (*planner.TableScan, error) {
	switch x := n.(type) {
	case *planner.TableScan:
		return x, nil
	case *planner.Filter:
		return findFact(x.Input)
	case *planner.Projection:
		return findFact(x.Input)
	case *planner.HashJoin:
		ls, lerr := dimScan(x.Left)
		rs, rerr := dimScan(x.Right)
		switch {
		case lerr != nil && rerr != nil:
			return nil, unsupported(x, "joins on both sides (bushy plans) are not a star")
		case lerr != nil:
			return findFact(x.Left)
		case rerr != nil:
			return findFact(x.Right)
		case x.Kind != sql.JoinInner:
			return ls, nil
		case x.UniqueBuild:
			return findFact(x.Probe())
		case rs.Table.Rows > ls.Table.Rows:
			return rs, nil
		}
		return ls, nil
	}
	return nil, unsupported(n, "")
}

// dimScan returns the scan of a dimension subtree (filters and projections
// over one scan).
func dimScan(n planner.Node) (*planner.TableScan, error) {
	switch x := n.(type) {
	case *planner.TableScan:
		return x, nil
	case *planner.Filter:
		return dimScan(x.Input)
	case *planner.Projection:
		return dimScan(x.Input)
	}
	return nil, unsupported(n, "")
}

func contains(n planner.Node, target planner.Node) bool {
	found := false
	planner.Walk(n, func(x planner.Node) {
		if x == target {
			found = true
		}
	})
	return found
}

// walkProbe follows the fact table's path from the aggregate down to its
// scan. At each join the side holding the fact scan is the fact side and
// the other must be a dimension (a filtered scan), whichever side the
// planner chose to build: for an inner join the result is the same, and
// the GPU always builds the dimension (small planners' estimates at tiny
// scale factors can put the fact side on the build side).
func (q *starQuery) walkProbe(n planner.Node) error {
	if q.fact == nil {
		var err error
		if q.fact, err = findFact(n); err != nil {
			return err
		}
	}
	switch x := n.(type) {
	case *planner.TableScan:
		if x != q.fact {
			return unsupported(x, "scan outside the star")
		}
		return nil
	case *planner.Filter:
		q.filters = append(q.filters, x)
		return q.walkProbe(x.Input)
	case *planner.Projection:
		return q.walkProbe(x.Input)
	case *planner.HashJoin:
		if x.Kind != sql.JoinInner && x.Kind != sql.JoinSemi {
			return unsupported(x, "only inner and semi joins run in the star pipeline")
		}
		if x.Residual != nil || len(x.LeftKeys) != 1 {
			return unsupported(x, "joins with several keys or a residual condition")
		}
		factSide, dimSide := x.Left, x.Right
		factKey, dimKey := x.LeftKeys[0], x.RightKeys[0]
		if !contains(x.Left, q.fact) {
			if x.Kind != sql.JoinInner {
				return unsupported(x, "semi-join with the fact table on the right")
			}
			factSide, dimSide = x.Right, x.Left
			factKey, dimKey = dimKey, factKey
		}
		dim := &starDim{join: x, semi: x.Kind == sql.JoinSemi, sel: 1}
		var err error
		if dim.scan, err = q.walkBuild(dimSide); err != nil {
			return err
		}
		if rows := dim.scan.Table.Rows; rows > 0 {
			dim.sel = min(1, dimSide.Props().EstRows/float64(rows))
		}
		pr, ok1 := colRefUnder(factKey)
		br, ok2 := colRefUnder(dimKey)
		if !ok1 || !ok2 {
			return unsupported(x, "join keys that are expressions")
		}
		bk, ok := resolve(dimSide, br.Index)
		if !ok || bk.scan != dim.scan {
			return unsupported(x, "join key is not a dimension column")
		}
		dim.key = bk.col
		if dim.probe, ok = resolve(factSide, pr.Index); !ok {
			return unsupported(x, "join key is not a fact column")
		}
		q.dims = append(q.dims, dim)
		return q.walkProbe(factSide)
	}
	return unsupported(n, "")
}

// walkBuild accepts a dimension subtree: filters and projections over one scan.
func (q *starQuery) walkBuild(n planner.Node) (*planner.TableScan, error) {
	switch x := n.(type) {
	case *planner.TableScan:
		return x, nil
	case *planner.Filter:
		q.filters = append(q.filters, x)
		return q.walkBuild(x.Input)
	case *planner.Projection:
		return q.walkBuild(x.Input)
	}
	return nil, unsupported(n, "a join build side must be a filtered table scan in the star pipeline")
}

// factOperand resolves an aggregate operand to a fact column.
func (q *starQuery) factOperand(e sql.Expr) (int, bool) {
	r, ok := colRefUnder(e)
	if !ok {
		return 0, false
	}
	b, ok := resolve(q.agg.Input, r.Index)
	if !ok || b.scan != q.fact {
		return 0, false
	}
	return b.col, true
}

func (q *starQuery) addAgg(a starAgg) int {
	for i, x := range q.aggs {
		if x == a {
			return i
		}
	}
	q.aggs = append(q.aggs, a)
	return len(q.aggs) - 1
}

func (q *starQuery) matchAggs() ([]starOutput, error) {
	var outs []starOutput
	for _, ae := range q.agg.Aggs {
		bad := func(why string) error {
			return unsupported(q.agg, fmt.Sprintf("aggregate %s: %s", aggString(ae), why))
		}
		if ae.Distinct {
			return nil, bad("DISTINCT")
		}
		if ae.Func == sql.AggCountStar {
			outs = append(outs, starOutput{ae: ae, slot: q.addAgg(starAgg{fn: aggCountStar, a: -1, b: -1}), countSlot: -1})
			continue
		}
		sa := starAgg{a: -1, b: -1, op: exprA}
		arg := ae.Arg
		if c, ok := q.factOperand(arg); ok {
			sa.a = c
		} else if ca, cb, op, ok := q.simpleBinary(arg); ok {
			sa.a, sa.b, sa.op = ca, cb, op
		} else {
			if arg.Type().ID == columnar.String {
				return nil, bad("computed string argument")
			}
			x := scanExpr{e: arg, node: q.agg.Input, scan: q.fact}
			if _, err := compileVM(arg, x.colOf, true); err != nil {
				return nil, bad(err.Error())
			}
			sa.expr = arg
		}
		sa.isFloat = arg.Type().ID == columnar.Float64
		if arg.Type().ID == columnar.String && ae.Func != sql.AggMin && ae.Func != sql.AggMax && ae.Func != sql.AggCount {
			return nil, bad("string argument")
		}
		nullable := q.nullable(sa.a) || sa.b >= 0 && q.nullable(sa.b) || sa.expr != nil
		out := starOutput{ae: ae, countSlot: -1}
		cnt := starAgg{fn: aggCount, a: sa.a, b: sa.b, op: sa.op, expr: sa.expr}
		switch ae.Func {
		case sql.AggCount:
			out.slot = q.addAgg(cnt)
		case sql.AggSum, sql.AggAvg:
			sa.fn = aggSum
			out.slot = q.addAgg(sa)
			if nullable || ae.Func == sql.AggAvg {
				out.countSlot = q.addAgg(cnt)
			}
		case sql.AggMin, sql.AggMax:
			sa.fn = aggMin
			if ae.Func == sql.AggMax {
				sa.fn = aggMax
			}
			out.slot = q.addAgg(sa)
			if nullable {
				out.countSlot = q.addAgg(cnt)
			}
		default:
			return nil, bad("function")
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// simpleBinary matches a+b, a-b, a*b of two fact columns, which the
// pipeline kernels compute themselves.
func (q *starQuery) simpleBinary(arg sql.Expr) (ca, cb int, op int32, ok bool) {
	bin, ok := arg.(*sql.Binary)
	if !ok || (bin.Op != sql.OpAdd && bin.Op != sql.OpSub && bin.Op != sql.OpMul) {
		return 0, 0, 0, false
	}
	ca, okA := q.factOperand(bin.L)
	cb, okB := q.factOperand(bin.R)
	if !okA || !okB {
		return 0, 0, 0, false
	}
	if bin.T.ID == columnar.Decimal && bin.Op != sql.OpMul && bin.L.Type().Scale != bin.R.Type().Scale {
		return 0, 0, 0, false
	}
	return ca, cb, map[sql.BinOp]int32{sql.OpAdd: exprAdd, sql.OpSub: exprSub, sql.OpMul: exprMul}[bin.Op], true
}

func (q *starQuery) nullable(c int) bool { return c >= 0 && q.fact.Table.Columns[c].Valid != nil }

func aggString(ae sql.AggExpr) string {
	name := map[sql.AggFunc]string{sql.AggCountStar: "COUNT(*)", sql.AggCount: "COUNT", sql.AggSum: "SUM",
		sql.AggAvg: "AVG", sql.AggMin: "MIN", sql.AggMax: "MAX"}[ae.Func]
	if ae.Arg == nil {
		return name
	}
	return name + "(" + ae.Arg.String() + ")"
}
