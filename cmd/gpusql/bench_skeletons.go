package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"time"

	"gpusql/engine"
	"gpusql/exec"
	"gpusql/exec/gpu"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// bench skeletons (issue 12): Diamos et al.'s multi-stage skeletons as the
// engine runs them — select at 1, 10 and 50 % selectivity, project, sort,
// sort-merge join and the sort-based set operations — over two generated
// tables of n unique 32-bit keys (t.k a permutation of [0, n), u.k one of
// [n/2, 3n/2): half the keys shared) with a 32-bit payload each. Each query
// is timed on every executor, answers compared first; the GPU's kernel
// time comes from a profiled run, and its rate counts the columns read at
// device width (writes not counted) against the measured HBM read rate;
// printMoved then counts every byte the kernels read and write.

func skeletonQueries(n int) []ssbgen.Query {
	return []ssbgen.Query{
		{Name: "select 1%", SQL: fmt.Sprintf("select k, v from t where k < %d", n/100)},
		{Name: "select 10%", SQL: fmt.Sprintf("select k, v from t where k < %d", n/10)},
		{Name: "select 50%", SQL: fmt.Sprintf("select k, v from t where k < %d", n/2)},
		{Name: "project", SQL: "select k + v * 3, k - v from t"},
		{Name: "sort", SQL: "select k, v from t order by k"},
		{Name: "merge join", SQL: "select count(*), sum(t.v), sum(u.v) from t join u on t.k = u.k"},
		{Name: "intersect", SQL: "select k from t intersect select k from u"},
		{Name: "union", SQL: "select k from t union select k from u"},
		{Name: "except", SQL: "select k from t except select k from u"},
	}
}

func benchSkeletons(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench skeletons", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int("rows", 16<<20, "keys per table")
	executors := fs.String("executor", "auto", "comma-separated executors to time: cpu, gpu; auto: gpu,cpu when a GPU is usable, else cpu")
	runs := fs.Int("runs", 3, "warm runs per query (the median is reported)")
	kernels := fs.Bool("kernels", false, "print each GPU query's profiled run kernel by kernel (time, bytes, rows)")
	if code, done := parseFlags(fs, args, "usage: gpusql bench skeletons [flags]   time select, project, sort, merge join and set operations", stdout, stderr); done {
		return code
	}
	if *rows < 100 || *rows > 1<<30 || *runs < 1 {
		fmt.Fprintln(stderr, "gpusql bench skeletons: --rows must be between 100 and 2^30 and --runs at least 1")
		return 2
	}
	exes, code := benchExecutors(*executors, stderr)
	if code != 0 {
		return code
	}
	primary := "cpu"
	if slices.ContainsFunc(exes, isGPU) {
		primary = "gpu"
	}
	// The skeletons themselves: a sort-merge join and sort-based set
	// operations, whatever the cost model would pick.
	db, err := engine.Open(engine.Options{Executor: primary, Join: "merge", SetOpAlgorithm: "sort"})
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench skeletons:", err)
		return 1
	}
	defer db.Close()
	start := time.Now()
	db.Catalog().Put(skeletonTable("t", *rows, 0))
	db.Catalog().Put(skeletonTable("u", *rows, *rows/2))
	fmt.Fprintf(stderr, "generated 2 × %d rows in %.2f s\n", *rows, time.Since(start).Seconds())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	report := &benchReport{Runs: *runs, Executors: exes, TotalWarm: map[string]float64{}}
	if err := timeQueries(ctx, db, report, skeletonQueries(*rows), stderr); err != nil {
		fmt.Fprintln(stderr, "gpusql bench skeletons:", err)
		return 1
	}
	copyGBs := 0.0
	if primary == "gpu" {
		var err error
		if copyGBs, err = gpu.MeasureDeviceCopy(copyProbeBytes, 5); err != nil {
			fmt.Fprintln(stderr, "gpusql bench skeletons: measuring a device copy:", err)
		}
	}
	fmt.Fprintf(stdout, "skeletons over t, u: %d unique INT keys and an INT payload each (%s a table as stored); GB/s counts the columns read, writes not counted (the GPU's bytes moved follow the table)\n",
		*rows, exec.FormatBytes(int64(8**rows)))
	printBench(stdout, report)
	printMoved(stdout, report, copyGBs)
	if *kernels {
		printKernelTables(stdout, report)
	}
	return 0
}

// skeletonTable is name(k, v): k a permutation of [shift, shift+n) (i·a
// mod n for an a coprime to n), v a hash of the row.
func skeletonTable(name string, n, shift int) *columnar.Table {
	alloc := columnar.DefaultAllocator()
	k := columnar.NewColumnIn(alloc, columnar.TInt32, n, false)
	v := columnar.NewColumnIn(alloc, columnar.TInt32, n, false)
	a := uint64(2654435761) % uint64(n)
	for gcd(a, uint64(n)) != 1 {
		a++
	}
	const block = 1 << 22
	parallelFor((n+block-1)/block, func(b int) {
		for i := b * block; i < min(n, (b+1)*block); i++ {
			k.I32[i] = int32(uint64(i)*a%uint64(n)) + int32(shift)
			v.I32[i] = int32(mix64(uint64(i)+uint64(shift)) % 1000)
		}
	})
	t := &columnar.Table{Name: name, Rows: n, Columns: []*columnar.Column{k, v}, Fields: []columnar.Field{
		{Name: "k", Type: columnar.TInt32}, {Name: "v", Type: columnar.TInt32}}}
	columnar.ComputeStats(t)
	return t
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
