package planner

import (
	"fmt"
	"math"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// RangeJoinCount counts the pairs of a nested-loop join whose condition
// bounds one expression of one side (the Key, over the Sorted input) by
// expressions of the other (over the Probe input): COUNT(*) over
// a JOIN b ON a.x < b.y, over b.y BETWEEN a.lo AND a.hi, or over a.x <> b.y.
// It never forms the pairs: it sorts the key values of the sorted side once
// (NULLs dropped: they satisfy no comparison) and, for each probe row,
// binary-searches the bounds and adds the width of the range between them
// (or, for <>, the non-NULL keys minus the run equal to the value).
// O((S + P) log S) instead of O(S·P): the SSB self-join
// lineorder a, lineorder b WHERE a.lo_revenue < b.lo_revenue at SF 0.1 is
// 3.6·10^11 pairs but 600k searches. Without a condition (a cross join)
// each probe row counts every sorted row.
//
// The output is the aggregate's: one row of COUNT(*) columns, each the same
// count. The GPU executor does not implement it; plans holding one are
// marked CPUOnly.
type RangeJoinCount struct {
	NodeProps
	// Probe streams; Sorted is materialized and its Key values sorted.
	Probe, Sorted Node
	// Key is over Sorted's schema (nil: no condition, count every row).
	Key sql.Expr
	// Lo and Hi bound the key from below and above (nil: unbounded); Ne,
	// when set, is the value the key must differ from (and Lo, Hi are nil).
	// Their expressions are over Probe's schema.
	Lo, Hi *RangeBound
	Ne     sql.Expr
	// Cmp is the type key and bounds are compared in (sql.OperandType).
	Cmp columnar.Type
	// Join is the nested-loop join this counts, kept for EXPLAIN.
	Join *NestedLoopJoin
	Out  sql.Schema
}

// RangeBound is one bound of a RangeJoinCount key.
type RangeBound struct {
	E         sql.Expr
	Inclusive bool
}

func (n *RangeJoinCount) Schema() sql.Schema { return n.Out }
func (n *RangeJoinCount) Children() []Node   { return []Node{n.Probe, n.Sorted} }

// rangeJoinCount returns the RangeJoinCount that computes agg, when agg is
// COUNT(*)s without GROUP BY over an inner or cross nested-loop join whose
// condition is at most a lower and an upper bound (or one <>) between an
// expression of one side and expressions of the other, compared as numbers.
// Strings are left to the nested loop: each side's codes index its own
// dictionary, so they do not compare across sides. Any other aggregate,
// a GROUP BY, or a condition of another shape (an OR, a second column of
// the key side) needs the pairs themselves.
func (b *builder) rangeJoinCount(agg *HashAggregate) (*RangeJoinCount, bool) {
	nl, ok := agg.Input.(*NestedLoopJoin)
	if !ok || len(agg.GroupBy) > 0 || nl.NullAware || (nl.Kind != sql.JoinInner && nl.Kind != sql.JoinCross) {
		return nil, false
	}
	for _, a := range agg.Aggs {
		if a.Func != sql.AggCountStar || a.T.Physical() != columnar.PhysInt64 {
			return nil, false
		}
	}
	ls, rs := b.stats[nl.Left], b.stats[nl.Right]
	rc := &RangeJoinCount{Probe: nl.Left, Sorted: nl.Right, Join: nl, Out: agg.Out}
	if nl.Cond == nil {
		if ls.Rows < rs.Rows {
			rc.Probe, rc.Sorted = nl.Right, nl.Left
		}
		return rc, true
	}
	cmps := conjuncts(nl.Cond)
	if len(cmps) > 2 {
		return nil, false
	}
	nLeft := len(nl.Left.Schema())
	// Try the right side as the sorted one, then the left; prefer sorting
	// the smaller input when both work.
	try := []bool{true, false}
	if ls.Rows < rs.Rows {
		try = []bool{false, true}
	}
	for _, sortRight := range try {
		if r, ok := rangeBounds(cmps, nLeft, sortRight); ok {
			r.Join, r.Out = nl, agg.Out
			r.Probe, r.Sorted = nl.Left, nl.Right
			if !sortRight {
				r.Probe, r.Sorted = nl.Right, nl.Left
			}
			return r, true
		}
	}
	return nil, false
}

// side says which input the columns of e come from: 1 left, 2 right,
// 0 none, 3 both.
func side(e sql.Expr, nLeft int) int {
	s := 0
	for _, c := range colList(e) {
		if c < nLeft {
			s |= 1
		} else {
			s |= 2
		}
	}
	hasSub := false
	walkExpr(e, func(x sql.Expr) {
		switch x.(type) {
		case *Subquery, *NestedSubquery:
			hasSub = true
		}
	})
	if hasSub {
		return 3
	}
	return s
}

// rangeBounds reads the comparisons cmps as bounds on one key expression of
// the sorted side (right when sortRight), with expressions rebased onto
// their own input's schema.
func rangeBounds(cmps []sql.Expr, nLeft int, sortRight bool) (*RangeJoinCount, bool) {
	keySide, probeSide := 1, 2
	if sortRight {
		keySide, probeSide = 2, 1
	}
	rc := &RangeJoinCount{}
	var keyStr string
	for _, c := range cmps {
		bin, ok := c.(*sql.Binary)
		if !ok {
			return nil, false
		}
		op, k, v := bin.Op, bin.L, bin.R
		if side(k, nLeft) != keySide {
			op, k, v = op.Flip(), bin.R, bin.L
		}
		if side(k, nLeft) != keySide || side(v, nLeft) != probeSide {
			return nil, false
		}
		k = stripWidening(k)
		kt, vt := k.Type(), v.Type()
		if kt.ID == columnar.String || vt.ID == columnar.String || kt.ID == columnar.Bool || vt.ID == columnar.Bool {
			return nil, false
		}
		cmp := sql.OperandType(kt, vt)
		if rc.Key == nil {
			keyStr, rc.Cmp = exprKey(k), cmp
		} else if exprKey(k) != keyStr {
			return nil, false
		} else {
			rc.Cmp = sql.OperandType(rc.Cmp, cmp)
		}
		// Rebase: right-side expressions index the right input from 0.
		if sortRight {
			k = shiftCols(k, -nLeft)
		} else {
			v = shiftCols(v, -nLeft)
		}
		rc.Key = k
		bound := &RangeBound{E: v, Inclusive: op == sql.OpLE || op == sql.OpGE}
		switch op {
		case sql.OpGT, sql.OpGE: // key > v: a lower bound
			if rc.Lo != nil || rc.Ne != nil {
				return nil, false
			}
			rc.Lo = bound
		case sql.OpLT, sql.OpLE:
			if rc.Hi != nil || rc.Ne != nil {
				return nil, false
			}
			rc.Hi = bound
		case sql.OpNE:
			if len(cmps) != 1 {
				return nil, false
			}
			rc.Ne = v
		default:
			return nil, false
		}
	}
	return rc, true
}

// stripWidening removes the casts the binder put around a key to compare
// it with a wider operand (INT to BIGINT, to DECIMAL, to DOUBLE): they keep
// the order of the values, and the key is brought to the comparison type
// anyway, so b.id BETWEEN a.x AND a.x + 10 bounds one key, id.
func stripWidening(e sql.Expr) sql.Expr {
	for {
		c, ok := e.(*sql.Cast)
		if !ok {
			return e
		}
		from, to := c.E.Type(), c.T
		switch {
		case from.ID == columnar.String || to.ID == columnar.String || from.ID == columnar.Bool ||
			(from.ID == columnar.Date) != (to.ID == columnar.Date),
			(from.ID == columnar.Datetime) != (to.ID == columnar.Datetime),
			(from.ID == columnar.Time) != (to.ID == columnar.Time), from.Year != to.Year:
			return e
		case from.Physical() == columnar.PhysFloat64 && to.Physical() != columnar.PhysFloat64:
			return e
		case to.Physical() != columnar.PhysFloat64 && to.DecimalScale() < from.DecimalScale():
			return e
		case to.IsInteger() && !from.IsInteger():
			return e
		}
		e = c.E
	}
}

// exprKey identifies an expression by its text and the columns it reads
// (two columns may share a name).
func exprKey(e sql.Expr) string {
	return fmt.Sprint(e.String(), colList(e))
}

// planRangeJoinCount replaces agg by a RangeJoinCount when one computes it.
func (b *builder) planRangeJoinCount(agg *HashAggregate) Node {
	rc, ok := b.rangeJoinCount(agg)
	if !ok {
		return agg
	}
	ps, ss := b.stats[rc.Probe], b.stats[rc.Sorted]
	cost := b.cost(rc.Probe) + b.cost(rc.Sorted) + ss.Rows*math.Log2(ss.Rows+2) + ps.Rows*math.Log2(ss.Rows+2)
	return b.set(rc, b.stats[agg], cost)
}

// describeRangeJoinCount is the EXPLAIN line: which side is sorted, the
// condition on its key, and the join it replaces.
func describeRangeJoinCount(head string, n *RangeJoinCount) string {
	sorted := "right"
	if n.Sorted == n.Join.Left {
		sorted = "left"
	}
	if n.Key == nil {
		return fmt.Sprintf("%s count(*) of a Cross join: probe rows × %s rows", head, sorted)
	}
	s := fmt.Sprintf("%s count(*) of an Inner join sort=%s key=%s", head, sorted, exprString(n.Key))
	if n.Ne != nil {
		return s + " where key <> " + exprString(n.Ne)
	}
	var conds []string
	if n.Lo != nil {
		op := ">"
		if n.Lo.Inclusive {
			op = ">="
		}
		conds = append(conds, "key "+op+" "+exprString(n.Lo.E))
	}
	if n.Hi != nil {
		op := "<"
		if n.Hi.Inclusive {
			op = "<="
		}
		conds = append(conds, "key "+op+" "+exprString(n.Hi.E))
	}
	return s + " where " + strings.Join(conds, " AND ")
}
