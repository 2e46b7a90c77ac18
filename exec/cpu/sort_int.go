package cpu

import (
	"cmp"
	"math/bits"
	"slices"

	"gpusql/storage/columnar"
)

// Integer sort keys (an ORDER BY on integer, date or string-code columns,
// a window's partition and order, a merge join on one key word) whose
// ranks together fit 32 bits sort as plain integers: each row becomes
// rank<<32 | row, the keys' ranks side by side in rank, and the words
// sort without a comparison function (pdqsort over uint64 is several times
// faster than over a permutation compared through two closures and the
// column's type). Ties keep row order, as sortPerm does.

// intKey reads row i's key: its value in the key's order and whether it
// is NULL.
type intKey func(i int32) (v int64, null bool)

// sortPermByInt sorts perm by one key as sortPermByInts does.
func (x *executor) sortPermByInt(perm []int32, key intKey, desc bool) (bool, error) {
	return x.sortPermByInts(perm, []intKey{key}, []bool{desc})
}

// intRange is one key's values over the rows: its least and greatest, and
// the bits its ranks take (a rank per value in the span, and one for NULL).
type intRange struct {
	lo, hi int64
	span   uint64
	bits   int
}

// sortPermByInts sorts perm by keys, the first the most significant, each
// ascending (NULLs first) or descending (NULLs last), when the keys' ranks
// together fit 32 bits: a window's PARTITION BY and ORDER BY over codes,
// dates and small integers usually do (a customer key and a date take 27
// bits); up to 64 bits they sort as (ranks, row) pairs. It reports false
// and leaves perm as it was otherwise.
func (x *executor) sortPermByInts(perm []int32, keys []intKey, desc []bool) (bool, error) {
	ranks, _, err := x.sortPermRanked(perm, keys, desc)
	return ranks != nil, err
}

// sortPermRanked is sortPermByInts returning, when it sorted, each sorted
// row's ranks (the keys' side by side, the first highest) and the bits
// each key's rank takes: equal ranks are equal keys, so a window reads its
// partition and peer starts from them without comparing rows again.
func (x *executor) sortPermRanked(perm []int32, keys []intKey, desc []bool) ([]uint64, []int, error) {
	if err := x.ctx.Err(); err != nil {
		return nil, nil, err
	}
	ranges := make([]intRange, len(keys))
	widths := make([]int, len(keys))
	total := 0
	for k, key := range keys {
		rg, ok := keyRange(perm, key)
		if !ok {
			return nil, nil, nil
		}
		if total += rg.bits; total > 64 {
			return nil, nil, nil
		}
		ranges[k], widths[k] = rg, rg.bits
	}
	if total > 32 {
		return x.sortPermByWideRanks(perm, keys, desc, ranges, total), widths, x.ctx.Err()
	}
	words := make([]uint64, len(perm))
	for i, r := range perm {
		words[i] = rankOf(r, keys, desc, ranges)<<32 | uint64(uint32(r))
	}
	if len(words) >= radixSortRows && slices.IsSorted(perm) {
		// A stable sort of the rank bits alone keeps ties in perm's
		// order, which is row order only when perm is.
		radixSortWords(words, 32, total, x.workers)
	} else {
		slices.Sort(words)
	}
	for i, w := range words {
		perm[i] = int32(uint32(w))
		words[i] = w >> 32
	}
	return words, widths, x.ctx.Err()
}

// radixSortRows is the fewest rows sorted by radix (sort_radix.go) rather
// than pdqsort: below it one core's comparison sort is as fast. A variable
// for tests.
var radixSortRows = 1 << 17

// rankOf is row r's keys' ranks side by side.
func rankOf(r int32, keys []intKey, desc []bool, ranges []intRange) uint64 {
	var rank uint64
	for k, key := range keys {
		v, null := key(r)
		rank = rank<<ranges[k].bits | ranges[k].rank(v, null, desc[k])
	}
	return rank
}

// sortPermByWideRanks sorts perm by keys whose ranks take 33 to 64 bits
// together: each row's ranks in one word beside its row number, compared
// as (rank, row), still far cheaper than comparing the rows' columns. It
// returns the sorted rows' ranks.
func (x *executor) sortPermByWideRanks(perm []int32, keys []intKey, desc []bool, ranges []intRange, bits int) []uint64 {
	type ranked struct {
		rank uint64
		row  int32
	}
	rows := make([]ranked, len(perm))
	for i, r := range perm {
		rows[i] = ranked{rankOf(r, keys, desc, ranges), r}
	}
	if len(rows) >= radixSortRows && slices.IsSorted(perm) {
		radixSort(rows, func(w ranked) uint64 { return w.rank }, 0, bits, x.workers)
	} else {
		slices.SortFunc(rows, func(a, b ranked) int {
			if a.rank != b.rank {
				return cmp.Compare(a.rank, b.rank)
			}
			return cmp.Compare(a.row, b.row)
		})
	}
	ranks := make([]uint64, len(perm))
	for i, w := range rows {
		perm[i], ranks[i] = w.row, w.rank
	}
	return ranks
}

// keyRange is key's range over perm's rows; false when its span needs 32
// bits or more.
func keyRange(perm []int32, key intKey) (intRange, bool) {
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
		return intRange{}, false
	}
	return intRange{lo: lo, hi: hi, span: span, bits: bits.Len64(span + 1)}, true
}

// rank is a value's rank in the key's order: 1 + its offset ascending
// (NULL 0), its distance from the top descending (NULL past every value).
func (g intRange) rank(v int64, null, desc bool) uint64 {
	switch {
	case null && desc:
		return g.span + 1
	case null:
		return 0
	case desc:
		return uint64(g.hi - v)
	}
	return uint64(v-g.lo) + 1
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
