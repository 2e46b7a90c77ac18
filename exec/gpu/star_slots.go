//go:build cuda

package gpu

import (
	"slices"

	"gpusql/exec"
)

// The group slot is a mixed-radix number with one digit per component:
// dimension i is component i, fact group column j component len(dims)+j.
// By default dimension 0 is the least significant digit and the fact
// columns lie above the dimensions; a plan whose groups must come in its
// ORDER BY's order (planner/gpu_slot_order.go) orders the digits by the
// sort's keys instead. The kernel's strides (layOutSlots, their one
// source), the read-back's slot order and the decoder's digits follow it.

// slotOrder lists q's components from the least significant digit.
func (q *starQuery) slotOrder() []int {
	if q.sort == nil || q.sort.Slots == nil {
		order := make([]int, len(q.dims)+len(q.nFact))
		for c := range order {
			order[c] = c
		}
		return order
	}
	order := slices.Clone(q.sort.Slots)
	slices.Reverse(order)
	return order
}

// componentSizes are the digits' radixes by component: each dimension's
// surviving group values, each fact column's domain.
func componentSizes(dims []*dimRun, fkeys []factKey) []int64 {
	sizes := make([]int64, 0, len(dims)+len(fkeys))
	for _, dr := range dims {
		sizes = append(sizes, dr.k)
	}
	for _, fk := range fkeys {
		sizes = append(sizes, fk.size)
	}
	return sizes
}

// layOutSlots sets the kernel's strides of the dimensions' payload ranks
// and the fact group columns by q's slot order.
func layOutSlots(q *starQuery, sp *starParams, dims []*dimRun, fkeys []factKey) {
	strides := slotStrides(q.slotOrder(), componentSizes(dims, fkeys))
	probe := 0
	for i, dm := range q.dims {
		if dm.asFilter {
			continue
		}
		sp.Dims[probe].Stride = strides[i]
		probe++
	}
	for j := range fkeys {
		sp.GCols[j].Stride = strides[len(dims)+j]
	}
}

// slotStrides are the components' strides in the slot number, from the
// least significant digit in order.
func slotStrides(order []int, sizes []int64) []int64 {
	strides := make([]int64, len(sizes))
	acc := int64(1)
	for _, c := range order {
		strides[c] = acc
		acc *= sizes[c]
	}
	return strides
}

// slotsSorted reports whether the groups read in slot order come in the
// order of q's sort: the plan laid the slots out by it, and no key column
// the sort reads has a NULL slot (the last digit of its component, where
// an ascending sort wants NULL first).
func slotsSorted(q *starQuery, dims []*dimRun, fkeys []factKey) bool {
	if q.sort == nil || q.sort.Slots == nil {
		return false
	}
	for _, c := range q.sort.Cols {
		k := q.keys[c]
		if k.dim >= 0 && dims[k.dim].nullable[k.j] || k.dim < 0 && fkeys[k.j].nullable {
			return false
		}
	}
	return true
}

// slotDigits returns, per component, the digit of each slot (slots in
// increasing order, so each follows from the last by groupDigits'
// carries), for components whose digits run least significant first in
// order. A component of one value (a dimension
// without group columns) has digit 0 and no place in the walk, whose
// carries step through its least significant radix. Its buffers come
// from s.
func slotDigits(sizes []int64, order []int, slots []int64, s *hostScratch) [][]int32 {
	digits := s.digitRows(len(sizes), len(slots))
	var radixes []int64
	var walked []int
	for _, c := range order {
		if sizes[c] > 1 {
			radixes, walked = append(radixes, sizes[c]), append(walked, c)
		} else {
			clear(digits[c])
		}
	}
	walk := newGroupDigits(radixes)
	for r, slot := range slots {
		walk.moveTo(slot)
		for p, d := range walk.digits {
			digits[walked[p]][r] = int32(d)
		}
	}
	return digits
}

// reverseRows reverses the order of res's rows in place (groups read in
// slot order, for a sort whose keys all descend).
func reverseRows(res *exec.Result) {
	n := res.Rows
	for _, c := range res.Columns {
		switch {
		case c.I32 != nil:
			slices.Reverse(c.I32[:n])
		case c.I64 != nil:
			slices.Reverse(c.I64[:n])
		case c.F64 != nil:
			slices.Reverse(c.F64[:n])
		}
		if c.Valid == nil {
			continue
		}
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			vi, vj := !c.IsNull(i), !c.IsNull(j)
			if vi != vj {
				if vi {
					c.SetNull(i)
					c.SetValid(j)
				} else {
					c.SetValid(i)
					c.SetNull(j)
				}
			}
		}
	}
}
