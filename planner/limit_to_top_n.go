package planner

import (
	"math"

	"gpusql/sql"
)

// buildLimit plans LIMIT, turning Limit over Sort into TopN: ORDER BY ...
// LIMIT k needs only the k+offset first rows in order, which a bounded heap
// per worker finds without sorting (or even keeping) the rest. Only when the
// limit is small enough that a heap beats a sort (TopN keeps offset+count
// rows in memory per worker).
func (b *builder) buildLimit(n *sql.Limit) (Node, error) {
	if s, ok := n.Input.(*sql.Sort); ok && n.Count >= 0 && n.Offset+n.Count <= 1<<20 {
		in, err := b.build(s.Input)
		if err != nil {
			return nil, err
		}
		keys, err := b.sortKeys(s.Keys)
		if err != nil {
			return nil, err
		}
		st := b.stats[in].clone()
		st.Rows = math.Min(st.Rows, float64(n.Count))
		k := float64(n.Offset + n.Count)
		return b.set(&TopN{Input: in, Keys: keys, Offset: n.Offset, Count: n.Count}, st,
			b.cost(in)+b.stats[in].Rows*math.Log2(k+2)), nil
	}
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	st := b.stats[in].clone()
	if n.Count >= 0 {
		st.Rows = math.Min(st.Rows, float64(n.Count))
	}
	return b.set(&Limit{Input: in, Offset: n.Offset, Count: n.Count}, st, b.cost(in)), nil
}
