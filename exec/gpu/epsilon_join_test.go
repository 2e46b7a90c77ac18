//go:build cuda

package gpu

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec/cpu"
)

// GPU = CPU = brute force for the ε-join, on the shapes of exec/cpu's
// tests: empty, one point, ε = 0 over duplicates, one cell, lattices with
// distances exactly ε, dims 1, 2, 3, 16, 64, sizes that are not multiples
// of the block, two sets, skew; each optimization off in turn; L2 and L1.

type epsCase struct {
	name         string
	inner, outer cpu.EpsilonPoints // outer.Dims == 0: self-join
	eps          float32
}

func epsPoints(rng *rand.Rand, n, dims int, gen func() float32) cpu.EpsilonPoints {
	p := cpu.EpsilonPoints{Data: make([]float32, n*dims), Dims: dims}
	for i := range p.Data {
		p.Data[i] = gen()
	}
	return p
}

func epsCases() []epsCase {
	rng := rand.New(rand.NewSource(11))
	uni := func() float32 { return rng.Float32() }
	expo := func() float32 { return float32(rng.ExpFloat64()) }
	lattice := func() float32 { return float32(rng.Intn(6)) }
	dup := epsPoints(rng, 40, 3, uni)
	dups := cpu.EpsilonPoints{Data: slices.Concat(dup.Data, dup.Data, dup.Data), Dims: 3}
	skew := epsPoints(rng, 3000, 4, func() float32 {
		if rng.Intn(10) == 0 {
			return 100 * rng.Float32()
		}
		return 0.01 * rng.Float32()
	})
	return []epsCase{
		{name: "empty", inner: cpu.EpsilonPoints{Dims: 4}, eps: 0.5},
		{name: "one point", inner: epsPoints(rng, 1, 3, uni), eps: 0.1},
		{name: "eps 0 duplicates", inner: dups, eps: 0},
		{name: "duplicates", inner: dups, eps: 0.2},
		{name: "one cell", inner: epsPoints(rng, 300, 2, uni), eps: 5},
		{name: "lattice 2d", inner: epsPoints(rng, 500, 2, lattice), eps: 1},
		{name: "lattice 3d", inner: epsPoints(rng, 400, 3, lattice), eps: 2},
		{name: "dims 1", inner: epsPoints(rng, 1000, 1, uni), eps: 0.003},
		{name: "dims 2", inner: epsPoints(rng, 1000, 2, uni), eps: 0.03},
		{name: "dims 3", inner: epsPoints(rng, 1000, 3, expo), eps: 0.15},
		{name: "dims 16", inner: epsPoints(rng, 777, 16, expo), eps: 1.2},
		{name: "dims 64", inner: epsPoints(rng, 555, 64, expo), eps: 3.5},
		{name: "two sets", inner: epsPoints(rng, 700, 5, uni), outer: epsPoints(rng, 333, 5, uni), eps: 0.25},
		{name: "two sets empty outer", inner: epsPoints(rng, 50, 2, uni), outer: cpu.EpsilonPoints{Dims: 2}, eps: 0.3},
		{name: "skew", inner: skew, eps: 0.02},
	}
}

type epsPair struct{ a, b int32 }

func epsBrute(outer, inner cpu.EpsilonPoints, opt cpu.EpsilonOptions) []epsPair {
	var out []epsPair
	n := inner.Dims
	for i := range outer.N() {
		for j := range inner.N() {
			if cpu.EpsilonWithin(opt.Metric, opt.Eps, opt.Strict, outer.Data[i*n:i*n+n], inner.Data[j*n:j*n+n]) {
				out = append(out, epsPair{int32(i), int32(j)})
			}
		}
	}
	return out
}

// epsCPU is the CPU path's pairs, sorted.
func epsCPU(t *testing.T, g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) []epsPair {
	var got []epsPair
	if _, err := cpu.EpsilonJoinPairs(g, q, 2, epsCollect(&got)); err != nil {
		t.Fatal(err)
	}
	epsSort(got)
	return got
}

func epsSort(p []epsPair) {
	slices.SortFunc(p, func(x, y epsPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
}

func epsCollect(got *[]epsPair) cpu.EpsilonSink {
	return func(pairs []int32) error {
		for x := 0; x < len(pairs); x += 2 {
			*got = append(*got, epsPair{pairs[x], pairs[x+1]})
		}
		return nil
	}
}

func epsOptionSets(metric cpu.EpsilonMetric, eps float32) map[string]cpu.EpsilonOptions {
	all := cpu.DefaultEpsilonOptions(metric, eps)
	sets := map[string]cpu.EpsilonOptions{"all": all}
	for name, off := range map[string]func(*cpu.EpsilonOptions){
		"no reorder":   func(o *cpu.EpsilonOptions) { o.Reorder = false },
		"no sortidu":   func(o *cpu.EpsilonOptions) { o.SortIDU = false },
		"no shortc":    func(o *cpu.EpsilonOptions) { o.ShortC = false },
		"no batching":  func(o *cpu.EpsilonOptions) { o.Batching = false },
		"k=max strict": func(o *cpu.EpsilonOptions) { o.K, o.Strict = cpu.EpsilonMaxK, true },
		// The bound SQL's VEC_*_DISTANCE(a, b) < ε becomes (checked there
		// against the nested loop): here GPU = CPU.
		"sql limit": func(o *cpu.EpsilonOptions) {
			o.Limit, _ = cpu.SQLEpsilonLimit(o.Metric, float64(o.Eps), true)
			o.LimitSet = true
		},
	} {
		o := all
		off(&o)
		sets[name] = o
	}
	return sets
}

func epsPrepare(t *testing.T, c epsCase, opt cpu.EpsilonOptions) (*cpu.EpsilonGrid, *cpu.EpsilonQueries, cpu.EpsilonPoints) {
	t.Helper()
	g, err := cpu.BuildEpsilonGrid(c.inner, opt)
	if err != nil {
		t.Fatal(err)
	}
	if c.outer.Dims == 0 {
		return g, g.SelfQueries(), c.inner
	}
	q, err := g.Queries(c.outer, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g, q, c.outer
}

func TestEpsilonJoinGPUMatchesCPUAndBruteForce(t *testing.T) {
	needGPU(t)
	for _, c := range epsCases() {
		for _, metric := range []cpu.EpsilonMetric{cpu.EpsilonL2, cpu.EpsilonL1} {
			for name, opt := range epsOptionSets(metric, c.eps) {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, metric, name), func(t *testing.T) {
					g, q, outer := epsPrepare(t, c, opt)
					want := epsBrute(outer, c.inner, opt)
					if opt.LimitSet {
						want = epsCPU(t, g, q)
					}
					var got []epsPair
					st, err := EpsilonJoinPairs(g, q, opt, epsCollect(&got))
					if err != nil {
						t.Fatal(err)
					}
					slices.SortFunc(got, func(x, y epsPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
					if st.Pairs != int64(len(want)) || !slices.Equal(got, want) {
						t.Fatalf("k=%d: GPU %d pairs (%d returned), brute force %d", g.K, st.Pairs, len(got), len(want))
					}
					gc, gt, err := EpsilonJoinCount(g, q)
					if err != nil {
						t.Fatal(err)
					}
					cc, ct := cpu.EpsilonJoinCount(g, q, 2)
					if gt != ct || gt != int64(len(want)) || !slices.Equal(gc, cc) {
						t.Fatalf("counts: GPU total %d, CPU %d, brute force %d (per-row equal: %v)", gt, ct, len(want), slices.Equal(gc, cc))
					}
				})
			}
		}
	}
}

// A low estimate makes batches overflow their buffers: they must be run
// again split, and still return every pair exactly once.
func TestEpsilonJoinGPUOverflowReruns(t *testing.T) {
	d := needGPU(t)
	rng := rand.New(rand.NewSource(5))
	c := epsCase{name: "dense", inner: epsPoints(rng, 4000, 3, func() float32 { return rng.Float32() }), eps: 0.15}
	opt := cpu.DefaultEpsilonOptions(cpu.EpsilonL2, c.eps)
	g, q, outer := epsPrepare(t, c, opt)
	want := epsBrute(outer, c.inner, opt)
	defer func(v int64) { epsMinBufPairs = v }(epsMinBufPairs)
	epsMinBufPairs = 1
	var st EpsilonStats
	var got []epsPair
	err := d.do(func() error {
		r, err := d.epsUpload(g, q)
		if err != nil {
			return err
		}
		defer r.s.release()
		return r.runBatches(true, epsCollect(&got), &st)
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(got, func(x, y epsPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	if !slices.Equal(got, want) {
		t.Fatalf("%d pairs, brute force %d", len(got), len(want))
	}
	if st.Reruns == 0 {
		t.Fatalf("no batch overflowed a %d-pair buffer for %d pairs", st.BufferPairs, len(want))
	}
	t.Logf("%d pairs, %d batches, %d reruns, buffer %d pairs", len(want), st.Batches, st.Reruns, st.BufferPairs)
}

func TestEpsilonParamLayout(t *testing.T) {
	d := needGPU(t)
	var got int64
	err := d.do(func() error {
		f, err := d.fn("epsilon_param_size")
		if err != nil {
			return err
		}
		out, err := d.pool.get(8)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&got), out, 8)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != int64(unsafe.Sizeof(epsParams{})) {
		t.Fatalf("EpsParams is %d bytes in the kernel, epsParams %d in Go", got, unsafe.Sizeof(epsParams{}))
	}
}
