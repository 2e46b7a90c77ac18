package cpu

import "gpusql/storage/columnar"

// minMaxVecAcc is MIN or MAX of vectors, in CompareVectors' order.
type minMaxVecAcc struct {
	max bool
	t   columnar.Type
	v   [][]float32
	has []bool
}

func (a *minMaxVecAcc) grow(n int) {
	a.v = growTo(a.v, n)
	a.has = growTo(a.has, n)
}

// put keeps x for group g when it beats the group's value; x is copied,
// as a batch's vectors may live in reused buffers.
func (a *minMaxVecAcc) put(g int, x []float32) {
	if a.has[g] {
		c := columnar.CompareVectors(x, a.v[g])
		if (a.max && c <= 0) || (!a.max && c >= 0) {
			return
		}
	}
	a.v[g] = append(a.v[g][:0:0], x...)
	a.has[g] = true
}

func (a *minMaxVecAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		a.put(g, v.vecs[p])
	}
}

func (a *minMaxVecAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*minMaxVecAcc)
	for g, h := range b.has[:n] {
		if h {
			a.put(mapGroup(m, g), b.v[g])
		}
	}
}

func (a *minMaxVecAcc) result(groups []int32, rc []int64) *columnar.Column {
	return vectorColumn(a.t, len(groups), func(k int) ([]float32, bool) {
		g := groups[k]
		return a.v[g], !a.has[g]
	})
}
