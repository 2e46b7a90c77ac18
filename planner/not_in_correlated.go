package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// splitCorrelatedNotIn rewrites a NULL-aware anti join that carries a
// Residual (a correlated NOT IN: x NOT IN (SELECT y FROM t WHERE <R>)) into
// two plain anti joins. Executors implement NULL-aware anti joins with a
// global rule — any NULL key on the build side rejects every probe row —
// which holds only when every build row belongs to every probe row's
// subquery. With a correlation R it does not: in
//
//	SELECT id FROM t a WHERE x NOT IN (SELECT x FROM t b WHERE b.id > a.id)
//
// a NULL x in row 2 makes the set unknown for rows 1 and 2 only; rows 3..5
// see sets without it and qualify. A left row p is rejected exactly when
// some right row r has R(p, r) TRUE and (p.k = r.k) not FALSE, i.e. either
// the keys are all equal (the first anti join, on the keys, residual R) or
// some key is NULL on either side and no key pair differs (the second anti
// join, whose condition keeps R's equalities for extractEquiJoins to hash
// on). When no key can be NULL the second join is omitted.
func splitCorrelatedNotIn(p sql.Plan) sql.Plan {
	j, ok := p.(*sql.Join)
	if !ok {
		return withNewChildren(p, splitCorrelatedNotIn)
	}
	left, right := splitCorrelatedNotIn(j.Left), splitCorrelatedNotIn(j.Right)
	if !j.NullAware || j.Kind != sql.JoinAnti || j.Residual == nil {
		n := *j
		n.Left, n.Right = left, right
		return &n
	}
	keysEqual := &sql.Join{Kind: sql.JoinAnti, Left: left, Right: right,
		LeftKeys: j.LeftKeys, RightKeys: j.RightKeys, Residual: j.Residual, Out: j.Out}
	nl := len(left.Schema())
	var notFalse, someNull []sql.Expr
	for i := range j.LeftKeys {
		lk, rk := j.LeftKeys[i], shiftCols(j.RightKeys[i], nl)
		var nulls []sql.Expr
		if sql.Nullable(lk) {
			nulls = append(nulls, &sql.IsNull{E: lk})
		}
		if sql.Nullable(rk) {
			nulls = append(nulls, &sql.IsNull{E: rk})
		}
		eq := &sql.Binary{Op: sql.OpEQ, L: lk, R: rk, T: columnar.TBool}
		notFalse = append(notFalse, orAll(append([]sql.Expr{eq}, nulls...)))
		someNull = append(someNull, nulls...)
	}
	if len(someNull) == 0 {
		return keysEqual
	}
	cond := append(conjuncts(j.Residual), notFalse...)
	cond = append(cond, orAll(someNull))
	return &sql.Join{Kind: sql.JoinAnti, Left: keysEqual, Right: right, Residual: andAll(cond), Out: j.Out}
}

// orAll joins disjuncts with OR.
func orAll(ds []sql.Expr) sql.Expr {
	out := ds[0]
	for _, d := range ds[1:] {
		out = &sql.Binary{Op: sql.OpOr, L: out, R: d, T: columnar.TBool}
	}
	return out
}
