package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpusql/engine"
	"gpusql/exec/cpu"
	"gpusql/exec/gpu"
)

// bench simjoin: the ε-similarity self-join (Gowanlock & Karsin) on the
// paper's synthetic sets, GPU against the CPU path on all cores, with
// brute force timed on a sample of queries (and checked against the
// join's counts for them), then the effect of switching off each
// optimization at the middle ε of every set.

type simjoinSet struct {
	name string
	dims int
	gen  func(*rand.Rand) float32
}

type simjoinFlags struct {
	points    int
	dims      []int
	uniform   []int
	targets   []float64
	eps       []float64
	executors []string
	ablate    bool
	bruteQ    int
	runs      int
	seed      int64
	workers   int
	gpus      []int // with several: the GPU join also runs over them
}

func benchSimjoin(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench simjoin", flag.ContinueOnError)
	f := simjoinFlags{}
	fs.IntVar(&f.points, "points", 2_000_000, "points per synthetic set")
	dims := fs.String("dims", "16,32,64", "dimensions of the exponentially distributed sets (comma-separated; empty for none)")
	uni := fs.String("uniform-dims", "2,6", "dimensions of the uniformly distributed sets (comma-separated; empty for none)")
	targets := fs.String("neighbours", "2,5,20", "ε is chosen so that the median point has this many neighbours, itself included (comma-separated)")
	eps := fs.String("eps", "", "comma-separated ε values to use instead of --neighbours")
	exes := fs.String("executor", "auto", "gpu,cpu; auto: gpu,cpu when a GPU is usable, else cpu")
	fs.BoolVar(&f.ablate, "ablate", true, "at the middle ε, time the join with each optimization off")
	fs.IntVar(&f.bruteQ, "brute-sample", 200, "queries checked and timed by brute force against every point")
	fs.IntVar(&f.runs, "runs", 1, "runs of each join; the fastest is reported (the first GPU run at a new result size pins its buffers)")
	fs.Int64Var(&f.seed, "seed", 1, "random seed of the generated points")
	fs.IntVar(&f.workers, "workers", 0, "CPU goroutines (0: all cores)")
	gpus := fs.String("gpus", "", "also time the GPU join spread over these devices (`LIST` 0,1), beside one GPU")
	if code, done := parseFlags(fs, args, "usage: gpusql bench simjoin [flags]   time the ε-similarity self-join on synthetic point sets", stdout, stderr); done {
		return code
	}
	var err error
	if f.dims, err = intList(*dims); err == nil {
		if f.uniform, err = intList(*uni); err == nil {
			if f.targets, err = floatList(*targets); err == nil {
				f.eps, err = floatList(*eps)
			}
		}
	}
	if err != nil || f.points <= 0 || f.runs <= 0 {
		fmt.Fprintf(stderr, "gpusql bench simjoin: bad flag value (%v); --points and --runs must be > 0\n", err)
		return 2
	}
	if *exes == "auto" {
		*exes = "cpu"
		if ok, _ := gpu.Available(); ok {
			*exes = "gpu,cpu"
		}
	}
	f.executors = strings.Split(*exes, ",")
	for _, e := range f.executors {
		if e != "gpu" && e != "cpu" {
			fmt.Fprintf(stderr, "gpusql bench simjoin: unknown executor %q (cpu, gpu)\n", e)
			return 2
		}
		if ok, why := gpu.Available(); e == "gpu" && !ok {
			fmt.Fprintf(stderr, "gpusql bench simjoin: no GPU: %s\n", why)
			return 1
		}
	}
	if f.gpus, err = engine.ParseGPUs(*gpus); err != nil {
		fmt.Fprintf(stderr, "gpusql bench simjoin: --gpus: %v\n", err)
		return 2
	}
	if len(f.gpus) > 1 {
		if !slices.Contains(f.executors, "gpu") {
			fmt.Fprintln(stderr, "gpusql bench simjoin: --gpus needs the gpu executor")
			return 2
		}
		f.executors = append(f.executors, "gpus")
	}
	var sets []simjoinSet
	for _, d := range f.dims {
		sets = append(sets, simjoinSet{fmt.Sprintf("expo-%dd", d), d, func(r *rand.Rand) float32 { return float32(r.ExpFloat64()) }})
	}
	for _, d := range f.uniform {
		sets = append(sets, simjoinSet{fmt.Sprintf("unif-%dd", d), d, func(r *rand.Rand) float32 { return r.Float32() }})
	}
	if slices.Contains(f.executors, "gpu") {
		simjoinWarmUp()
	}
	fmt.Fprintf(stdout, "ε-similarity self-join, %d points per set, %d CPU cores, GPU %s\n", f.points, runtime.NumCPU(), gpuName())
	for _, s := range sets {
		if err := simjoinSetBench(stdout, s, f); err != nil {
			fmt.Fprintf(stderr, "gpusql bench simjoin: %s: %v\n", s.name, err)
			return 1
		}
	}
	return 0
}

func gpuName() string {
	if n := gpu.DeviceName(); n != "" {
		return n
	}
	return "(none)"
}

func intList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func floatList(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%q is not a number ≥ 0", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// simjoinPoints generates n points in parallel, deterministic for a seed.
func simjoinPoints(n int, s simjoinSet, seed int64) cpu.EpsilonPoints {
	p := cpu.EpsilonPoints{Data: make([]float32, n*s.dims), Dims: s.dims}
	const chunk = 1 << 14
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(seed*1_000_003 + int64(lo)))
			for i := lo * s.dims; i < min(lo+chunk, n)*s.dims; i++ {
				p.Data[i] = s.gen(r)
			}
		}()
	}
	wg.Wait()
	return p
}

// simjoinWarmUp opens the GPU and JITs its kernels outside the timings.
func simjoinWarmUp() {
	p := cpu.EpsilonPoints{Data: []float32{0, 0, 1, 1}, Dims: 2}
	opt := cpu.DefaultEpsilonOptions(cpu.EpsilonL2, 1)
	if g, err := cpu.BuildEpsilonGrid(p, opt); err == nil {
		gpu.EpsilonJoinPairs(g, g.SelfQueries(), opt, func([]int32) error { return nil })
	}
}

// simjoinEpsilons picks ε per target: the median, over up to 64 sampled
// points, of the distance to their t-th nearest point (brute force).
func simjoinEpsilons(p cpu.EpsilonPoints, targets []float64) []float64 {
	n, rows := p.Dims, p.N()
	sample := min(64, rows)
	kth := make([][]float64, len(targets))
	var mu sync.Mutex
	top := 1
	for _, target := range targets {
		top = max(top, int(target))
	}
	parallelFor(sample, func(i int) {
		q := p.Data[(i*rows/sample)*n:][:n]
		near := make([]float64, 0, top+1) // the top smallest squared distances, ascending
		for j := range rows {
			var s float64
			for x, v := range p.Data[j*n : j*n+n] {
				s += float64(v-q[x]) * float64(v-q[x])
			}
			if len(near) == top && s >= near[top-1] {
				continue
			}
			k, _ := slices.BinarySearch(near, s)
			near = slices.Insert(near, k, s)
			if len(near) > top {
				near = near[:top]
			}
		}
		mu.Lock()
		for t, target := range targets {
			kth[t] = append(kth[t], math.Sqrt(near[min(len(near)-1, max(0, int(target)-1))]))
		}
		mu.Unlock()
	})
	out := make([]float64, len(targets))
	for t := range targets {
		slices.Sort(kth[t])
		out[t] = kth[t][len(kth[t])/2]
	}
	return out
}

func parallelFor(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	wg.Wait()
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1e3 }
