package ssbgen

import (
	"math/bits"
	"slices"

	"gpusql/storage/columnar"
)

// domain is the known vocabulary of a generated string column: the
// generator draws an index into values, and code[i] is the code of
// values[i] in the column's sorted dictionary, which is known before a
// row is drawn. A column then costs a table lookup per row, never a hash
// of its string.
//
// The loader's dictionary holds only the strings that occur. At small
// scale factors some of a vocabulary may not occur, so workers record the
// codes they wrote (one bit per code: vocabularies here have at most 64
// words) and finish drops the absent ones, rewriting the codes.
type domain struct {
	sorted []string
	code   []int32
}

func newDomain(values []string) domain {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	if len(sorted) > 64 {
		panic("ssbgen: a domain has at most 64 values (a uint64 records which occur)")
	}
	d := domain{sorted: sorted, code: make([]int32, len(values))}
	for i, v := range values {
		r, _ := slices.BinarySearch(sorted, v)
		d.code[i] = int32(r)
	}
	return d
}

// finish gives col the dictionary of the codes set in used and, when some
// of the domain is absent, renumbers col's codes to that dictionary's.
func (d domain) finish(col *columnar.Column, used uint64, workers int) {
	if bits.OnesCount64(used) == len(d.sorted) {
		col.Dict = &columnar.Dictionary{Values: d.sorted}
		return
	}
	var present []string
	remap := make([]int32, len(d.sorted))
	for r, s := range d.sorted {
		if used&(1<<r) != 0 {
			remap[r] = int32(len(present))
			present = append(present, s)
		}
	}
	col.Dict = &columnar.Dictionary{Values: present}
	const span = 1 << 20
	parallelFor((col.Len+span-1)/span, workers, func(_, b int) {
		v := col.I32[b*span : min(col.Len, (b+1)*span)]
		for i, c := range v {
			v[i] = remap[c]
		}
	})
}

// The string vocabularies of lineorder.
var (
	priorityDomain     = newDomain(priorities[:])
	shipModeDomain     = newDomain(shipModes[:])
	shipPriorityDomain = newDomain([]string{"0"})
)
