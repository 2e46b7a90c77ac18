package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A sort-based DISTINCT or set operation finds its rows sorted by its
// columns in order, ascending, NULLs first: the radix sort's order, which
// is the order the GPU's Sort gives ORDER BY c0, c1, ... ASC (strings by
// their order-preserving codes; a set operation's dictionaries are merged
// in string order). It lists them in input order, as the CPU executor
// does, unless a Sort or TopN above asks for exactly that sorted order by
// every column: that one then has nothing to sort, and as the rows are
// distinct there are no ties whose order the two executors could list
// differently. DOUBLE columns do not count: the set operation sorts every
// NaN as one, the Sort orders NaNs by sign.

// parentsOf maps every node of body to the node above it.
func parentsOf(body Node) map[Node]Node {
	parents := map[Node]Node{}
	Walk(body, func(n Node) {
		for _, c := range n.Children() {
			parents[c] = n
		}
	})
	return parents
}

// orderAbove is the Sort or TopN above n, through filters, limits and
// column projections (which keep the order), whose first keys are
// ascending references to all of n's columns in n's order (nil: none).
func orderAbove(parents map[Node]Node, n Node) Node {
	schema := n.Schema()
	src := identity(len(schema)) // the current node's columns as n's
	for cur := parents[n]; cur != nil; cur = parents[cur] {
		switch x := cur.(type) {
		case *Filter, *Limit:
			continue
		case *Projection:
			if !x.IsPassThrough() {
				return nil
			}
			next := make([]int, len(x.Exprs))
			for i, e := range x.Exprs {
				next[i] = src[e.(*sql.ColRef).Index]
			}
			src = next
		case *Sort:
			return orderedBy(x, x.Keys, src, schema)
		case *TopN:
			return orderedBy(x, x.Keys, src, schema)
		default:
			return nil
		}
	}
	return nil
}

// orderedBy returns op when its first keys ask for every column of n in
// order, ascending, none DOUBLE (src maps the keys' columns to n's);
// later keys order nothing more, as the rows are distinct.
func orderedBy(op Node, keys []sql.SortKey, src []int, schema sql.Schema) Node {
	if len(keys) < len(schema) {
		return nil
	}
	for j := range schema {
		ref, ok := keys[j].Expr.(*sql.ColRef)
		if !ok || keys[j].Desc || ref.Index >= len(src) || src[ref.Index] != j ||
			schema[j].Type.Physical() == columnar.PhysFloat64 {
			return nil
		}
	}
	return op
}

// orderSeconds is the cost of the Sort or TopN above a DISTINCT or set
// operation: a radix sort of its distinct rows by the keys.
func orderSeconds(ks RowKeyStats, above Node, prof *GPUProfile) float64 {
	var keys int
	switch x := above.(type) {
	case *Sort:
		keys = len(x.Keys)
	case *TopN:
		keys = len(x.Keys)
	}
	keys = min(keys, len(ks.SortBytes))
	sec, launches, syncs := radixSortCost(ks.Groups, ks.SortBytes[:keys], ks.Nullable[:keys], prof)
	gather := ks.Groups * missBytes * float64(len(ks.SortBytes)) // the rows gathered in order
	return sec + gather/(prof.HBMGBs*1e9) + launches*setLaunchSec + syncs*setSyncSec
}

// explainPresorted says, in the EXPLAIN line of each Sort or TopN whose
// rows arrive in order, that it does not sort.
func explainPresorted(g *GPUPlan) {
	for i := range g.Ops {
		op := &g.Ops[i]
		from, ok := g.Presorted[op.Node]
		if !ok {
			continue
		}
		op.How = "rows arrive in this order from " + opName(from) + " (sort-based): not sorted again"
		if _, ok := op.Node.(*TopN); ok {
			op.How += "; the first offset+count rows"
		}
	}
}
