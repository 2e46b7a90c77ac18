package planner

import (
	"fmt"
	"slices"
	"strings"

	"gpusql/sql"
)

// A star's GROUP BY output is small (SSB's largest has 800 rows) but its
// ORDER BY ran on the host, after the groups were decoded: on a GPU
// machine's host CPU that sort and the decoding took most of a warm
// query's host time. The group table's slot is a mixed-radix number of
// the key components' digits (a dimension's rank among its surviving
// group values, in value order; a fact column's offset from its minimum),
// and the device compacts the non-empty slots in slot order. So when the
// sort's keys are group keys, all ascending or all descending, the slot's
// digits can be laid out with the first sort key's component most
// significant, and the groups arrive sorted (read backwards when
// descending): the host sorts nothing. Otherwise the host sorts
// the decoded groups in place, before the tail, which then skips the sort.

// GPUStarSort is the tail's first Sort or TopN when its keys are columns
// of the star's output, reached through projections that only pick
// columns: the GPU executor gives the star's output in its order.
type GPUStarSort struct {
	Node Node
	// Cols are the output columns of the star the keys read; Desc their
	// directions.
	Cols []int
	Desc []bool
	// Slots, when set, are the group table's components (dimension i:
	// i; fact group column j: len(Dims)+j) from the most significant
	// digit, so that the groups come in the sort's order when no key
	// column of the sort holds NULL (a NULL slot is its component's last
	// digit, where ascending order wants it first); the executor checks
	// that on the data and otherwise sorts. Nil: the host sorts.
	Slots []int
	// Reversed: the keys are all descending, so the groups come in the
	// reverse of slot order (a NULL slot, last, would come first where
	// descending order wants it last: the same check applies).
	Reversed bool
}

// planStarSort finds g's star sort and, where its keys allow it, the slot
// layout that gives it.
func planStarSort(g *GPUPlan) *GPUStarSort {
	s := g.Star
	if g.TailOn != TailHost || s == nil {
		return nil
	}
	ss := TailSortOnStar(g.Tail)
	if ss == nil {
		return nil
	}
	if s.Groups.Layout != GroupSharedRemapped {
		ss.Slots = slotsInOrder(s, ss)
		ss.Reversed = ss.Slots != nil && ss.Desc[0]
	}
	return ss
}

// TailSortOnStar is the tail's first Sort or TopN (root first: the body's
// parent last) with its keys as columns of the body, nil when a computed
// column or another operator comes first.
func TailSortOnStar(tail []Node) *GPUStarSort {
	var pick []int // body column of each column of the current level; nil: itself
	through := func(c int) int {
		if pick == nil {
			return c
		}
		return pick[c]
	}
	for i := len(tail) - 1; i >= 0; i-- {
		var keys []sql.SortKey
		switch x := tail[i].(type) {
		case *Projection:
			next := make([]int, len(x.Exprs))
			for j, e := range x.Exprs {
				r, ok := e.(*sql.ColRef)
				if !ok {
					return nil
				}
				next[j] = through(r.Index)
			}
			pick = next
			continue
		case *Sort:
			keys = x.Keys
		case *TopN:
			keys = x.Keys
		default:
			return nil
		}
		ss := &GPUStarSort{Node: tail[i]}
		for _, k := range keys {
			r, ok := k.Expr.(*sql.ColRef)
			if !ok {
				return nil
			}
			ss.Cols = append(ss.Cols, through(r.Index))
			ss.Desc = append(ss.Desc, k.Desc)
		}
		return ss
	}
	return nil
}

// slotsInOrder lays the components out by the sort's keys when they are
// group keys, all in one direction, that read each component's columns in
// its order (a dimension grouping by several columns ranks them in the
// order of its GroupCols; one whose columns the sort lists only in part
// must be the last it reads), the components the sort does not read below
// them; nil when the keys do not allow it.
func slotsInOrder(s *GPUStar, ss *GPUStarSort) []int {
	comps := len(s.Dims) + len(s.FactGroupCols)
	var order []int
	next := 0 // the next column expected of the last component in order
	for i, c := range ss.Cols {
		if ss.Desc[i] != ss.Desc[0] || c >= len(s.Keys) {
			return nil
		}
		k := s.Keys[c]
		comp := len(s.Dims) + k.J
		if k.Dim >= 0 {
			comp = k.Dim
		}
		switch {
		case len(order) > 0 && order[len(order)-1] == comp && k.J == next:
			next++
		case !slices.Contains(order, comp) && (k.Dim < 0 || k.J == 0) && (len(order) == 0 || next == lastWidth(s, order)):
			order, next = append(order, comp), 1
		default:
			return nil
		}
	}
	for c := range comps {
		if !slices.Contains(order, c) {
			order = append(order, c)
		}
	}
	return order
}

// lastWidth is the number of group columns of order's last component.
func lastWidth(s *GPUStar, order []int) int {
	c := order[len(order)-1]
	if c < len(s.Dims) {
		return len(s.Dims[c].GroupCols)
	}
	return 1
}

// explainStarSort is EXPLAIN's line for ss ("" when nil).
func explainStarSort(s *GPUStar, ss *GPUStarSort) string {
	if ss == nil {
		return ""
	}
	if ss.Slots == nil {
		return fmt.Sprintf("%s: the decoded groups sorted %s", opName(ss.Node), sortPlace(s))
	}
	var names []string
	for _, c := range ss.Slots {
		if c < len(s.Dims) {
			d := s.Dims[c]
			for _, gc := range d.GroupCols {
				names = append(names, d.Scan.Table.Fields[gc].Name)
			}
			if len(d.GroupCols) == 0 {
				continue
			}
		} else {
			names = append(names, s.Fact.Table.Fields[s.FactGroupCols[c-len(s.Dims)]].Name)
		}
	}
	order := "slot order"
	if ss.Reversed {
		order = "reverse slot order"
	}
	return fmt.Sprintf("%s: groups come in %s (digits %s, most significant first; sorted %s if a key holds NULL)", opName(ss.Node), order, strings.Join(names, ", "), sortPlace(s))
}
