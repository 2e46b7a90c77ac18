package planner

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"gpusql/sql"
)

// Join ordering. The estimated size of a set S of relations is
// Π rows(r ∈ S) × Π sel(p) over the predicates p inside S, so it does not
// depend on the order S was joined in. The cost of a join tree is the sum of
// its intermediate result sizes plus its build costs (buildCost), so the best
// tree joins the most selective dimension first, builds on the small
// (filtered) side, and the fact table streams through a chain of probes.
//
// Up to dpMaxRelations relations the optimum is found by dynamic programming
// over connected subsets (every split of a connected set into two connected
// sets joined by a predicate: DPccp's search space, enumerated as in
// DPsub); beyond that a greedy pass joins, at each step, the pair of
// connected subtrees with the smallest result. Neither ever forms a cross
// product between relations that a predicate connects; disconnected parts
// are planned separately and crossed last, smallest first.
const dpMaxRelations = 12

type joinTree struct {
	mask uint64
	l, r *joinTree
	cost float64
}

type joinOrder struct {
	b    *builder
	rg   *region
	n    int
	adj  []uint64
	memo map[uint64]float64
}

func errTooManyRelations(n int) error {
	return fmt.Errorf("planner: %d tables in one join; at most 64 are supported", n)
}

func newJoinOrder(b *builder, rg *region) *joinOrder {
	jo := &joinOrder{b: b, rg: rg, n: len(rg.rels), memo: map[uint64]float64{}}
	jo.adj = make([]uint64, jo.n)
	for _, p := range rg.preds {
		for m := p.mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			jo.adj[i] |= p.mask &^ (1 << uint(i))
		}
	}
	return jo
}

// rows estimates the size of the join of the relations in s.
func (jo *joinOrder) rows(s uint64) float64 {
	if v, ok := jo.memo[s]; ok {
		return v
	}
	r := 1.0
	for m := s; m != 0; m &= m - 1 {
		r *= jo.b.stats[jo.rg.rels[bits.TrailingZeros64(m)].node].Rows
	}
	for _, p := range jo.rg.preds {
		if p.mask&s == p.mask {
			r *= p.sel
		}
	}
	r = math.Max(r, 1)
	jo.memo[s] = r
	return r
}

func (jo *joinOrder) neighbors(s uint64) uint64 {
	var n uint64
	for m := s; m != 0; m &= m - 1 {
		n |= jo.adj[bits.TrailingZeros64(m)]
	}
	return n &^ s
}

// hasEqui reports whether an equality joins s1 and s2 (so the join can hash).
func (jo *joinOrder) hasEqui(s1, s2 uint64) bool {
	for _, p := range jo.rg.preds {
		if p.l != nil && ((p.lmask&s1 == p.lmask && p.rmask&s2 == p.rmask) ||
			(p.lmask&s2 == p.lmask && p.rmask&s1 == p.rmask)) {
			return true
		}
	}
	return false
}

// buildCost is the cost of building a hash table on s: a base relation's
// rows are hashed and stored (2 per row); a join result must first be
// materialized out of its pipeline (4 per row). So a filtered dimension
// builds, and the fact table keeps streaming through its chain of probes
// even once its intermediate result is estimated small.
func (jo *joinOrder) buildCost(s uint64) float64 {
	if bits.OnesCount64(s) == 1 {
		return 2 * jo.rows(s)
	}
	return 4 * jo.rows(s)
}

// joinCost is the cost of joining s1 and s2 beyond the cost of producing
// them: the result's size plus the cheaper build.
func (jo *joinOrder) joinCost(s1, s2 uint64) float64 {
	c := jo.rows(s1|s2) + math.Min(jo.buildCost(s1), jo.buildCost(s2))
	if !jo.hasEqui(s1, s2) {
		c += jo.rows(s1) * jo.rows(s2)
	}
	return c
}

func (jo *joinOrder) plan() (Node, []int) {
	var t *joinTree
	if jo.n <= dpMaxRelations {
		t = jo.dp()
	} else {
		t = jo.greedy()
	}
	return jo.materialize(t)
}

// dp finds the cheapest tree of every connected subset; a disconnected
// region's components are then crossed.
func (jo *joinOrder) dp() *joinTree {
	full := uint64(1)<<uint(jo.n) - 1
	best := make([]*joinTree, full+1)
	for i := 0; i < jo.n; i++ {
		best[1<<uint(i)] = &joinTree{mask: 1 << uint(i)}
	}
	for s := uint64(1); s <= full; s++ {
		if bits.OnesCount64(s) < 2 {
			continue
		}
		for s1 := (s - 1) & s; s1 > 0; s1 = (s1 - 1) & s {
			s2 := s ^ s1
			if s1 > s2 {
				continue
			}
			t1, t2 := best[s1], best[s2]
			if t1 == nil || t2 == nil || jo.neighbors(s1)&s2 == 0 {
				continue
			}
			c := t1.cost + t2.cost + jo.joinCost(s1, s2)
			if best[s] == nil || c < best[s].cost {
				best[s] = &joinTree{mask: s, l: t1, r: t2, cost: c}
			}
		}
	}
	if best[full] != nil {
		return best[full]
	}
	var comps []*joinTree
	for seen := uint64(0); seen != full; {
		start := uint64(1) << uint(bits.TrailingZeros64(full&^seen))
		comp := start
		for {
			next := comp | jo.neighbors(comp)
			if next == comp {
				break
			}
			comp = next
		}
		seen |= comp
		comps = append(comps, best[comp])
	}
	return jo.crossAll(comps)
}

// greedy repeatedly joins the connected pair of subtrees with the smallest
// result (ties: cheapest), crossing disconnected parts last.
func (jo *joinOrder) greedy() *joinTree {
	var ts []*joinTree
	for i := 0; i < jo.n; i++ {
		ts = append(ts, &joinTree{mask: 1 << uint(i)})
	}
	for len(ts) > 1 {
		bi, bj := -1, -1
		var bestRows, bestCost float64
		for i := range ts {
			nb := jo.neighbors(ts[i].mask)
			for j := i + 1; j < len(ts); j++ {
				if nb&ts[j].mask == 0 {
					continue
				}
				r := jo.rows(ts[i].mask | ts[j].mask)
				c := ts[i].cost + ts[j].cost + jo.joinCost(ts[i].mask, ts[j].mask)
				if bi < 0 || r < bestRows || (r == bestRows && c < bestCost) {
					bi, bj, bestRows, bestCost = i, j, r, c
				}
			}
		}
		if bi < 0 {
			return jo.crossAll(ts)
		}
		t := &joinTree{mask: ts[bi].mask | ts[bj].mask, l: ts[bi], r: ts[bj], cost: bestCost}
		ts[bi] = t
		ts = append(ts[:bj], ts[bj+1:]...)
	}
	return ts[0]
}

// crossAll joins unconnected subtrees, smallest first.
func (jo *joinOrder) crossAll(ts []*joinTree) *joinTree {
	sort.SliceStable(ts, func(i, j int) bool { return jo.rows(ts[i].mask) < jo.rows(ts[j].mask) })
	t := ts[0]
	for _, u := range ts[1:] {
		t = &joinTree{mask: t.mask | u.mask, l: t, r: u, cost: t.cost + u.cost + jo.joinCost(t.mask, u.mask)}
	}
	return t
}

// materialize builds the physical joins of t. It returns the node and, for
// each of its output columns, the region column it holds.
func (jo *joinOrder) materialize(t *joinTree) (Node, []int) {
	rg := jo.rg
	if t.l == nil {
		r := rg.rels[bits.TrailingZeros64(t.mask)]
		return r.node, identityFrom(r.offset, r.width)
	}
	lt, rt := t.l, t.r
	// The cheaper build (see buildCost) builds; the other input streams
	// through the probe.
	if jo.buildCost(lt.mask) < jo.buildCost(rt.mask) {
		lt, rt = rt, lt
	}
	ln, lcols := jo.materialize(lt)
	rn, rcols := jo.materialize(rt)
	pos := map[int]int{}
	for i, c := range lcols {
		pos[c] = i
	}
	for i, c := range rcols {
		pos[c] = len(lcols) + i
	}
	nl := len(lcols)
	var lk, rk, res []sql.Expr
	for _, p := range rg.preds {
		if p.mask&t.mask != p.mask || p.mask&lt.mask == p.mask || p.mask&rt.mask == p.mask {
			continue
		}
		local := func(e sql.Expr) sql.Expr { return remapCols(e, func(g int) int { return pos[g] }) }
		switch {
		case p.l != nil && p.lmask&lt.mask == p.lmask && p.rmask&rt.mask == p.rmask:
			lk = append(lk, local(p.l))
			rk = append(rk, shiftCols(local(p.r), -nl))
		case p.l != nil && p.rmask&lt.mask == p.rmask && p.lmask&rt.mask == p.lmask:
			lk = append(lk, local(p.r))
			rk = append(rk, shiftCols(local(p.l), -nl))
		default:
			res = append(res, local(p.e))
		}
	}
	node := jo.b.makeJoin(sql.JoinInner, ln, rn, lk, rk, andAll(res), false, jo.rows(t.mask))
	return node, append(append([]int{}, lcols...), rcols...)
}

func identityFrom(off, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = off + i
	}
	return out
}
