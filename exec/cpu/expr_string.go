package cpu

import (
	"sort"

	"gpusql/storage/columnar"
)

// stringBuilder collects the strings an expression produces for one batch and
// encodes them as codes into a fresh sorted dictionary (strings in flight are
// always codes plus a dictionary).
type stringBuilder struct {
	strs []string
	null []bool
	ids  map[string]int32
}

func (sb *stringBuilder) reset(n int) {
	if cap(sb.strs) < n {
		sb.strs = make([]string, max(n, batchSize))
		sb.null = make([]bool, max(n, batchSize))
	}
	sb.strs = sb.strs[:cap(sb.strs)]
	sb.null = sb.null[:cap(sb.null)]
}

func (sb *stringBuilder) set(p int32, s string) { sb.strs[p], sb.null[p] = s, false }
func (sb *stringBuilder) setNull(p int32)       { sb.strs[p], sb.null[p] = "", true }

// finish writes codes and the dictionary of the strings at sel into out
// (whose NULL flags the caller has set).
func (sb *stringBuilder) finish(out *vec, sel []int32) {
	if sb.ids == nil {
		sb.ids = map[string]int32{}
	}
	clear(sb.ids)
	var vals []string
	for _, p := range sel {
		if sb.null[p] {
			continue
		}
		if _, ok := sb.ids[sb.strs[p]]; !ok {
			sb.ids[sb.strs[p]] = 0
			vals = append(vals, sb.strs[p])
		}
	}
	sort.Strings(vals)
	for i, s := range vals {
		sb.ids[s] = int32(i)
	}
	out.dict = &columnar.Dictionary{Values: vals}
	for _, p := range sel {
		if sb.null[p] {
			out.i32[p] = 0
		} else {
			out.i32[p] = sb.ids[sb.strs[p]]
		}
	}
}

// dictMap caches a per-dictionary-entry computation: a string function of
// one string argument runs once per distinct string, then rows map codes.
type dictMap[T any] struct {
	dict *columnar.Dictionary
	vals []T
}

func (m *dictMap[T]) get(d *columnar.Dictionary, fn func(s string) T) []T {
	if m.dict != d || m.vals == nil {
		m.dict = d
		m.vals = make([]T, d.CodeSpace())
		for i, s := range d.Values {
			m.vals[i] = fn(s)
		}
	}
	return m.vals
}
