package qgen

import "strings"

// groupings are none, one or two GROUPING(...) items of a ROLLUP query
// over keys, each of one key or of every key in order (MySQL's bit mask,
// the first key the highest bit), and their select-list text.
func (g *Gen) groupings(keys []string) ([][]int, string) {
	if !g.pct(40) {
		return nil, ""
	}
	var out [][]int
	text := ""
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		var pos []int
		if len(keys) > 1 && g.pct(30) {
			pos = []int{0, 1}
		} else {
			pos = []int{g.r.Intn(len(keys))}
		}
		var names []string
		for _, p := range pos {
			names = append(names, keys[p])
		}
		out = append(out, pos)
		text += "GROUPING(" + strings.Join(names, ", ") + "), "
	}
	return out, text
}

// groupingValue is GROUPING(keys at pos) in the rows of the rollup level
// that keeps the first l keys: 1 for a key rolled up (NULL there), each
// key a bit, the first the highest.
func groupingValue(pos []int, l int) int {
	v := 0
	for _, p := range pos {
		v <<= 1
		if p >= l {
			v |= 1
		}
	}
	return v
}
