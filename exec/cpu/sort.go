package cpu

import (
	"slices"

	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Sort materializes its input, evaluates the keys into whole columns (one
// dictionary per string key, so codes compare in string order), and sorts a
// permutation stably: NULLs first ascending, last descending (MySQL).
// Past the memory limit it sorts runs and merges them (sort_spill.go).

// sortRows sorts perm by keys: as integers when every key is an integer
// one and their ranks fit (sort_int.go), else by comparing rows.
func (x *executor) sortRows(perm []int32, keys *sortKeyCols) error {
	_, _, err := x.sortRowsRanked(perm, keys)
	return err
}

// sortRowsRanked is sortRows returning, when the keys sorted as integer
// ranks, each sorted row's ranks and each key's bits in them (nil when the
// rows were compared).
func (x *executor) sortRowsRanked(perm []int32, keys *sortKeyCols) ([]uint64, []int, error) {
	ints := make([]intKey, len(keys.cols))
	for i, c := range keys.cols {
		if ints[i] = columnIntKey(c); ints[i] == nil {
			return nil, nil, x.sortPerm(perm, keys.compare)
		}
	}
	ranks, widths, err := x.sortPermRanked(perm, ints, keys.desc)
	if ranks != nil || err != nil {
		return ranks, widths, err
	}
	return nil, nil, x.sortPerm(perm, keys.compare)
}

// sortPerm sorts perm stably by cmp, checking for cancellation as it goes:
// a sort of millions of rows takes seconds, and Ctrl-C must not wait for
// it. The comparator checks the context every few thousand calls and
// raises the error, which the executor's recover returns as the query's.
// Ties are broken by row number, which makes pdqsort's O(n log n) order
// the stable one (slices.SortStableFunc merges in place in O(n log² n):
// 0.8 s for a million rows where this takes a tenth).
func (x *executor) sortPerm(perm []int32, cmp func(a, b int32) int) error {
	calls := 0
	slices.SortFunc(perm, func(a, b int32) int {
		if calls++; calls&(1<<14-1) == 0 {
			if err := x.ctx.Err(); err != nil {
				raise(err)
			}
		}
		if r := cmp(a, b); r != 0 {
			return r
		}
		return int(a) - int(b)
	})
	return x.ctx.Err()
}

// evalColumn evaluates e over every row of r.
func (x *executor) evalColumn(r *rel, e sql.Expr) (*columnar.Column, error) {
	if c, ok := e.(*sql.ColRef); ok && c.Index < len(r.cols) && r.cols[c.Index] != nil {
		return r.cols[c.Index], nil
	}
	ev, err := (&compiler{x: x}).compile(e)
	if err != nil {
		return nil, err
	}
	vs := make([]*vec, len(r.cols))
	for i := range vs {
		vs[i] = &vec{}
	}
	b := &batch{}
	var chunks []*chunk
	types := []columnar.Type{e.Type()}
	for off := 0; off < r.rows; off += batchSize {
		if err := x.checkEvery(off/batchSize, 64); err != nil {
			return nil, err
		}
		r.readBatch(b, vs, off, min(batchSize, r.rows-off))
		v := ev.eval(b, b.sel)
		ob := &batch{n: b.n, sel: b.sel, cols: []*vec{v}}
		ch := compact(ob, types)
		ch.seq = len(chunks)
		chunks = append(chunks, ch)
	}
	return concatChunks(chunks, types).cols[0], nil
}

// sortKeyCols are evaluated sort keys.
type sortKeyCols struct {
	cols []*columnar.Column
	desc []bool
}

func (x *executor) sortKeys(r *rel, keys []sql.SortKey) (*sortKeyCols, error) {
	k := &sortKeyCols{}
	for _, sk := range keys {
		c, err := x.evalColumn(r, sk.Expr)
		if err != nil {
			return nil, err
		}
		k.cols = append(k.cols, c)
		k.desc = append(k.desc, sk.Desc)
	}
	return k, nil
}

// compare orders rows a and b.
func (k *sortKeyCols) compare(a, b int32) int {
	for i, c := range k.cols {
		an, bn := c.IsNull(int(a)), c.IsNull(int(b))
		var r int
		switch {
		case an && bn:
			continue
		case an:
			r = -1
		case bn:
			r = 1
		case c.I32 != nil:
			r = cmp3(c.I32[a], c.I32[b])
		case c.I64 != nil:
			r = cmp3(orderedInt64(c.Type, c.I64[a]), orderedInt64(c.Type, c.I64[b]))
		case c.F32 != nil:
			r = columnar.CompareVectors(c.VectorAt(int(a)), c.VectorAt(int(b)))
		case c.W != nil:
			r = decimal.Cmp(c.W[a], c.W[b])
		default:
			r = cmp3(c.F64[a], c.F64[b])
		}
		if r != 0 {
			if k.desc[i] {
				return -r
			}
			return r
		}
	}
	return 0
}

func cmp3[T int32 | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
