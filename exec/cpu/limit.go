package cpu

import "gpusql/planner"

// Limit collects at most offset+count rows (its pipeline stops as soon as it
// has them) and returns the last count of them.
func (x *executor) runLimit(n *planner.Limit) (*rel, error) {
	cap := int64(-1)
	if n.Count >= 0 {
		cap = n.Offset + n.Count
	}
	in, err := x.collect(n.Input, cap, n)
	if err != nil {
		return nil, err
	}
	lo := min(int(n.Offset), in.rows)
	hi := in.rows
	if n.Count >= 0 {
		hi = min(hi, lo+int(n.Count))
	}
	if lo == 0 && hi == in.rows {
		return in, nil
	}
	idx := make([]int32, hi-lo)
	for i := range idx {
		idx[i] = int32(lo + i)
	}
	return gatherRel(in, idx), nil
}
