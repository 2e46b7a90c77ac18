//go:build cuda

package gpu

import (
	"slices"
	"weak"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A warm query names each dimension's cached build by a key made of the
// dimension table's columns and the filters' SQL text (makeDimBuildKey):
// string building and expression printing for every dimension of every
// query. A plan's dimension (its HashJoin) keeps its filters for life, so
// the key is remembered per join and reused while the table's columns
// are the same vectors of the same lengths, which is what the key says
// of them: checking that compares pointers and lengths, no text.

// dimKeyMemo is one remembered key with what it was made from.
type dimKeyMemo struct {
	key   string
	cols  []*columnar.Column
	hosts []uintptr
	lens  []int
}

// maxDimKeys bounds the remembered keys (plans come and go; a plan no
// longer held leaves an entry nothing matches until the map is cleared).
const maxDimKeys = 1024

// dimBuildKey is makeDimBuildKey, remembered per plan dimension.
func (r *queryRun) dimBuildKey(q *starQuery, i int) (string, []*columnar.Column) {
	if dimCacheOff || len(r.subq) > 0 {
		return "", nil
	}
	dm := q.dims[i]
	t := dm.scan.Table
	c := r.d.dims
	id := weak.Make(dm.join)
	if m, ok := c.keys[id]; ok && m.matches(t.Columns) {
		return m.key, m.cols
	}
	key, cols := r.makeDimBuildKey(q, i)
	if key == "" {
		return key, cols
	}
	if c.keys == nil || len(c.keys) >= maxDimKeys {
		c.keys = map[weak.Pointer[planner.HashJoin]]dimKeyMemo{}
	}
	m := dimKeyMemo{key: key, cols: cols}
	for _, col := range cols {
		m.hosts, m.lens = append(m.hosts, hostPtr(col)), append(m.lens, col.Len)
	}
	c.keys[id] = m
	return key, cols
}

// matches reports whether cols are the columns, vectors and lengths the
// key was made from.
func (m dimKeyMemo) matches(cols []*columnar.Column) bool {
	if !slices.Equal(m.cols, cols) {
		return false
	}
	for j, col := range cols {
		if hostPtr(col) != m.hosts[j] || col.Len != m.lens[j] {
			return false
		}
	}
	return true
}
