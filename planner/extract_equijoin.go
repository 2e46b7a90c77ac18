package planner

import "gpusql/sql"

// extractEquiJoins moves conjuncts of a join's Residual of the form
// left-expr = right-expr (each side over one input only) into LeftKeys /
// RightKeys, so that the join can hash or sort on them; what remains is
// checked per matching pair. A cross join that gains keys becomes inner.
// NULL-aware anti joins (NOT IN) are left alone: their keys are the IN
// operands, and an extra key would change which NULLs make the result
// unknown.
func extractEquiJoins(p sql.Plan) sql.Plan {
	switch n := p.(type) {
	case *sql.Join:
		j := *n
		j.Left, j.Right = extractEquiJoins(n.Left), extractEquiJoins(n.Right)
		if n.NullAware || n.Residual == nil {
			return &j
		}
		nl := len(n.Left.Schema())
		j.LeftKeys = append([]sql.Expr{}, n.LeftKeys...)
		j.RightKeys = append([]sql.Expr{}, n.RightKeys...)
		var rest []sql.Expr
		for _, c := range conjuncts(n.Residual) {
			if l, r, ok := equiSides(c, nl); ok {
				j.LeftKeys = append(j.LeftKeys, l)
				j.RightKeys = append(j.RightKeys, shiftCols(r, -nl))
				continue
			}
			rest = append(rest, c)
		}
		j.Residual = andAll(rest)
		if j.Kind == sql.JoinCross && len(j.LeftKeys) > 0 {
			j.Kind = sql.JoinInner
		}
		return &j
	}
	return withNewChildren(p, extractEquiJoins)
}

// equiSides splits e = (a = b) into the side over columns < nl and the side
// over columns >= nl.
func equiSides(e sql.Expr, nl int) (l, r sql.Expr, ok bool) {
	b, isBin := e.(*sql.Binary)
	if !isBin || b.Op != sql.OpEQ || b.L.Type().Physical() != b.R.Type().Physical() {
		return nil, nil, false
	}
	sideOf := func(x sql.Expr) int { // 1 left, 2 right, 3 both, 0 none
		s := 0
		for _, c := range colList(x) {
			if c < nl {
				s |= 1
			} else {
				s |= 2
			}
		}
		return s
	}
	ls, rs := sideOf(b.L), sideOf(b.R)
	switch {
	case ls == 1 && rs == 2:
		return b.L, b.R, true
	case ls == 2 && rs == 1:
		return b.R, b.L, true
	}
	return nil, nil, false
}

// withNewChildren copies p with fn applied to each child.
func withNewChildren(p sql.Plan, fn func(sql.Plan) sql.Plan) sql.Plan {
	switch n := p.(type) {
	case *sql.Filter:
		return &sql.Filter{Input: fn(n.Input), Cond: n.Cond}
	case *sql.Project:
		return &sql.Project{Input: fn(n.Input), Exprs: n.Exprs, Out: n.Out}
	case *sql.Join:
		j := *n
		j.Left, j.Right = fn(n.Left), fn(n.Right)
		return &j
	case *sql.Aggregate:
		a := *n
		a.Input = fn(n.Input)
		return &a
	case *sql.Sort:
		return &sql.Sort{Input: fn(n.Input), Keys: n.Keys}
	case *sql.Limit:
		return &sql.Limit{Input: fn(n.Input), Offset: n.Offset, Count: n.Count}
	case *sql.Distinct:
		return &sql.Distinct{Input: fn(n.Input)}
	case *sql.Window:
		return &sql.Window{Input: fn(n.Input), Funcs: n.Funcs, Out: n.Out}
	case *sql.SetOp:
		s := *n
		s.Left, s.Right = fn(n.Left), fn(n.Right)
		return &s
	}
	return p
}
