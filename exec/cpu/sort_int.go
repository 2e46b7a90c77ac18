package cpu

import (
	"slices"

	"gpusql/storage/columnar"
)

// One integer sort key (an ORDER BY on an integer, date or string-code
// column, a merge join on one key word) whose values span less than 2^32
// sorts as plain integers: each row becomes rank<<32 | row, and the words
// sort without a comparison function (pdqsort over uint64 is several times
// faster than over a permutation compared through two closures and the
// column's type). Ties keep row order, as sortPerm does.

// intKey reads row i's key: its value in the key's order and whether it
// is NULL.
type intKey func(i int32) (v int64, null bool)

// sortPermByInt sorts perm by key, ascending (NULLs first) or descending
// (NULLs last), when the ranks (the keys' span and a NULL rank) fit 32
// bits; it reports false
// and leaves perm as it was otherwise.
func (x *executor) sortPermByInt(perm []int32, key intKey, desc bool) (bool, error) {
	if err := x.ctx.Err(); err != nil {
		return false, err
	}
	lo, hi, any := int64(0), int64(0), false
	for _, r := range perm {
		if v, null := key(r); !null {
			if !any || v < lo {
				lo = v
			}
			if !any || v > hi {
				hi = v
			}
			any = true
		}
	}
	span := uint64(hi - lo)
	if any && (hi-lo < 0 || span > 1<<32-2) {
		return false, nil
	}
	words := make([]uint64, len(perm))
	for i, r := range perm {
		v, null := key(r)
		var rank uint64
		switch {
		case null && desc:
			rank = span + 1
		case null:
			rank = 0
		case desc:
			rank = uint64(hi - v)
		default:
			rank = uint64(v-lo) + 1
		}
		words[i] = rank<<32 | uint64(uint32(r))
	}
	slices.Sort(words)
	for i, w := range words {
		perm[i] = int32(uint32(w))
	}
	return true, x.ctx.Err()
}

// columnIntKey is column c's values as an intKey in their order (signed
// integers, dates, times, decimals, string codes of a sorted dictionary,
// BIGINT UNSIGNED mapped to keep its order); nil for other columns.
func columnIntKey(c *columnar.Column) intKey {
	switch {
	case c.I32 != nil:
		return func(i int32) (int64, bool) { return int64(c.I32[i]), c.IsNull(int(i)) }
	case c.I64 != nil:
		return func(i int32) (int64, bool) { return orderedInt64(c.Type, c.I64[i]), c.IsNull(int(i)) }
	}
	return nil
}
