package planner

import (
	"gpusql/sql"
)

// pushDownFilters moves every predicate as close to the scans as its
// semantics allows, so rows are dropped before they are joined or grouped and
// a fact-table pipeline tests its filters before probing. Comma joins arrive
// as a tree of cross joins under one Filter; pushing its conjuncts turns each
// equality into the condition of the lowest join that sees both sides (then
// extractEquiJoins makes it a key) and each single-table conjunct into a
// filter on that table.
func pushDownFilters(p sql.Plan) sql.Plan { return push(p, nil) }

// push returns p with preds (conjuncts over p's schema) applied, pushed as
// deep as they may go.
func push(p sql.Plan, preds []sql.Expr) sql.Plan {
	switch n := p.(type) {
	case *sql.Filter:
		return push(n.Input, append(preds, conjuncts(n.Cond)...))
	case *sql.Project:
		// A predicate on a column whose expression differs per call
		// (RAND(), @n := @n + 1) stays above: pushed down, the expression
		// would be evaluated twice and the filter would test another value
		// than the one returned.
		var down, keep []sql.Expr
		for _, e := range preds {
			if readsVolatile(e, n.Exprs) {
				keep = append(keep, e)
				continue
			}
			down = append(down, substCols(e, n.Exprs))
		}
		return wrapFilter(&sql.Project{Input: push(n.Input, down), Exprs: n.Exprs, Out: n.Out}, keep)
	case *sql.Join:
		return pushJoin(n, preds)
	case *sql.Aggregate:
		// A predicate on group columns only holds for a whole group or none
		// of it, so it may filter the input instead. Not without GROUP BY:
		// SELECT count(*) FROM t HAVING 1 = 0 must return no row, while
		// filtering the empty input would still produce the one global row.
		var down, keep []sql.Expr
		ng := len(n.GroupBy)
		for _, e := range preds {
			cols := colList(e)
			ok := ng > 0 && len(cols) > 0
			for _, c := range cols {
				ok = ok && c < ng
			}
			if ok {
				down = append(down, substCols(e, n.GroupBy))
			} else {
				keep = append(keep, e)
			}
		}
		a := *n
		a.Input = push(n.Input, down)
		return wrapFilter(&a, keep)
	case *sql.Sort:
		return &sql.Sort{Input: push(n.Input, preds), Keys: n.Keys}
	case *sql.Distinct:
		return &sql.Distinct{Input: push(n.Input, preds)}
	case *sql.Window:
		down, keep := splitWindowPreds(n, preds)
		return wrapFilter(&sql.Window{Input: push(n.Input, down), Funcs: n.Funcs, Out: n.Out}, keep)
	case *sql.Limit:
		// Filtering before LIMIT would return different rows.
		return wrapFilter(&sql.Limit{Input: push(n.Input, nil), Offset: n.Offset, Count: n.Count}, preds)
	case *sql.SetOp:
		// A row-wise predicate commutes with UNION, INTERSECT and EXCEPT (in
		// both set and bag forms): whether a row survives depends only on its
		// values. Dictionary code sets are compiled against one side's
		// dictionary, so they stay above.
		var down, keep []sql.Expr
		for _, e := range preds {
			if hasCodeSet(e) {
				keep = append(keep, e)
			} else {
				down = append(down, e)
			}
		}
		s := *n
		s.Left = push(n.Left, retypeCols(down, n.Left.Schema()))
		s.Right = push(n.Right, retypeCols(down, n.Right.Schema()))
		return wrapFilter(&s, keep)
	case *sql.Scan, *sql.Values:
		return wrapFilter(p, preds)
	}
	return wrapFilter(p, preds)
}

// pushJoin distributes preds over a join.
//
// Inner and cross joins: a conjunct over one side filters that side; one over
// both becomes part of the join condition (and the join inner).
//
// LEFT JOIN: a WHERE conjunct over the left side only may filter the left
// input. One that touches the right side must stay above the join: in
//
//	SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.x IS NULL
//
// the rows of a without a match get b.x NULL and are kept. Filtering b first
// would keep only b's rows with x NULL, so an a row whose match has x = 5
// (rightly dropped above) would lose its match and come back NULL-extended.
// Only when the conjunct rejects NULLs on the right side (b.x > 5 is
// never true for a NULL-extended row) is the join really an inner join, and
// it is turned into one. Inside ON, a conjunct over the right side only may
// filter the right input (a right row failing it could not match anyway), but
// one over the left side only must stay in the condition: a left row failing
// it is still returned, NULL-extended.
//
// Semi and anti joins output left rows only, so WHERE conjuncts go left. An
// ON conjunct over the right side filters the right input; over the left side
// it may filter the left input of a semi join (no match either way) but not
// of an anti join (the failing row is exactly one that is returned).
func pushJoin(n *sql.Join, preds []sql.Expr) sql.Plan {
	nl := len(n.Left.Schema())
	side := func(e sql.Expr) (left, right bool) {
		for _, c := range colList(e) {
			if c < nl {
				left = true
			} else {
				right = true
			}
		}
		return
	}
	kind := n.Kind
	if kind == sql.JoinLeft {
		for _, e := range preds {
			if _, r := side(e); r && rejectsNullsOn(e, nl) {
				kind = sql.JoinInner
				break
			}
		}
	}
	var lp, rp, keep, on []sql.Expr
	switch kind {
	case sql.JoinInner, sql.JoinCross:
		for _, e := range append(append([]sql.Expr{}, preds...), conjuncts(n.Residual)...) {
			l, r := side(e)
			switch {
			case l && r:
				on = append(on, e)
			case r:
				rp = append(rp, shiftCols(e, -nl))
			default:
				lp = append(lp, e)
			}
		}
		if len(on) > 0 || len(n.LeftKeys) > 0 {
			kind = sql.JoinInner
		}
	case sql.JoinLeft:
		for _, e := range preds {
			if l, r := side(e); !r && l {
				lp = append(lp, e)
			} else {
				keep = append(keep, e)
			}
		}
		for _, e := range conjuncts(n.Residual) {
			if l, r := side(e); r && !l {
				rp = append(rp, shiftCols(e, -nl))
			} else {
				on = append(on, e)
			}
		}
	case sql.JoinSemi, sql.JoinAnti:
		lp = append(lp, preds...)
		for _, e := range conjuncts(n.Residual) {
			l, r := side(e)
			switch {
			case n.NullAware:
				on = append(on, e)
			case r && !l:
				rp = append(rp, shiftCols(e, -nl))
			case l && !r && kind == sql.JoinSemi:
				lp = append(lp, e)
			default:
				on = append(on, e)
			}
		}
	}
	j := &sql.Join{Kind: kind, Left: push(n.Left, lp), Right: push(n.Right, rp),
		LeftKeys: n.LeftKeys, RightKeys: n.RightKeys, Residual: andAll(on), NullAware: n.NullAware}
	j.Out = joinSchema(kind, j.Left.Schema(), j.Right.Schema())
	return wrapFilter(j, keep)
}

// rejectsNullsOn reports whether e is certainly not TRUE when every column at
// index >= from is NULL: some conjunct (other than a bare column) is, by
// notTrueWhenNull.
func rejectsNullsOn(e sql.Expr, from int) bool {
	for _, c := range conjuncts(e) {
		if _, isCol := c.(*sql.ColRef); !isCol && notTrueWhenNull(c, from) {
			return true
		}
	}
	return false
}

// notTrueWhenNull reports whether predicate e is certainly FALSE or NULL when
// every column at index >= from is NULL. x IN (list) is NULL for a NULL x,
// but a NULL list item does not stop it being TRUE (1 IN (1, a) is TRUE
// with a NULL); x NOT IN (list) is never TRUE with a NULL x or a NULL item.
func notTrueWhenNull(e sql.Expr, from int) bool {
	switch x := e.(type) {
	case *sql.Binary:
		switch x.Op {
		case sql.OpAnd:
			return notTrueWhenNull(x.L, from) || notTrueWhenNull(x.R, from)
		case sql.OpOr:
			return notTrueWhenNull(x.L, from) && notTrueWhenNull(x.R, from)
		}
	case *sql.InList:
		if x.Negated {
			for _, item := range x.List {
				if nullWhenNull(item, from) {
					return true
				}
			}
		}
	}
	return nullWhenNull(e, from)
}

// nullWhenNull reports whether e is certainly NULL when every column at index
// >= from is NULL: such a column under operators that give NULL for a NULL
// operand.
func nullWhenNull(e sql.Expr, from int) bool {
	switch x := e.(type) {
	case *sql.ColRef:
		return x.Index >= from
	case *sql.Cast:
		return nullWhenNull(x.E, from)
	case *sql.Neg:
		return nullWhenNull(x.E, from)
	case *sql.Not:
		return nullWhenNull(x.E, from)
	case *sql.Like:
		return nullWhenNull(x.E, from)
	case *sql.CodeSet:
		return nullWhenNull(x.E, from)
	case *sql.InList:
		return nullWhenNull(x.E, from)
	case *sql.Binary:
		if x.Op == sql.OpAnd || x.Op == sql.OpOr {
			return false // NULL AND FALSE is FALSE, NULL OR TRUE is TRUE
		}
		return nullWhenNull(x.L, from) || nullWhenNull(x.R, from)
	}
	return false
}

func wrapFilter(p sql.Plan, preds []sql.Expr) sql.Plan {
	if len(preds) == 0 {
		return p
	}
	return &sql.Filter{Input: p, Cond: andAll(preds)}
}

func hasCodeSet(e sql.Expr) bool {
	found := false
	walkExpr(e, func(x sql.Expr) {
		if _, ok := x.(*sql.CodeSet); ok {
			found = true
		}
	})
	return found
}

// retypeCols points the column references of preds at schema s (the same
// positions on one input of a set operation).
func retypeCols(preds []sql.Expr, s sql.Schema) []sql.Expr {
	out := make([]sql.Expr, len(preds))
	for i, e := range preds {
		out[i] = rewriteExpr(e, func(x sql.Expr) sql.Expr {
			if c, ok := x.(*sql.ColRef); ok && c.Index < len(s) {
				return &sql.ColRef{Index: c.Index, Col: s[c.Index]}
			}
			return x
		})
	}
	return out
}

// readsVolatile reports whether e reads a column of exprs that calls a
// function whose value differs per call.
func readsVolatile(e sql.Expr, exprs []sql.Expr) bool {
	for _, c := range colList(e) {
		if c < len(exprs) && isVolatile(exprs[c]) {
			return true
		}
	}
	return false
}

func isVolatile(e sql.Expr) bool {
	found := false
	walkExpr(e, func(x sql.Expr) {
		if f, ok := x.(*sql.Func); ok && sql.VolatileFuncs[f.Name] {
			found = true
		}
	})
	return found
}
