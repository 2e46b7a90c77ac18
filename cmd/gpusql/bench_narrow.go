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
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// bench narrow (issue 13): a narrow fact table past 2^31 rows — three
// small-domain INT columns, 12 bytes a row as stored, 4 as sent over the
// link in the plan's narrowed wire widths — generated in memory, filtered,
// grouped and joined to a small dimension, on every executor, the answers
// compared before any time is printed. A fact table of 2^31 rows or more
// always streams through the GPU in chunks.

const narrowDimRows = 1000

var narrowQueries = []ssbgen.Query{
	{Name: "N1", SQL: "select count(*), sum(v) from f where g < 8"},
	{Name: "N2", SQL: "select g, count(*), sum(v), min(v), max(k) from f group by g"},
	{Name: "N3", SQL: "select cat, g, count(*), sum(v) from f, d where k = id group by cat, g"},
}

func benchNarrow(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench narrow", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int64("rows", 3_000_000_000, "fact table rows (2^31 = 2147483648 or more stream through the GPU)")
	executors := fs.String("executor", "auto", "comma-separated executors to time: cpu, gpu; auto: gpu,cpu when a GPU is usable, else cpu")
	runs := fs.Int("runs", 3, "warm runs per query (the median is reported)")
	gpuSets := fs.String("gpus", "", "time the GPU executor on each device set of `SETS` (0/0,1: one GPU, then two; one GPU streams a fact table past 2^31 rows)")
	if code, done := parseFlags(fs, args, "usage: gpusql bench narrow [flags]   time a narrow fact table of billions of rows, grouped and joined", stdout, stderr); done {
		return code
	}
	if *rows < 0 || *runs < 1 {
		fmt.Fprintln(stderr, "gpusql bench narrow: --rows must be at least 0 and --runs at least 1")
		return 2
	}
	exes, code := benchExecutors(*executors, stderr)
	if code != 0 {
		return code
	}
	exes, err := gpuExecutors(exes, *gpuSets)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench narrow: --gpus:", err)
		return 2
	}
	primary := "cpu"
	if slices.ContainsFunc(exes, isGPU) {
		primary = "gpu"
	}
	if need, avail := *rows*12, memAvailable(); avail > 0 && float64(need)*generateHeadroom > float64(avail) {
		fmt.Fprintf(stderr, "gpusql bench narrow: %d rows need about %s of memory, more than the %s available\n", *rows, exec.FormatBytes(need), exec.FormatBytes(avail))
		return 1
	}
	db, err := engine.Open(engine.Options{Executor: primary})
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench narrow:", err)
		return 1
	}
	defer db.Close()
	start := time.Now()
	db.Catalog().Put(narrowFact(int(*rows)))
	db.Catalog().Put(narrowDim())
	fmt.Fprintf(stderr, "generated %d fact rows (%s as stored) in %.2f s\n", *rows, exec.FormatBytes(*rows*12), time.Since(start).Seconds())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	report := &benchReport{Runs: *runs, Executors: exes, TotalWarm: map[string]float64{}}
	if err := timeQueries(ctx, db, report, narrowQueries, stderr); err != nil {
		fmt.Fprintln(stderr, "gpusql bench narrow:", err)
		return 1
	}
	for _, q := range narrowQueries {
		fmt.Fprintf(stdout, "%s: %s\n", q.Name, q.SQL)
	}
	printBench(stdout, report)
	return 0
}

// narrowFact is f(k, g, v): k a key of d (1..1010; 1001..1010 match no
// row), g 16 groups, v 0..99, drawn from a hash of the row number.
func narrowFact(n int) *columnar.Table {
	alloc := columnar.DefaultAllocator()
	k := columnar.NewColumnIn(alloc, columnar.TInt32, n, false)
	g := columnar.NewColumnIn(alloc, columnar.TInt32, n, false)
	v := columnar.NewColumnIn(alloc, columnar.TInt32, n, false)
	const block = 1 << 22
	blocks := (n + block - 1) / block
	parallelFor(blocks, func(b int) {
		for i := b * block; i < min(n, (b+1)*block); i++ {
			h := mix64(uint64(i))
			k.I32[i] = int32(h%(narrowDimRows+10)) + 1
			g.I32[i] = int32(h >> 20 % 16)
			v.I32[i] = int32(h >> 40 % 100)
		}
	})
	t := &columnar.Table{Name: "f", Rows: n, Columns: []*columnar.Column{k, g, v}, Fields: []columnar.Field{
		{Name: "k", Type: columnar.TInt32}, {Name: "g", Type: columnar.TInt32}, {Name: "v", Type: columnar.TInt32}}}
	columnar.ComputeStats(t)
	return t
}

// narrowDim is d(id, cat): ids 1..1000, ten categories.
func narrowDim() *columnar.Table {
	cats := make([]string, 10)
	for i := range cats {
		cats[i] = fmt.Sprintf("cat%d", i)
	}
	id := columnar.NewColumn(columnar.TInt32, narrowDimRows, false)
	cat := columnar.NewColumn(columnar.TString, narrowDimRows, false)
	cat.Dict = columnar.BuildDictionary(cats)
	for i := range narrowDimRows {
		id.I32[i] = int32(i + 1)
		code, _ := cat.Dict.Lookup(cats[i%len(cats)])
		cat.I32[i] = code
	}
	t := &columnar.Table{Name: "d", Rows: narrowDimRows, Columns: []*columnar.Column{id, cat}, Fields: []columnar.Field{
		{Name: "id", Type: columnar.TInt32}, {Name: "cat", Type: columnar.TString}}}
	columnar.ComputeStats(t)
	return t
}

// mix64 is SplitMix64's finalizer: a well-spread hash of x.
func mix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}
