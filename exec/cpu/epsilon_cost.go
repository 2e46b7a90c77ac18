package cpu

import (
	"math"
)

// chooseEpsilonK is the paper's sampled cost model for the number of
// indexed dimensions. More dimensions make cells emptier (fewer distance
// comparisons) but multiply the neighbour cells each query looks up (3^k
// binary searches over |G| cells). For k = 1..maxK it estimates
//
//	lookups     = |D| · 3^k · log2 |G_k|
//	comparisons = Σ over a sample of queries of the points in their 3^k
//	              neighbour cells, scaled to |D|
//
// from a sample of the points (cell occupancies counted on at most 2^17
// points, neighbours summed for at most 2,000 queries) and picks the k
// of least lookups·costLookup + comparisons·dims.
func chooseEpsilonK(g *EpsilonGrid, data []float32, maxK int) int {
	n := g.Dims
	rows := len(data) / n
	if rows == 0 || maxK <= 1 {
		return 1
	}
	const costLookup = 4 // a binary-search step: a dependent, random read
	occStep := max(1, rows/(1<<17))
	qStep := max(1, rows/2000)
	scale := float64(occStep)
	best, bestCost := 1, math.Inf(1)
	for k := 1; k <= maxK; k++ {
		occ := map[uint64]int32{}
		for r := 0; r < rows; r += occStep {
			occ[g.cellID(data[r*n:], k)]++
		}
		var cand float64
		queries := 0
		coords := make([]int32, k)
		for r := 0; r < rows; r += qStep {
			g.coords(data[r*n:], coords)
			g.eachNeighbourID(coords, func(id uint64) { cand += float64(occ[id]) })
			queries++
		}
		comparisons := cand * scale * float64(rows) / float64(queries)
		cells := float64(len(occ))
		lookups := float64(rows) * math.Pow(3, float64(k)) * math.Log2(cells+1)
		cost := lookups*costLookup + comparisons*float64(n)
		if cost < bestCost {
			best, bestCost = k, cost
		}
	}
	return best
}

// eachNeighbourID calls f with the linearized id of each of the 3^k cells
// around coords (k = len(coords)) that lie inside the grid.
func (g *EpsilonGrid) eachNeighbourID(coords []int32, f func(id uint64)) {
	k := len(coords)
	var off [EpsilonMaxK]int32
	for d := range k {
		off[d] = -1
	}
	for {
		id, inside := uint64(0), true
		for d := range k {
			c := coords[d] + off[d]
			if c < 0 || c >= g.Cells[d] {
				inside = false
				break
			}
			id = id*uint64(g.Cells[d]) + uint64(c)
		}
		if inside {
			f(id)
		}
		d := k - 1
		for d >= 0 && off[d] == 1 {
			off[d] = -1
			d--
		}
		if d < 0 {
			return
		}
		off[d]++
	}
}
