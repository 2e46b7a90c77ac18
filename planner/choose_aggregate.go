package planner

import (
	"math"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Dense aggregation limits. A dense array costs its size in memory and in
// the final scan whether the slots are used or not, so it is chosen when the
// key domains are small (at most maxDenseSlots) and not much larger than the
// input. Dense keys must have exact bounds: a dictionary's code range or an
// integer column's min/max from statistics, narrowed by the filters below.
const (
	maxDenseSlots       = 1 << 20
	maxForcedDenseSlots = 1 << 24
)

func (b *builder) buildAggregate(n *sql.Aggregate) (Node, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	groups, err := b.exprs(n.GroupBy)
	if err != nil {
		return nil, err
	}
	aggs := make([]sql.AggExpr, len(n.Aggs))
	for i, a := range n.Aggs {
		aggs[i] = a
		aggs[i].CopyOrder()
		for _, e := range aggs[i].Exprs() {
			if *e, err = b.expr(*e); err != nil {
				return nil, err
			}
		}
	}
	is := b.stats[in]
	agg := &HashAggregate{Input: in, GroupBy: groups, Aggs: aggs, Out: n.Out}
	s := &relStats{}
	keyStats := make([]colStat, len(groups))
	for i, g := range groups {
		keyStats[i] = exprStat(g, is, g.Type())
	}
	s.Rows = 1
	if len(groups) > 0 {
		tmp := &relStats{Rows: is.Rows, Cols: keyStats}
		s.Rows = groupCount(tmp, allCols(len(groups)))
	}
	s.Cols = append(s.Cols, keyStats...)
	for _, a := range aggs {
		s.Cols = append(s.Cols, unknownCol(a.T, s.Rows))
	}
	agg.Strategy, agg.DenseKeys = b.chooseAggStrategy(groups, keyStats, is.Rows)
	b.set(agg, s, b.cost(in)+is.Rows)
	return b.planRangeJoinCount(agg), nil
}

// chooseAggStrategy returns AggDense with the key domains when every key has
// a small exact domain, AggHash otherwise (or as Options force).
func (b *builder) chooseAggStrategy(groups []sql.Expr, ks []colStat, inRows float64) (AggStrategy, []DenseKey) {
	if b.opts.GroupBy == "hash" {
		return AggHash, nil
	}
	keys := make([]DenseKey, len(groups))
	slots := int64(1)
	for i, g := range groups {
		k, ok := denseDomain(g, ks[i])
		if !ok {
			return AggHash, nil
		}
		keys[i] = k
		slots *= k.Size
		if slots > maxForcedDenseSlots {
			return AggHash, nil
		}
	}
	if b.opts.GroupBy != "dense" && len(groups) > 0 &&
		(slots > maxDenseSlots || float64(slots) > math.Max(64*inRows, 1<<16)) {
		return AggHash, nil
	}
	return AggDense, keys
}

// denseDomain returns the dense domain of a group key: dictionary codes for a
// string column whose dictionary is known, the exact value range for integers
// (dates and booleans included). One extra slot holds NULL.
func denseDomain(g sql.Expr, cs colStat) (DenseKey, bool) {
	t := g.Type()
	if t.ID == columnar.String {
		c, ok := g.(*sql.ColRef)
		if !ok || c.Col.Dict == nil {
			return DenseKey{}, false
		}
		return DenseKey{Min: 0, Size: int64(c.Col.Dict.Len()) + 1}, true
	}
	if t.Physical() == columnar.PhysFloat64 || t.IsWide() || !cs.Exact || !cs.HasRange {
		return DenseKey{}, false
	}
	lo, hi := math.Floor(cs.Min), math.Ceil(cs.Max)
	if hi-lo > maxForcedDenseSlots {
		return DenseKey{}, false
	}
	return DenseKey{Min: int64(lo), Size: int64(hi-lo) + 2}, true
}
