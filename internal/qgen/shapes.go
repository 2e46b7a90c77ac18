package qgen

// shapeQuery is one of the statement shapes of their own files, each a
// construct the general generator reaches only rarely: correlated scalar
// subqueries over groups (group_scalar.go), EXISTS under OR
// (exists_or.go), NOT IN with NULLs on both sides (notin_nulls.go), string
// GROUP BY keys (strkey_group.go), conditional aggregation (pivot.go),
// LEFT JOIN aggregates (left_agg.go), HAVING against a scalar subquery
// (having_scalar.go), date GROUP BY keys (date_group.go), a WITH query
// joined to itself (cte_twice.go), aggregates over a set operation with
// its own ORDER BY and LIMIT (union_derived.go), statements MySQL
// refuses (refused.go). A total ORDER BY, maybe with a LIMIT,
// follows half of them.
func (g *Gen) shapeQuery(ctes *[]*cte) *Node {
	var s sel
	switch g.r.Intn(11) {
	case 10:
		s = g.refused(ctes) // refused.go
		if s.node.WantErr != "" {
			return withClause(*ctes, s.node) // its own ORDER BY, or none
		}
	case 8:
		s = g.cteTwice(ctes) // cte_twice.go
	case 9:
		s = g.unionDerived(ctes) // union_derived.go
	case 4:
		s = g.pivot(ctes) // pivot.go
	case 5:
		s = g.leftAgg(ctes) // left_agg.go
	case 6:
		s = g.havingScalar(ctes) // having_scalar.go
	case 7:
		s = g.dateGroup(ctes) // date_group.go
	case 0:
		s = g.groupScalar(ctes)
	case 1:
		s = g.existsOr(ctes)
	case 2:
		s = g.notInNulls(ctes)
	default:
		s = g.strKeyGroup(ctes)
	}
	n := s.node
	if g.pct(50) {
		n = mk(TNone, "@@", n, g.orderBy(len(s.types), true, nil))
	}
	return withClause(*ctes, n)
}

// itemsSel is a sel of the select-list items, types and bounds filled.
func itemsSel(items []*Node, rows int64) sel {
	s := sel{rows: rows}
	for _, it := range items {
		s.types, s.bounds = append(s.types, it.Type), append(s.bounds, it.Bound)
	}
	return s
}
