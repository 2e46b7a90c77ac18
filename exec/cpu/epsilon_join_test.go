package cpu

import (
	"cmp"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
)

// The ε-join is checked against brute force: every pair compared with
// EpsilonWithin on the original points, which is the predicate's
// definition. Each case runs under every combination of the optimizations
// and both metrics, as a self-join and as a join of two sets.

type epsilonCase struct {
	name        string
	inner, outr EpsilonPoints // outr.Dims == 0: a self-join
	eps         float32
}

func randomPoints(rng *rand.Rand, n, dims int, gen func() float32) EpsilonPoints {
	p := EpsilonPoints{Data: make([]float32, n*dims), Dims: dims}
	for i := range p.Data {
		p.Data[i] = gen()
	}
	return p
}

func epsilonCases() []epsilonCase {
	rng := rand.New(rand.NewSource(11))
	uniform := func() float32 { return rng.Float32() }
	expo := func() float32 { return float32(rng.ExpFloat64()) }
	// Integer lattice: many distances are exactly ε (≤ against <).
	lattice := func() float32 { return float32(rng.Intn(6)) }
	dup := randomPoints(rng, 40, 3, uniform)
	dupData := slices.Concat(dup.Data, dup.Data, dup.Data)
	cases := []epsilonCase{
		{name: "empty", inner: EpsilonPoints{Dims: 4}, eps: 0.5},
		{name: "one point", inner: randomPoints(rng, 1, 3, uniform), eps: 0.1},
		{name: "eps 0 duplicates", inner: EpsilonPoints{Data: dupData, Dims: 3}, eps: 0},
		{name: "duplicates", inner: EpsilonPoints{Data: dupData, Dims: 3}, eps: 0.2},
		{name: "one cell", inner: randomPoints(rng, 300, 2, uniform), eps: 5},
		{name: "lattice 2d", inner: randomPoints(rng, 500, 2, lattice), eps: 1},
		{name: "lattice 3d", inner: randomPoints(rng, 400, 3, lattice), eps: 2},
		{name: "dims 1", inner: randomPoints(rng, 1000, 1, uniform), eps: 0.003},
		{name: "dims 2", inner: randomPoints(rng, 1000, 2, uniform), eps: 0.03},
		{name: "dims 3", inner: randomPoints(rng, 1000, 3, expo), eps: 0.15},
		{name: "dims 16 expo", inner: randomPoints(rng, 777, 16, expo), eps: 1.2},
		{name: "dims 64 expo", inner: randomPoints(rng, 555, 64, expo), eps: 3.5},
		{name: "two sets", inner: randomPoints(rng, 700, 5, uniform), outr: randomPoints(rng, 333, 5, uniform), eps: 0.25},
		{name: "two sets apart", inner: randomPoints(rng, 200, 2, uniform), outr: randomPoints(rng, 100, 2, func() float32 { return 5 + rng.Float32() }), eps: 0.3},
		{name: "two sets empty outer", inner: randomPoints(rng, 50, 2, uniform), outr: EpsilonPoints{Dims: 2}, eps: 0.3},
	}
	// Skew: most points in one small cluster, a few far out.
	skew := randomPoints(rng, 600, 4, func() float32 {
		if rng.Intn(10) == 0 {
			return 100 * rng.Float32()
		}
		return 0.01 * rng.Float32()
	})
	cases = append(cases, epsilonCase{name: "skew", inner: skew, eps: 0.02})
	return cases
}

type epsilonPair struct{ a, b int32 }

func bruteForcePairs(outer, inner EpsilonPoints, metric EpsilonMetric, eps float32, strict bool) []epsilonPair {
	var out []epsilonPair
	n := inner.Dims
	for i := range outer.N() {
		for j := range inner.N() {
			if EpsilonWithin(metric, eps, strict, outer.Data[i*n:i*n+n], inner.Data[j*n:j*n+n]) {
				out = append(out, epsilonPair{int32(i), int32(j)})
			}
		}
	}
	return out
}

// bruteForceLimit compares every pair's sum with a SQL-derived limit.
func bruteForceLimit(outer, inner EpsilonPoints, metric EpsilonMetric, limit float32) []epsilonPair {
	var out []epsilonPair
	n := inner.Dims
	for i := range outer.N() {
		for j := range inner.N() {
			if EpsilonSum(metric, outer.Data[i*n:i*n+n], inner.Data[j*n:j*n+n]) <= limit {
				out = append(out, epsilonPair{int32(i), int32(j)})
			}
		}
	}
	return out
}

// SQL's comparison of the DOUBLE distance with ε and the float32 limit
// SQLEpsilonLimit derives agree on every sum near the bound.
func TestSQLEpsilonLimit(t *testing.T) {
	for _, eps := range []float64{0, 1e-30, 0.3, 1, 1.4142135623730951, 2.5, 1e19, 3e38} {
		for _, metric := range []EpsilonMetric{EpsilonL2, EpsilonL1} {
			for _, strict := range []bool{false, true} {
				limit, ok := SQLEpsilonLimit(metric, eps, strict)
				sqlIn := func(s float32) bool {
					d := float64(s)
					if metric == EpsilonL2 {
						d = math.Sqrt(d)
					}
					return d < eps || (!strict && d == eps)
				}
				if !ok {
					if sqlIn(0) {
						t.Errorf("ε=%g %s strict=%v: no limit, but 0 is within", eps, metric, strict)
					}
					continue
				}
				s := limit
				for range 50 { // the sums around the limit, on both sides
					s = math.Nextafter32(s, 0)
				}
				for range 100 {
					if sqlIn(s) != (s <= limit) {
						t.Fatalf("ε=%g %s strict=%v: sum %g: SQL says %v, limit %g says %v", eps, metric, strict, s, sqlIn(s), limit, s <= limit)
					}
					s = math.Nextafter32(s, float32(math.Inf(1)))
				}
			}
		}
	}
	if _, ok := SQLEpsilonLimit(EpsilonL2, -1, false); ok {
		t.Error("a negative ε has a limit")
	}
}

func sortPairs(p []epsilonPair) {
	slices.SortFunc(p, func(x, y epsilonPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
}

// epsilonOptionSets switches each optimization off in turn, and forces k.
func epsilonOptionSets(metric EpsilonMetric, eps float32) map[string]EpsilonOptions {
	all := DefaultEpsilonOptions(metric, eps)
	sets := map[string]EpsilonOptions{"all": all}
	o := all
	o.Reorder = false
	sets["no reorder"] = o
	o = all
	o.SortIDU = false
	sets["no sortidu"] = o
	o = all
	o.ShortC = false
	sets["no shortc"] = o
	o = all
	o.Reorder, o.SortIDU, o.ShortC = false, false, false
	sets["none"] = o
	o = all
	o.K = 1
	sets["k=1"] = o
	o = all
	o.K = EpsilonMaxK
	o.Strict = true
	sets["k=max strict"] = o
	o = all
	o.Limit, _ = SQLEpsilonLimit(metric, float64(eps), true)
	o.LimitSet = true
	sets["sql limit"] = o
	return sets
}

func TestEpsilonJoinMatchesBruteForce(t *testing.T) {
	for _, c := range epsilonCases() {
		for _, metric := range []EpsilonMetric{EpsilonL2, EpsilonL1} {
			outer := c.outr
			if outer.Dims == 0 {
				outer = c.inner
			}
			for name, opt := range epsilonOptionSets(metric, c.eps) {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, metric, name), func(t *testing.T) {
					want := bruteForcePairs(outer, c.inner, metric, c.eps, opt.Strict)
					if opt.LimitSet {
						want = bruteForceLimit(outer, c.inner, metric, opt.Limit)
					}
					checkEpsilonJoin(t, c.inner, c.outr, opt, want)
				})
			}
		}
	}
}

func checkEpsilonJoin(t *testing.T, inner, outer EpsilonPoints, opt EpsilonOptions, want []epsilonPair) {
	t.Helper()
	g, err := BuildEpsilonGrid(inner, opt)
	if err != nil {
		t.Fatal(err)
	}
	q := g.SelfQueries()
	if outer.Dims != 0 {
		if q, err = g.Queries(outer, opt); err != nil {
			t.Fatal(err)
		}
	}
	var got []epsilonPair
	n, err := EpsilonJoinPairs(g, q, 3, func(pairs []int32) error {
		for x := 0; x < len(pairs); x += 2 {
			got = append(got, epsilonPair{pairs[x], pairs[x+1]})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sortPairs(got)
	if n != int64(len(want)) || !slices.Equal(got, want) {
		t.Fatalf("k=%d: %d pairs (%d returned), brute force %d; first difference %v", g.K, n, len(got), len(want), firstDiff(got, want))
	}
	counts, total := EpsilonJoinCount(g, q, 2)
	if total != int64(len(want)) {
		t.Fatalf("count: %d, brute force %d", total, len(want))
	}
	wantCounts := make([]int32, len(counts))
	for _, p := range want {
		wantCounts[p.a]++
	}
	if !slices.Equal(counts, wantCounts) {
		t.Fatalf("per-row counts differ from brute force")
	}
}

func firstDiff(got, want []epsilonPair) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: got %v, want %v", i, got[i], want[i])
		}
	}
	return "one is a prefix of the other"
}

func TestEpsilonJoinRejectsBadInput(t *testing.T) {
	opt := DefaultEpsilonOptions(EpsilonL2, 0.1)
	if _, err := BuildEpsilonGrid(EpsilonPoints{Data: []float32{1, 2, 3}, Dims: 2}, opt); err == nil {
		t.Error("3 values of 2-D points accepted")
	}
	if _, err := BuildEpsilonGrid(EpsilonPoints{Data: []float32{1, float32(math.NaN())}, Dims: 2}, opt); err == nil {
		t.Error("NaN accepted")
	}
	opt.Eps = -1
	if _, err := BuildEpsilonGrid(EpsilonPoints{Data: []float32{1, 2}, Dims: 2}, opt); err == nil {
		t.Error("negative ε accepted")
	}
	opt.Eps = 1
	g, _ := BuildEpsilonGrid(EpsilonPoints{Data: []float32{1, 2}, Dims: 2}, opt)
	if _, err := g.Queries(EpsilonPoints{Data: []float32{1, 2, 3}, Dims: 3}, opt); err == nil {
		t.Error("3-D queries against a 2-D grid accepted")
	}
}

// The cost model picks more indexed dimensions when they prune: uniform
// 6-D points with a small ε need several, a single cluster needs one.
func TestEpsilonCostModelChoosesK(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	spread := randomPoints(rng, 20000, 6, func() float32 { return rng.Float32() })
	g, err := BuildEpsilonGrid(spread, DefaultEpsilonOptions(EpsilonL2, 0.05))
	if err != nil {
		t.Fatal(err)
	}
	if g.K < 3 {
		t.Errorf("uniform 6-D, ε=0.05: k=%d, want ≥ 3", g.K)
	}
	g, err = BuildEpsilonGrid(spread, DefaultEpsilonOptions(EpsilonL2, 10))
	if err != nil {
		t.Fatal(err)
	}
	if g.K != 1 {
		t.Errorf("ε larger than the data: k=%d, want 1", g.K)
	}
}

// The parallel sample sort orders the grid's keys as one sort does,
// including many equal cell ids and coordinates (skew).
func TestSortCellKeys(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, n := range []int{0, 1, 1000, 200_000} {
		keys := make([]cellKey, n)
		for i := range keys {
			id := uint64(rng.Intn(50))
			if rng.Intn(4) == 0 {
				id = 7 // a crowded cell
			}
			keys[i] = cellKey{id: id, u: float32(rng.Intn(100)) / 8, row: int32(i)}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, compareCellKeys)
		if got := sortCellKeys(keys, 5); !slices.Equal(got, want) {
			t.Fatalf("n=%d: the sample sort's order differs", n)
		}
	}
}

// BenchmarkEpsilonGrid builds the grid over 1 M uniform 2-D points
// (points/s reported): the host-side step both executors start with.
func BenchmarkEpsilonGrid(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	p := randomPoints(rng, 1<<20, 2, func() float32 { return rng.Float32() })
	opt := DefaultEpsilonOptions(EpsilonL2, 0.001)
	b.ResetTimer()
	for range b.N {
		if _, err := BuildEpsilonGrid(p, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.N())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpoints/s")
}

// BenchmarkEpsilonJoinCPU counts the self-join of 1 M uniform 2-D points
// at about 5 neighbours each on all cores (pairs/s reported).
func BenchmarkEpsilonJoinCPU(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	p := randomPoints(rng, 1<<20, 2, func() float32 { return rng.Float32() })
	g, err := BuildEpsilonGrid(p, DefaultEpsilonOptions(EpsilonL2, 0.0012))
	if err != nil {
		b.Fatal(err)
	}
	q := g.SelfQueries()
	b.ResetTimer()
	var pairs int64
	for range b.N {
		_, n := EpsilonJoinCount(g, q, 0)
		pairs += n
	}
	b.ReportMetric(float64(pairs)/b.Elapsed().Seconds()/1e6, "Mpairs/s")
}
