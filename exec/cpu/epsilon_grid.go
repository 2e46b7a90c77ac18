package cpu

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// The grid index of the ε-similarity join (Gowanlock & Karsin, "GPU
// Accelerated Similarity Self-Join for Multi-Dimensional Data", 2019).
// Points are n contiguous float32 per row. The grid covers k of the n
// dimensions with cells of side ≥ ε, so a point's neighbours within ε lie
// in the 3^k cells around its own. Only non-empty cells are stored: their
// linearized ids sorted, with the range of points (sorted by cell) each
// holds, found by binary search. Both executors use the same grid: the CPU
// walks it here, the GPU gets it uploaded (exec/gpu/epsilon_join.go).

// EpsilonMetric is the distance an ε-join compares.
type EpsilonMetric int

const (
	EpsilonL2 EpsilonMetric = iota // Euclidean: Σ(a-b)² against ε²
	EpsilonL1                      // Manhattan: Σ|a-b| against ε
)

func (m EpsilonMetric) String() string {
	if m == EpsilonL1 {
		return "L1"
	}
	return "L2"
}

// EpsilonMaxK bounds the indexed dimensions: 3^6 = 729 neighbour cells.
const EpsilonMaxK = 6

// EpsilonOptions selects the join's predicate and which of the paper's
// optimizations run; each can be switched off to measure what it buys.
type EpsilonOptions struct {
	Metric EpsilonMetric
	Eps    float32
	Strict bool // distance < ε instead of ≤ ε

	Reorder  bool // index the dimensions of highest variance (1 % sample)
	SortIDU  bool // sort each cell by the first unindexed dimension
	ShortC   bool // stop a distance once its partial sum passes the bound
	Batching bool // GPU: result batches on several streams (else one)
	K        int  // indexed dimensions; 0 = the sampled cost model
	Workers  int  // CPU goroutines; 0 = all cores

	// Limit, when LimitSet, replaces Eps and Strict: a pair is in when its
	// float32 sum (of squares for L2, of absolute differences for L1) is
	// ≤ Limit. SQL's comparison of the DOUBLE distance with ε is one such
	// bound (SQLEpsilonLimit), so the join returns what the nested loop would.
	Limit    float32
	LimitSet bool
}

// SQLEpsilonLimit is the largest float32 sum s whose SQL distance
// (sqrt(s) widened to DOUBLE for VEC_L2_DISTANCE, s for VEC_L1_DISTANCE)
// compares ≤ eps (< eps when strict); ok is false when no sum does (a
// negative ε), and the join is empty.
func SQLEpsilonLimit(metric EpsilonMetric, eps float64, strict bool) (limit float32, ok bool) {
	in := func(s float32) bool {
		d := float64(s)
		if metric == EpsilonL2 {
			d = math.Sqrt(d)
		}
		if strict {
			return d < eps
		}
		return d <= eps
	}
	if !in(0) {
		return 0, false
	}
	if inf := float32(math.Inf(1)); in(inf) {
		return inf, true
	}
	s := float32(math.Min(eps, math.MaxFloat32))
	if metric == EpsilonL2 {
		s = float32(math.Min(eps*eps, math.MaxFloat32))
	}
	for s > 0 && !in(s) {
		s = math.Nextafter32(s, 0)
	}
	for s < math.MaxFloat32 && in(math.Nextafter32(s, math.MaxFloat32)) {
		s = math.Nextafter32(s, math.MaxFloat32)
	}
	return s, true
}

// reach is the per-dimension reach of a neighbour under opt.
func (opt EpsilonOptions) reach() float64 {
	if !opt.LimitSet {
		return epsilonReach(opt.Eps)
	}
	l := math.Max(float64(opt.Limit), 0)
	if opt.Metric == EpsilonL2 {
		l = math.Sqrt(l)
	}
	return math.Max(l*(1+1.0/1024), 1e-18)
}

// DefaultEpsilonOptions turns every optimization on.
func DefaultEpsilonOptions(metric EpsilonMetric, eps float32) EpsilonOptions {
	return EpsilonOptions{Metric: metric, Eps: eps, Reorder: true, SortIDU: true, ShortC: true, Batching: true}
}

// EpsilonPoints is a flat point set: N rows of Dims float32 each.
type EpsilonPoints struct {
	Data []float32
	Dims int
}

// N is the number of points.
func (p EpsilonPoints) N() int {
	if p.Dims == 0 {
		return 0
	}
	return len(p.Data) / p.Dims
}

// EpsilonGrid is the index over the inner point set.
type EpsilonGrid struct {
	Dims int
	K    int
	// Perm[j] is the original dimension stored at position j of every
	// point in Data (highest variance first under REORDER). Inv inverts it.
	Perm, Inv []int32
	Data      []float32 // points in cell order, dimensions permuted
	Rows      []int32   // original row of each point of Data
	CellIDs   []uint64  // linearized ids of the non-empty cells, ascending
	CellStart []int32   // points of cell c: Data rows CellStart[c]..CellStart[c+1]
	Min       []float64 // per indexed dimension: grid origin,
	Width     []float64 // cell side (≥ ε, see slack),
	Cells     []int32   // and number of cells
	Stride    []uint64  // linearization: id = Σ coord[d]·Stride[d]
	SortDim   int       // stored dimension cells are sorted by; -1 = none
	Reach     float64   // per-dimension reach of a neighbour (ε plus slack)
	Test      EpsilonTest
}

// EpsilonQueries are the outer points, dimensions permuted like the grid's,
// in cell order, with their grid coordinates (K per point; a coordinate
// outside -1..Cells means no neighbour cell exists).
type EpsilonQueries struct {
	Data   []float32
	Rows   []int32
	Coords []int32
}

// N is the number of query points.
func (q *EpsilonQueries) N() int { return len(q.Rows) }

// epsilonMaxCellsPerDim bounds the cells on one dimension, so coordinates
// fit in int32 and a tiny ε over a wide range does not overflow the ids;
// wider cells are still correct, only coarser.
const epsilonMaxCellsPerDim = 1 << 30

// epsilonReach is how far, per dimension, a neighbour can be. The exact
// predicate is computed in float32; its rounding can accept a pair whose
// real per-dimension difference exceeds ε by a few ulps, and a square
// below 2^-126 underflows, so the grid and the SORTIDU window use ε with
// 2^-10 of slack and at least 1e-18. Larger reach only adds candidates.
func epsilonReach(eps float32) float64 {
	return math.Max(float64(eps)*(1+1.0/1024), 1e-18)
}

// BuildEpsilonGrid indexes inner for an ε-join under opt.
func BuildEpsilonGrid(inner EpsilonPoints, opt EpsilonOptions) (*EpsilonGrid, error) {
	if err := checkEpsilonInput(inner, opt); err != nil {
		return nil, err
	}
	n := inner.Dims
	g := &EpsilonGrid{Dims: n, Reach: opt.reach(), SortDim: -1}
	g.Perm = identityPerm(n)
	if opt.Reorder {
		g.Perm = varianceOrder(inner)
	}
	g.Inv = make([]int32, n)
	for j, d := range g.Perm {
		g.Inv[d] = int32(j)
	}
	g.Test = newEpsilonTest(opt, g.Perm)
	g.Data = permuteDims(inner, g.Perm)
	g.setAxes(g.Data, opt)
	if opt.SortIDU && g.K < n {
		g.SortDim = g.K
	}
	g.sortIntoCells(opt.Workers)
	return g, nil
}

func checkEpsilonInput(p EpsilonPoints, opt EpsilonOptions) error {
	if p.Dims <= 0 {
		return errors.New("epsilon join: points need at least one dimension")
	}
	if len(p.Data)%p.Dims != 0 {
		return fmt.Errorf("epsilon join: %d values are not whole points of %d dimensions", len(p.Data), p.Dims)
	}
	if p.N() > math.MaxInt32 {
		return fmt.Errorf("epsilon join: %d points exceed the 2^31 the index addresses", p.N())
	}
	if e := float64(opt.Eps); !opt.LimitSet && (math.IsNaN(e) || math.IsInf(e, 0) || e < 0) {
		return fmt.Errorf("epsilon join: ε must be a finite number ≥ 0, not %v", opt.Eps)
	}
	for i, v := range p.Data {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("epsilon join: point %d dimension %d is %v", i/p.Dims, i%p.Dims, v)
		}
	}
	return nil
}

func identityPerm(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// varianceOrder ranks dimensions by variance over a 1 % sample (at least
// 1,000 points), highest first: REORDER. High-variance dimensions spread
// points over more cells, and reach a short-circuit bound sooner.
func varianceOrder(p EpsilonPoints) []int32 {
	n, rows := p.Dims, p.N()
	step := max(1, min(100, rows/1000))
	sum, sq := make([]float64, n), make([]float64, n)
	cnt := 0
	for r := 0; r < rows; r += step {
		for d, v := range p.Data[r*n : r*n+n] {
			sum[d] += float64(v)
			sq[d] += float64(v) * float64(v)
		}
		cnt++
	}
	perm := identityPerm(n)
	if cnt == 0 {
		return perm
	}
	variance := func(d int32) float64 { m := sum[d] / float64(cnt); return sq[d]/float64(cnt) - m*m }
	sort.SliceStable(perm, func(a, b int) bool { return variance(perm[a]) > variance(perm[b]) })
	return perm
}

// permuteDims copies p with dimension Perm[j] stored at position j.
func permuteDims(p EpsilonPoints, perm []int32) []float32 {
	n := p.Dims
	out := make([]float32, len(p.Data))
	for r := 0; r < p.N(); r++ {
		src, dst := p.Data[r*n:r*n+n], out[r*n:r*n+n]
		for j, d := range perm {
			dst[j] = src[d]
		}
	}
	return out
}

// setAxes fixes origin, width and cell count of every stored dimension the
// grid could index, then K (given, or from the cost model), then strides.
func (g *EpsilonGrid) setAxes(data []float32, opt EpsilonOptions) {
	n := g.Dims
	lo, hi := make([]float64, n), make([]float64, n)
	for d := range n {
		lo[d], hi[d] = math.Inf(1), math.Inf(-1)
	}
	for i, v := range data {
		d := i % n
		lo[d], hi[d] = math.Min(lo[d], float64(v)), math.Max(hi[d], float64(v))
	}
	maxK := min(n, EpsilonMaxK)
	g.Min, g.Width, g.Cells = make([]float64, maxK), make([]float64, maxK), make([]int32, maxK)
	for d := range maxK {
		if math.IsInf(lo[d], 0) { // no points
			lo[d], hi[d] = 0, 0
		}
		span := hi[d] - lo[d]
		w := math.Max(g.Reach, span/(epsilonMaxCellsPerDim-1))
		g.Min[d], g.Width[d] = lo[d], w
		g.Cells[d] = int32(math.Floor(span/w)) + 1
	}
	// The ids must fit in 62 bits; past that k stops growing.
	prod := uint64(1)
	fits := 0
	for d := range maxK {
		if prod > (1<<62)/uint64(g.Cells[d]) {
			break
		}
		prod *= uint64(g.Cells[d])
		fits++
	}
	g.K = max(1, fits)
	if opt.K > 0 {
		g.K = min(opt.K, g.K)
	} else {
		g.K = chooseEpsilonK(g, data, g.K)
	}
	g.Stride = make([]uint64, g.K)
	s := uint64(1)
	for d := g.K - 1; d >= 0; d-- {
		g.Stride[d] = s
		s *= uint64(g.Cells[d])
	}
}

// coord is the cell coordinate of value v on stored dimension d, clamped
// to -2..Cells+1 (anything further has no neighbour cell either).
func (g *EpsilonGrid) coord(d int, v float32) int32 {
	c := math.Floor((float64(v) - g.Min[d]) / g.Width[d])
	return int32(math.Max(-2, math.Min(c, float64(g.Cells[d])+1)))
}

// cellID linearizes the coordinates of a point of the inner set.
func (g *EpsilonGrid) cellID(point []float32, k int) uint64 {
	var id uint64
	for d := range k {
		id = id*uint64(g.Cells[d]) + uint64(g.coord(d, point[d]))
	}
	return id
}

// sortIntoCells orders the points by cell id (then by the SORTIDU
// dimension) and records each non-empty cell's range.
func (g *EpsilonGrid) sortIntoCells(workers int) {
	n, rows := g.Dims, len(g.Data)/max(g.Dims, 1)
	keys := make([]cellKey, rows)
	parallelRanges(rows, workers, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			p := g.Data[r*n : r*n+n]
			k := cellKey{id: g.cellID(p, g.K), row: int32(r)}
			if g.SortDim >= 0 {
				k.u = p[g.SortDim]
			}
			keys[r] = k
		}
	})
	keys = sortCellKeys(keys, workers)
	sorted := make([]float32, len(g.Data))
	g.Rows = make([]int32, rows)
	parallelRanges(rows, workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r := int(keys[i].row)
			copy(sorted[i*n:i*n+n], g.Data[r*n:r*n+n])
			g.Rows[i] = keys[i].row
		}
	})
	g.Data = sorted
	for i, k := range keys {
		if i == 0 || k.id != keys[i-1].id {
			g.CellIDs = append(g.CellIDs, k.id)
			g.CellStart = append(g.CellStart, int32(i))
		}
	}
	g.CellStart = append(g.CellStart, int32(rows))
}

// SelfQueries makes the grid's own points the query set (a self-join).
func (g *EpsilonGrid) SelfQueries() *EpsilonQueries {
	rows := len(g.Rows)
	q := &EpsilonQueries{Data: g.Data, Rows: g.Rows, Coords: make([]int32, rows*g.K)}
	parallelRanges(rows, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			g.coords(g.Data[i*g.Dims:], q.Coords[i*g.K:i*g.K+g.K])
		}
	})
	return q
}

func (g *EpsilonGrid) coords(point []float32, out []int32) {
	for d := range out {
		out[d] = g.coord(d, point[d])
	}
}

// Queries prepares outer points against the grid: dimensions permuted
// like the grid's, sorted by their cell so that neighbouring queries (on
// the GPU, neighbouring threads) read the same cells.
func (g *EpsilonGrid) Queries(outer EpsilonPoints, opt EpsilonOptions) (*EpsilonQueries, error) {
	if err := checkEpsilonInput(outer, opt); err != nil {
		return nil, err
	}
	if outer.Dims != g.Dims {
		return nil, fmt.Errorf("epsilon join: vectors of %d and %d dimensions cannot be compared", outer.Dims, g.Dims)
	}
	n, k, rows := g.Dims, g.K, outer.N()
	data := permuteDims(outer, g.Perm)
	coords := make([]int32, rows*k)
	order := identityPerm(rows)
	ids := make([]int64, rows)
	parallelRanges(rows, opt.Workers, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			c := coords[r*k : r*k+k]
			g.coords(data[r*n:], c)
			var id int64
			for d := range k {
				id = id*int64(g.Cells[d]+4) + int64(c[d]+2)
			}
			ids[r] = id
		}
	})
	sort.SliceStable(order, func(a, b int) bool { return ids[order[a]] < ids[order[b]] })
	q := &EpsilonQueries{Data: make([]float32, len(data)), Rows: order, Coords: make([]int32, rows*k)}
	for i, r := range order {
		copy(q.Data[i*n:i*n+n], data[int(r)*n:int(r)*n+n])
		copy(q.Coords[i*k:i*k+k], coords[int(r)*k:int(r)*k+k])
	}
	return q, nil
}
