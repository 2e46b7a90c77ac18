package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"gpusql/engine"
	"gpusql/storage/ssbgen"
)

// ssbTables is the order tables are reported in.
var ssbTables = []string{"lineorder", "customer", "supplier", "part", "date"}

// genMain runs "gpusql gen ssb".
func genMain(args []string, stdout, stderr io.Writer) int {
	const usage = "usage: gpusql gen ssb --sf N --out DIR [--format tbl|csv|parquet] [--seed S] [--workers W] [--skew THETA]"
	if len(args) > 0 && isHelp(args[0]) {
		args = []string{"ssb", "--help"}
	}
	if len(args) == 0 || args[0] != "ssb" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("gen ssb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := fs.Float64("sf", 1, "scale factor (fractions such as 0.01 work)")
	out := fs.String("out", "", "output folder (created; gets the table files and schema.sql)")
	format := fs.String("format", "tbl", "file format: tbl (dbgen's), csv or parquet")
	seed := fs.Uint64("seed", 0, "random seed; the same SF and seed give the same files")
	workers := fs.Int("workers", 0, "generating goroutines (0: one per CPU)")
	skew := fs.Float64("skew", 0, "draw lo_custkey and lo_partkey under Zipf skew `THETA` (0: uniform, as dbgen)")
	noProgress := fs.Bool("no-progress", false, "do not show the elapsed time while generating (shown only when stderr is a terminal)")
	if code, done := parseFlags(fs, args[1:], usage, stdout, stderr); done {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "gpusql gen ssb: --out DIR is required")
		return 2
	}
	start := time.Now()
	bar := newProgressBar(stderr, *noProgress)
	if bar != nil {
		bar.report(engine.Progress{Task: fmt.Sprintf("gen ssb --sf %g", *sf)})
	}
	counts, err := ssbgen.Generate(ssbgen.Options{SF: *sf, Out: *out, Format: ssbgen.Format(*format), Seed: *seed, Workers: *workers, Skew: *skew})
	if bar != nil {
		bar.report(engine.Progress{Finished: true})
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpusql:", err)
		return 1
	}
	printCounts(stdout, counts)
	fmt.Fprintf(stdout, "wrote SSB SF %g (%s) to %s in %.2f s; load it with: gpusql -f %s/schema.sql\n",
		*sf, *format, *out, time.Since(start).Seconds(), *out)
	return 0
}

func printCounts(w io.Writer, counts ssbgen.Counts) {
	for _, t := range ssbTables {
		fmt.Fprintf(w, "%-10s %12d rows\n", t, counts[t])
	}
}
