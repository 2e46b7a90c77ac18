package sql

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"gpusql/storage/columnar"
)

// Subqueries are decorrelated into joins at bind time, so the planner and
// executors only ever see joins and uncorrelated ScalarSubquery values:
//
//   - x [NOT] IN (SELECT y ...), x = ANY (...), x <> ALL (...) and
//     [NOT] EXISTS (...) as WHERE/HAVING conjuncts become a Semi (Anti) join
//     of the current plan with the subquery. Uncorrelated IN: the right
//     input is the subquery's plan and the keys are x = its column.
//     Correlated: the right input is the subquery's FROM/WHERE without the
//     correlated conjuncts; the keys are x = the select expression plus every
//     correlated equality outer = inner, and the other correlated conjuncts
//     go to Residual (over left ++ right). NOT IN is a NullAware Anti join
//     whose keys are exactly the NOT IN pairs (correlated equalities then go
//     to Residual, which restricts the right rows compared for a left row).
//   - Uncorrelated EXISTS anywhere is a BOOLEAN ScalarSubquery:
//     count(*) > 0 over LIMIT 1 of the subquery.
//   - An uncorrelated scalar subquery is a ScalarSubquery.
//   - A correlated scalar subquery with aggregates and correlated
//     equalities inner = outer (TPC-H Q2/Q17 style) becomes an Aggregate
//     grouped by the inner sides, LEFT JOINed to the current plan on
//     outer = inner; the value is the join's right column (wrapped in a CASE
//     when the subquery's value over no rows is not NULL, e.g. COUNT → 0).
//
// The current plan (scope.plan) grows by these joins while an expression is
// bound; its existing columns keep their positions.

// subqueryPredicate binds a WHERE/HAVING conjunct that is a subquery
// predicate. handled with a nil Expr means it became a join; a non-nil Expr
// is a condition to filter on (a NestedSubquery where no join applies).
func (b *binder) subqueryPredicate(n ast.ExprNode, sc *scope) (Expr, bool, error) {
	e, handled, err := b.subqueryJoin(n, sc)
	if errors.Is(err, errNeedNested) {
		e, err = b.expr(n, sc)
		return e, true, err
	}
	return e, handled, err
}

// subqueryJoin decorrelates a subquery predicate into a semi or anti join
// of sc's plan, or says why not with errNeedNested.
func (b *binder) subqueryJoin(n ast.ExprNode, sc *scope) (Expr, bool, error) {
	neg := false
	for {
		switch x := n.(type) {
		case *ast.ParenthesesExpr:
			n = x.Expr
			continue
		case *ast.UnaryOperationExpr:
			if x.Op == opcode.Not || x.Op == opcode.Not2 {
				neg = !neg
				n = x.V
				continue
			}
		}
		break
	}
	pos := b.posOr(n, -1)
	switch x := n.(type) {
	case *ast.PatternInExpr:
		if sq, ok := x.Sel.(*ast.SubqueryExpr); ok {
			return nil, true, b.inSubquery(x.Expr, sq, x.Not != neg, sc, pos)
		}
	case *ast.CompareSubqueryExpr:
		sq, ok := x.R.(*ast.SubqueryExpr)
		if !ok {
			break
		}
		switch {
		case x.Op == opcode.EQ && !x.All:
			return nil, true, b.inSubquery(x.L, sq, neg, sc, pos)
		case x.Op == opcode.NE && x.All:
			return nil, true, b.inSubquery(x.L, sq, !neg, sc, pos)
		}
		return nil, false, errNeedNested
	case *ast.ExistsSubqueryExpr:
		sq, ok := x.Sel.(*ast.SubqueryExpr)
		if !ok {
			break
		}
		e, err := b.existsPredicate(sq, x.Not != neg, sc, pos)
		return e, true, err
	}
	return nil, false, nil
}

func (b *binder) inSubquery(lhs ast.ExprNode, sq *ast.SubqueryExpr, not bool, sc *scope, pos int) error {
	if err := b.quantifiedLimit(sq, pos); err != nil {
		return err
	}
	var lefts []Expr
	if row, ok := lhs.(*ast.RowExpr); ok {
		for _, v := range row.Values {
			e, err := b.expr(v, sc)
			if err != nil {
				return err
			}
			lefts = append(lefts, e)
		}
	} else {
		e, err := b.expr(lhs, sc)
		if err != nil {
			return err
		}
		lefts = []Expr{e}
	}
	blk, err := b.query(sq.Query, sc)
	if err != nil {
		return err
	}
	if blk.forceNested {
		return errNeedNested
	}
	if len(blk.names) != len(lefts) {
		return b.operandColumnsError(pos, len(lefts))
	}
	if not && len(lefts) > 1 {
		// A NOT IN anti join drops a row on any NULL key of the other
		// side, right for one column only: (1, 5) NOT IN (SELECT 0,
		// NULL) is TRUE, the first columns differing. The subquery is
		// evaluated as an expression instead, which compares rows by
		// three-valued logic.
		return errNeedNested
	}
	left := sc.plan
	leftLen := len(left.Schema())
	var right Plan
	var rights, corr, corrL, corrR []Expr
	switch {
	case !blk.corrUsed:
		right = blk.plan
		for i, c := range right.Schema()[:len(lefts)] {
			rights = append(rights, &ColRef{Index: i, Col: c})
		}
	case blk.outerKeys != nil && !not && blk.emptyValue == nil:
		// x IN (SELECT agg ... WHERE inner = outer): the subquery grouped
		// by its correlation keys, semi-joined on x and the keys. An outer
		// row without inner rows finds no group, which is right for IN
		// when the aggregate over no rows is NULL; NOT IN and COUNT are not
		// (they are rejected below).
		right = blk.plan
		rs := right.Schema()
		for i := range lefts {
			rights = append(rights, &ColRef{Index: i, Col: rs[i]})
		}
		for i, ok := range blk.outerKeys {
			k := len(lefts) + i
			corrL = append(corrL, outerToLeft(ok, leftLen))
			corrR = append(corrR, &ColRef{Index: k, Col: rs[k]})
		}
	default:
		if blk.outerKeys != nil || !semiJoinable(blk) {
			return errNeedNested
		}
		right, rights, corr = blk.input, blk.exprs, blk.corr
		for _, r := range rights {
			if hasOuterRef(r) {
				return errNeedNested
			}
		}
	}
	if planHasOuterRef(right) {
		return errNeedNested
	}
	j := &Join{Kind: JoinSemi, Left: left, Right: right, Out: left.Schema()}
	if not {
		j.Kind, j.NullAware = JoinAnti, true
	}
	for i := range lefts {
		name, err := b.comparisonCollation("in", pos, lefts[i], rights[i])
		if err != nil {
			return err
		}
		if name != "" { // equal in the collation: equal keys
			j.LeftKeys = append(j.LeftKeys, collationKey(lefts[i], name))
			j.RightKeys = append(j.RightKeys, collationKey(rights[i], name))
			continue
		}
		t, err := compareType(lefts[i], rights[i])
		if err != nil {
			return b.errf(pos, "%v", err)
		}
		j.LeftKeys = append(j.LeftKeys, castTo(lefts[i], t))
		j.RightKeys = append(j.RightKeys, castTo(rights[i], t))
	}
	j.LeftKeys = append(j.LeftKeys, corrL...)
	j.RightKeys = append(j.RightKeys, corrR...)
	b.attachCorrelation(j, corr, !not)
	sc.plan = j
	return nil
}

// semiJoinable reports whether a correlated block's rows are its input
// filtered by its correlated conjuncts, which a semi join reproduces: not
// a set operation, aggregate or LIMIT.
func semiJoinable(blk *block) bool {
	return !blk.setOp && !blk.aggregated && !blk.limited && !blk.forceNested
}

// attachCorrelation adds a correlated subquery's conjuncts to a join whose
// right input is the subquery's FROM/WHERE: equalities outer = inner become
// keys when keys may be added, the rest Residual.
func (b *binder) attachCorrelation(j *Join, corr []Expr, keys bool) {
	leftLen := len(j.Left.Schema())
	for _, c := range corr {
		if keys {
			if inner, outer, ok := splitCorrEquality(c); ok {
				j.LeftKeys = append(j.LeftKeys, outerToLeft(outer, leftLen))
				j.RightKeys = append(j.RightKeys, inner)
				continue
			}
		}
		j.Residual = and(j.Residual, outerToLeft(c, leftLen))
	}
}

func (b *binder) existsPredicate(sq *ast.SubqueryExpr, not bool, sc *scope, pos int) (Expr, error) {
	blk, err := b.query(sq.Query, sc)
	if err != nil {
		return nil, err
	}
	if !blk.corrUsed {
		return existsScalar(blk, not), nil
	}
	if blk.outerKeys != nil || !semiJoinable(blk) {
		return nil, errNeedNested
	}
	left := sc.plan
	j := &Join{Kind: JoinSemi, Left: left, Right: blk.input, Out: left.Schema()}
	if not {
		j.Kind = JoinAnti
	}
	if planHasOuterRef(blk.input) {
		return nil, errNeedNested
	}
	b.attachCorrelation(j, blk.corr, true)
	sc.plan = j
	return nil, nil
}

// existsScalar is [NOT] EXISTS of an uncorrelated subquery as a BOOLEAN
// ScalarSubquery: count(*) of its first row compared with 0.
func existsScalar(blk *block, not bool) Expr {
	lim := &Limit{Input: blk.plan, Count: 1}
	agg := &Aggregate{Input: lim, Aggs: []AggExpr{{Func: AggCountStar, T: columnar.TInt64}},
		Out: Schema{{Name: "count(*)", Type: columnar.TInt64}}}
	op := OpGT
	if not {
		op = OpEQ
	}
	cmp := &Binary{Op: op, L: &ColRef{Index: 0, Col: agg.Out[0]}, R: &Const{T: columnar.TInt64}, T: columnar.TBool}
	name := "exists"
	if not {
		name = "not_exists"
	}
	return &ScalarSubquery{Plan: newProject(agg, []Expr{cmp}, []string{name}), T: columnar.TBool}
}

// existsExpr is EXISTS in an expression (not a WHERE conjunct).
func (b *binder) existsExpr(n *ast.ExistsSubqueryExpr, sc *scope, pos int) (Expr, error) {
	sq, ok := n.Sel.(*ast.SubqueryExpr)
	if !ok {
		return nil, b.errf(pos, "unsupported: EXISTS of %s", constructName(n.Sel))
	}
	blk, err := b.query(sq.Query, sc)
	if errors.Is(err, errNeedNested) || err == nil && blk.corrUsed {
		return b.nestedExists(sq.Query, n.Not, sc)
	}
	if err != nil {
		return nil, err
	}
	return existsScalar(blk, n.Not), nil
}

func (b *binder) scalarSubquery(n *ast.SubqueryExpr, sc *scope, pos int) (Expr, error) {
	blk, err := b.query(n.Query, sc)
	if errors.Is(err, errNeedNested) {
		return b.nestedScalar(n.Query, sc, pos)
	}
	if err != nil {
		return nil, err
	}
	if len(blk.names) != 1 {
		return nil, b.operandColumnsError(pos, 1)
	}
	t := blk.plan.Schema()[0].Type
	if !blk.corrUsed {
		return &ScalarSubquery{Plan: blk.plan, T: t}, nil
	}
	// Correlated: a LEFT JOIN to the subquery grouped by its correlation
	// keys where it is an aggregate correlated by equalities only; nested
	// otherwise (several rows per outer row are then an error at run time,
	// as in MySQL).
	if blk.outerKeys == nil || blk.forceNested || sc.noJoins || planHasOuterRef(blk.plan) {
		return b.nestedScalar(n.Query, sc, pos)
	}
	left, right := sc.plan, blk.plan
	leftLen := len(left.Schema())
	j := &Join{Kind: JoinLeft, Left: left, Right: right}
	rs := right.Schema()
	for i, ok := range blk.outerKeys {
		j.LeftKeys = append(j.LeftKeys, outerToLeft(ok, leftLen))
		j.RightKeys = append(j.RightKeys, &ColRef{Index: 1 + i, Col: rs[1+i]})
	}
	j.Out = joinSchema(left.Schema(), rs, JoinLeft)
	sc.plan = j
	var v Expr = &ColRef{Index: leftLen, Col: j.Out[leftLen]}
	if blk.emptyValue != nil {
		v = &Case{Whens: []When{{Cond: &IsNull{E: &ColRef{Index: leftLen + 1, Col: j.Out[leftLen+1]}}, Result: castTo(blk.emptyValue, t)}},
			Else: v, T: t}
	}
	return v, nil
}
