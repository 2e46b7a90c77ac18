package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// children returns the direct sub-expressions of e.
func exprChildren(e sql.Expr) []sql.Expr {
	switch e := e.(type) {
	case *sql.Binary:
		return []sql.Expr{e.L, e.R}
	case *sql.Not:
		return []sql.Expr{e.E}
	case *sql.Neg:
		return []sql.Expr{e.E}
	case *sql.IsNull:
		return []sql.Expr{e.E}
	case *sql.InList:
		return append([]sql.Expr{e.E}, e.List...)
	case *sql.Like:
		return []sql.Expr{e.E}
	case *sql.CodeSet:
		return []sql.Expr{e.E}
	case *sql.Case:
		var out []sql.Expr
		for _, w := range e.Whens {
			out = append(out, w.Cond, w.Result)
		}
		return append(out, e.Else)
	case *sql.Cast:
		return []sql.Expr{e.E}
	case *sql.Func:
		return e.Args
	case *sql.NestedSubquery:
		return append(append([]sql.Expr(nil), e.LHS...), e.Args...)
	case *NestedSubquery:
		return append(append([]sql.Expr(nil), e.LHS...), e.Args...)
	}
	return nil
}

// walkExpr calls fn on e and its sub-expressions in pre-order.
func walkExpr(e sql.Expr, fn func(sql.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	for _, c := range exprChildren(e) {
		walkExpr(c, fn)
	}
}

// WalkExpr calls fn on e and its sub-expressions in pre-order, for the
// executors; a subquery's own plan is not entered, its arguments are.
func WalkExpr(e sql.Expr, fn func(sql.Expr)) { walkExpr(e, fn) }

// rewriteExpr rebuilds e bottom-up, replacing each node by fn(node with
// rewritten children). Nodes whose children did not change are passed to fn
// as they are, so the input is never mutated.
func rewriteExpr(e sql.Expr, fn func(sql.Expr) sql.Expr) sql.Expr {
	if e == nil {
		return nil
	}
	switch x := e.(type) {
	case *sql.Binary:
		l, r := rewriteExpr(x.L, fn), rewriteExpr(x.R, fn)
		if l != x.L || r != x.R {
			e = &sql.Binary{Op: x.Op, L: l, R: r, T: x.T, Text: x.Text}
		}
	case *sql.Not:
		if c := rewriteExpr(x.E, fn); c != x.E {
			e = &sql.Not{E: c}
		}
	case *sql.Neg:
		if c := rewriteExpr(x.E, fn); c != x.E {
			e = &sql.Neg{E: c, Text: x.Text}
		}
	case *sql.IsNull:
		if c := rewriteExpr(x.E, fn); c != x.E {
			e = &sql.IsNull{E: c, Negated: x.Negated}
		}
	case *sql.InList:
		c := rewriteExpr(x.E, fn)
		list, changed := rewriteList(x.List, fn)
		if c != x.E || changed {
			e = &sql.InList{E: c, List: list, Negated: x.Negated}
		}
	case *sql.Like:
		if c := rewriteExpr(x.E, fn); c != x.E {
			e = &sql.Like{E: c, Pattern: x.Pattern, Negated: x.Negated}
		}
	case *sql.CodeSet:
		c := rewriteExpr(x.E, fn)
		if c != sql.Expr(x.E) {
			if cr, ok := c.(*sql.ColRef); ok {
				e = &sql.CodeSet{E: cr, Match: x.Match, Desc: x.Desc}
			}
		}
	case *sql.Case:
		changed := false
		whens := make([]sql.When, len(x.Whens))
		for i, w := range x.Whens {
			whens[i] = sql.When{Cond: rewriteExpr(w.Cond, fn), Result: rewriteExpr(w.Result, fn)}
			changed = changed || whens[i].Cond != w.Cond || whens[i].Result != w.Result
		}
		els := rewriteExpr(x.Else, fn)
		if changed || els != x.Else {
			e = &sql.Case{Whens: whens, Else: els, T: x.T}
		}
	case *sql.Cast:
		if c := rewriteExpr(x.E, fn); c != x.E {
			e = &sql.Cast{E: c, T: x.T, Written: x.Written, Text: x.Text}
		}
	case *sql.Func:
		if args, changed := rewriteList(x.Args, fn); changed {
			e = &sql.Func{Name: x.Name, Args: args, T: x.T, Text: x.Text}
		}
	case *sql.NestedSubquery:
		lhs, c1 := rewriteList(x.LHS, fn)
		args, c2 := rewriteList(x.Args, fn)
		if c1 || c2 {
			c := *x
			c.LHS, c.Args = lhs, args
			e = &c
		}
	case *NestedSubquery:
		lhs, c1 := rewriteList(x.LHS, fn)
		args, c2 := rewriteList(x.Args, fn)
		if c1 || c2 {
			c := *x
			c.LHS, c.Args = lhs, args
			e = &c
		}
	}
	return fn(e)
}

func rewriteList(list []sql.Expr, fn func(sql.Expr) sql.Expr) ([]sql.Expr, bool) {
	out := make([]sql.Expr, len(list))
	changed := false
	for i, x := range list {
		out[i] = rewriteExpr(x, fn)
		changed = changed || out[i] != x
	}
	return out, changed
}

// colsOf adds the input columns e references to set.
func colsOf(e sql.Expr, set map[int]bool) {
	walkExpr(e, func(x sql.Expr) {
		if c, ok := x.(*sql.ColRef); ok {
			set[c.Index] = true
		}
	})
}

// colList returns the sorted distinct columns e references.
func colList(e sql.Expr) []int {
	set := map[int]bool{}
	colsOf(e, set)
	out := make([]int, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sortInts(out)
	return out
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// remapCols returns e with every column reference c replaced by m(c).
func remapCols(e sql.Expr, m func(int) int) sql.Expr {
	return rewriteExpr(e, func(x sql.Expr) sql.Expr {
		if c, ok := x.(*sql.ColRef); ok {
			if n := m(c.Index); n != c.Index {
				return &sql.ColRef{Index: n, Col: c.Col}
			}
		}
		return x
	})
}

// shiftCols adds d to every column reference of e.
func shiftCols(e sql.Expr, d int) sql.Expr {
	if d == 0 {
		return e
	}
	return remapCols(e, func(i int) int { return i + d })
}

// substCols replaces each column reference c by exprs[c] (inlining a
// projection below a filter).
func substCols(e sql.Expr, exprs []sql.Expr) sql.Expr {
	return rewriteExpr(e, func(x sql.Expr) sql.Expr {
		if c, ok := x.(*sql.ColRef); ok {
			return exprs[c.Index]
		}
		return x
	})
}

// conjuncts splits e on AND.
func conjuncts(e sql.Expr) []sql.Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*sql.Binary); ok && b.Op == sql.OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []sql.Expr{e}
}

// andAll joins conjuncts with AND; nil when there are none.
func andAll(cs []sql.Expr) sql.Expr {
	var out sql.Expr
	for _, c := range cs {
		if out == nil {
			out = c
		} else {
			out = &sql.Binary{Op: sql.OpAnd, L: out, R: c, T: columnar.TBool}
		}
	}
	return out
}

// nodeExprs returns the expressions a node evaluates.
func nodeExprs(n Node) []sql.Expr {
	switch n := n.(type) {
	case *Filter:
		return []sql.Expr{n.Cond}
	case *Projection:
		return n.Exprs
	case *HashJoin:
		return append(append(append([]sql.Expr{}, n.LeftKeys...), n.RightKeys...), n.Residual)
	case *SortMergeJoin:
		return append(append(append([]sql.Expr{}, n.LeftKeys...), n.RightKeys...), n.Residual)
	case *NestedLoopJoin:
		return []sql.Expr{n.Cond}
	case *EpsilonJoin:
		return []sql.Expr{n.LeftVec, n.RightVec, n.Filter}
	case *RangeJoinCount:
		out := []sql.Expr{n.Key, n.Ne}
		for _, b := range []*RangeBound{n.Lo, n.Hi} {
			if b != nil {
				out = append(out, b.E)
			}
		}
		return out
	case *HashAggregate:
		out := append([]sql.Expr{}, n.GroupBy...)
		for _, a := range n.Aggs {
			for _, e := range a.Exprs() {
				out = append(out, *e)
			}
		}
		return out
	case *Sort:
		return sortKeyExprs(n.Keys)
	case *Window:
		return windowExprs(n.Funcs)
	case *TopN:
		return sortKeyExprs(n.Keys)
	case *Values:
		var out []sql.Expr
		for _, r := range n.Rows {
			out = append(out, r...)
		}
		return out
	}
	return nil
}

func sortKeyExprs(keys []sql.SortKey) []sql.Expr {
	out := make([]sql.Expr, len(keys))
	for i, k := range keys {
		out[i] = k.Expr
	}
	return out
}

// exprString renders e for EXPLAIN (nil as "").
func exprString(e sql.Expr) string {
	if e == nil {
		return ""
	}
	return e.String()
}
