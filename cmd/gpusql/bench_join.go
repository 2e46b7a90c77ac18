package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gpusql/engine"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// benchJoin runs the join experiments of Kruliš & Yaghob and Diamos et al.
// side by side: two sets of n unique 32-bit keys (half of each in the
// other), drawn uniformly or clustered by a Zipf law over 2^14 buckets of
// the domain (or dense: a permutation of [0, 1.5n)), intersected by each algorithm on the GPU (kernel time with
// the keys resident, and total time with copying them) and on the CPU
// executor (SELECT count(*) ... IN (subquery) under each join algorithm,
// on one core and on all). Every run's count must be n/2.
func benchJoin(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench join", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "4M,16M,64M", "comma-separated key-set sizes (K, M suffixes)")
	huge := fs.Bool("huge", false, "also run 256M keys per set")
	dists := fs.String("dist", "uniform,zipf", "key distributions: uniform, zipf, dense (a permutation of [0, 1.5n))")
	executors := fs.String("executor", "auto", "cpu, gpu or both (auto: gpu,cpu when a GPU is usable)")
	cpuAlgos := fs.String("cpu-algos", "hash,bitmap,twopass,merge", "CPU join algorithms (SET join_algorithm names)")
	gpuAlgos := fs.String("gpu-algos", strings.Join(engine.GPUIntersectAlgorithms, ","), "GPU intersection algorithms (also hash-P and hash-Pr: the hash join in P passes over partitions, scattered once or re-read each pass)")
	threads := fs.String("threads", "1,all", "CPU thread counts (all = every CPU)")
	runs := fs.Int("runs", 3, "runs per measurement (the fastest is reported)")
	bucketBits := fs.Int("bucket-bits", 18, "log2 of the values one bucketed-bitmap bucket covers")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ns, err := parseSizes(*sizes)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *huge {
		ns = append(ns, 256<<20)
	}
	execs := strings.Split(*executors, ",")
	if *executors == "auto" {
		execs = []string{"cpu"}
		if ok, _ := engine.GPUStatus(); ok {
			execs = []string{"gpu", "cpu"}
		}
	}
	prof, err := engine.GPUBandwidthProfile("h100")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(stdout, "join bench: |R| = |S| = n unique 32-bit keys, |R ∩ S| = n/2; input = 2n keys × 8 B (device width)\n")
	fmt.Fprintf(stdout, "  kernel GB/s = input / kernel ms (keys resident), %% HBM against %s's %.0f GB/s;\n", prof.Name, prof.HBMGBs)
	fmt.Fprintf(stdout, "  total GB/s = input / total ms (copies from pageable host memory included), %% link against pinned copies' %.0f GB/s\n", prof.PinnedCopyGBs)
	fmt.Fprintln(tw, "n\tdist\tdevice\talgorithm\tthreads\ttotal ms\tkernel ms\tkernel GB/s\t% HBM\ttotal GB/s\t% link\tMkeys/s\t")
	for _, n := range ns {
		for _, dist := range strings.Split(*dists, ",") {
			r, s, err := joinKeySets(n, dist)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 2
			}
			for _, ex := range execs {
				var err error
				switch ex {
				case "gpu":
					err = benchJoinGPU(tw, r, s, dist, strings.Split(*gpuAlgos, ","), *bucketBits, *runs, prof)
				case "cpu":
					err = benchJoinCPU(tw, r, s, dist, strings.Split(*cpuAlgos, ","), *threads, *runs)
				default:
					err = fmt.Errorf("unknown executor %q (want cpu or gpu)", ex)
				}
				if err != nil {
					tw.Flush()
					fmt.Fprintln(stderr, "bench join:", err)
					return 1
				}
			}
		}
	}
	tw.Flush()
	return 0
}

// parseSizes reads "4M,16M" as key counts.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mult := 1
		switch {
		case strings.HasSuffix(f, "M"):
			mult, f = 1<<20, strings.TrimSuffix(f, "M")
		case strings.HasSuffix(f, "K"):
			mult, f = 1<<10, strings.TrimSuffix(f, "K")
		}
		v, err := strconv.Atoi(f)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("bench join --sizes: %q is not a positive count (e.g. 4M)", f)
		}
		out = append(out, v*mult)
	}
	return out, nil
}

// joinKeySets draws 1.5n unique keys and returns R = the first n and S =
// the last n, so that |R ∩ S| = n/2 exactly.
func joinKeySets(n int, dist string) (r, s []int64, err error) {
	m := n + n/2
	keys := make([]int64, m)
	switch dist {
	case "uniform":
		// i ↦ i·φ + c mod 2^32 is a bijection (odd multiplier): unique
		// keys spread over the whole 32-bit domain.
		for i := range keys {
			keys[i] = int64(uint32(uint32(i)*0x9E3779B1 + 0x7F4A7C15))
		}
	case "zipf":
		zipfKeys(keys)
	case "dense":
		// A permutation of [0, 1.5n): the domain a direct array or one
		// bitmap covers.
		rng := rand.New(rand.NewPCG(42, 2))
		for i, v := range rng.Perm(m) {
			keys[i] = int64(v)
		}
	default:
		return nil, nil, fmt.Errorf("bench join --dist: %q (want uniform, zipf or dense)", dist)
	}
	return keys[:n], keys[n/2 : n/2+n], nil
}

// zipfKeys fills keys with unique 32-bit keys whose top 14 bits (the
// bucket) follow a Zipf law (s = 1.1): a few buckets of the domain hold
// most keys, as skewed data loads the bucketed joins unevenly. A full
// bucket passes its keys on to the next.
func zipfKeys(keys []int64) {
	const bucketBits, lowBits = 14, 18
	rng := rand.New(rand.NewPCG(42, 1))
	z := rand.NewZipf(rng, 1.1, 8, 1<<bucketBits-1)
	count := make([]uint32, 1<<bucketBits)
	for i := range keys {
		b := uint32(z.Uint64()*0x9E37+0x79B9) & (1<<bucketBits - 1) // hot buckets spread over the domain
		for count[b] == 1<<lowBits {
			b = (b + 1) & (1<<bucketBits - 1)
		}
		low := (count[b] * 0x9E3779B1) & (1<<lowBits - 1) // a bijection of the 18-bit offsets
		count[b]++
		keys[i] = int64(b)<<lowBits | int64(low)
	}
}

// benchJoinGPU times each algorithm on its own, so that one the data do
// not fit (a bitmap over too wide a domain) reports its error in its row
// and the others still run.
func benchJoinGPU(tw io.Writer, r, s []int64, dist string, algos []string, bucketBits, runs int, prof *planner.GPUProfile) error {
	n := len(r)
	for _, a := range algos {
		ts, err := engine.BenchIntersectGPU(r, s, []string{a}, bucketBits, runs)
		if err != nil {
			fmt.Fprintf(tw, "%s\t%s\tgpu\t%s\t\terror: %v\t\t\t\t\t\t\t\n", sizeName(n), dist, a, err)
			continue
		}
		t := ts[0]
		if t.Matches != int64(n/2) {
			return fmt.Errorf("gpu %s found %d common keys, want %d", t.Algorithm, t.Matches, n/2)
		}
		kernel := float64(16*n) / t.Kernel.Seconds() / 1e9
		total := float64(16*n) / t.Total.Seconds() / 1e9
		fmt.Fprintf(tw, "%s\t%s\tgpu\t%s\t\t%.2f\t%.2f\t%.1f\t%.0f%%\t%.1f\t%.0f%%\t%.0f\t\n", sizeName(n), dist, t.Algorithm,
			ms(t.Total), ms(t.Kernel), kernel, 100*kernel/prof.HBMGBs, total, 100*total/prof.PinnedCopyGBs,
			float64(2*n)/t.Kernel.Seconds()/1e6)
	}
	return nil
}

func benchJoinCPU(tw io.Writer, r, s []int64, dist string, algos []string, threads string, runs int) error {
	db, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		return err
	}
	defer db.Close()
	db.Catalog().Put(keyTable("r", r))
	db.Catalog().Put(keyTable("s", s))
	ctx := context.Background()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, th := range strings.Split(threads, ",") {
		k := runtime.NumCPU()
		if th != "all" {
			if k, err = strconv.Atoi(th); err != nil || k <= 0 {
				return fmt.Errorf("--threads: %q (want a count or all)", th)
			}
		}
		runtime.GOMAXPROCS(k)
		for _, a := range algos {
			if _, err := db.Exec(ctx, fmt.Sprintf("SET join_algorithm = '%s'", a), ""); err != nil {
				return err
			}
			p, err := db.Prepare("SELECT count(*) FROM r WHERE k IN (SELECT k FROM s)")
			if err != nil {
				return err
			}
			var best time.Duration
			for i := 0; i < max(runs, 1); i++ {
				start := time.Now()
				res, err := db.Run(ctx, p, "cpu")
				if err != nil {
					return fmt.Errorf("cpu %s: %w", a, err)
				}
				el := time.Since(start)
				if got := res.Columns[0].Int64At(0); got != int64(len(r)/2) {
					return fmt.Errorf("cpu %s found %d common keys, want %d", a, got, len(r)/2)
				}
				if i == 0 || el < best {
					best = el
				}
			}
			n := len(r)
			fmt.Fprintf(tw, "%s\t%s\tcpu\t%s\t%d\t%.2f\t\t\t\t%.2f\t\t%.0f\t\n", sizeName(n), dist, a, k,
				ms(best), float64(16*n)/best.Seconds()/1e9, float64(2*n)/best.Seconds()/1e6)
		}
	}
	return nil
}

// keyTable is a one-column table k BIGINT NOT NULL holding keys.
func keyTable(name string, keys []int64) *columnar.Table {
	c := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, len(keys), false)
	copy(c.I64, keys)
	t := &columnar.Table{Name: name, Rows: len(keys), Columns: []*columnar.Column{c},
		Fields: []columnar.Field{{Name: "k", Type: columnar.TInt64}}}
	columnar.ComputeStats(t)
	return t
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func sizeName(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%dM", n>>20)
	}
	return fmt.Sprint(n)
}
