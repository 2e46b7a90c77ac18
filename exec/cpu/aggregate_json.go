package cpu

import (
	"gpusql/internal/mysqljson"
	"gpusql/storage/columnar"
)

// minMaxJSONAcc is MIN or MAX of JSON values in MySQL's JSON order: each
// value's mysqljson.SortKey is compared, the value's text kept.
type minMaxJSONAcc struct {
	max  bool
	t    columnar.Type
	key  []string
	text []string
	has  []bool
	held int64
}

func (a *minMaxJSONAcc) heldBytes() int64 { return a.held }

func (a *minMaxJSONAcc) grow(n int) {
	a.key, a.text, a.has = growTo(a.key, n), growTo(a.text, n), growTo(a.has, n)
}

func (a *minMaxJSONAcc) put(g int, key, text string) {
	if a.has[g] && ((a.max && key <= a.key[g]) || (!a.max && key >= a.key[g])) {
		return
	}
	a.held += int64(len(key)+len(text)) - int64(len(a.key[g])+len(a.text[g]))
	a.key[g], a.text[g], a.has[g] = key, text, true
}

func (a *minMaxJSONAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		text := v.stringAt(p)
		doc, err := mysqljson.Parse(text)
		if err != nil {
			raise(err) // a JSON value's text is always JSON
		}
		a.put(g, mysqljson.SortKey(doc), text)
	}
}

func (a *minMaxJSONAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*minMaxJSONAcc)
	for g, h := range b.has[:n] {
		if h {
			a.put(mapGroup(m, g), b.key[g], b.text[g])
		}
	}
}

func (a *minMaxJSONAcc) result(groups []int32, rc []int64) *columnar.Column {
	vals := make([]string, len(groups))
	has := make([]bool, len(groups))
	for i, g := range groups {
		vals[i], has[i] = a.text[g], a.has[g]
	}
	col := stringColumn(vals, has)
	col.Type = a.t
	return col
}
