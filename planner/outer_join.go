package planner

import (
	"math"

	"gpusql/sql"
)

// buildOuterJoin plans LEFT, SEMI and ANTI joins. Their inputs are not
// reordered with other joins (an outer join does not commute with inner
// joins in general); each input is planned on its own, the left input
// streams and the right one builds.
func (b *builder) buildOuterJoin(n *sql.Join) (Node, error) {
	l, err := b.build(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.build(n.Right)
	if err != nil {
		return nil, err
	}
	lk, err := b.exprs(n.LeftKeys)
	if err != nil {
		return nil, err
	}
	rk, err := b.exprs(n.RightKeys)
	if err != nil {
		return nil, err
	}
	res, err := b.expr(n.Residual)
	if err != nil {
		return nil, err
	}
	ls, rs := b.stats[l], b.stats[r]
	inner := ls.Rows * rs.Rows * defaultSel
	if len(lk) > 0 {
		inner = equiJoinRows(ls, rs, lk, rk)
	}
	if res != nil {
		inner *= defaultSel
	}
	// Fraction of left rows with a match: the right side's share of the
	// key's distinct values.
	match := math.Min(1, inner/math.Max(ls.Rows, 1))
	if len(lk) > 0 {
		match = math.Min(1, keyDistinct(rk[0], rs)/keyDistinct(lk[0], ls))
	}
	var rows float64
	switch n.Kind {
	case sql.JoinLeft:
		rows = math.Max(inner, ls.Rows)
	case sql.JoinSemi:
		rows = ls.Rows * match
	case sql.JoinAnti:
		rows = ls.Rows * math.Max(0.1, 1-match)
	default:
		rows = inner
	}
	return b.makeJoin(n.Kind, l, r, lk, rk, res, n.NullAware, math.Max(rows, 1)), nil
}
