package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/exec/gpu"
)

// benchUVA runs `gpusql bench uva`: Kaldewey et al.'s GPU hash join over
// two tables of 8-byte tuples in pinned host memory (exec/gpu/uva_bench.go),
// and prints each mode's GB/s next to the link limits measured in the same
// run.
func benchUVA(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench uva", flag.ContinueOnError)
	build := fs.String("build-rows", "16M", "build table size in 8-byte tuples, as `N` 16M or 1G (K, M, G count powers of 1024; below 2G)")
	probe := fs.String("probe-rows", "", "probe table size in tuples (default: the build table's)")
	match := fs.String("match", "0.01,0.1,0.5,1", "comma-separated match `RATES`: the fraction of probe tuples that find a build tuple")
	streams := fs.Int("streams", 3, "CUDA streams of the streamed mode (one device chunk buffer each)")
	chunk := fs.String("chunk-rows", "4M", "tuples per chunk of the streamed mode")
	runs := fs.Int("runs", 3, "runs per configuration (the median is reported)")
	jsonOut := fs.String("json", "", "also write the results as JSON to `FILE`")
	usage := "usage: gpusql bench uva [flags]   GPU hash join over pinned host memory: zero-copy, copies, streamed chunks"
	if code, done := parseFlags(fs, args, usage, stdout, stderr); done {
		return code
	}
	opt := gpu.UVABenchOptions{Streams: *streams, Runs: *runs}
	var err error
	if opt.BuildRows, err = parseCount("--build-rows", *build); err == nil {
		opt.ProbeRows = opt.BuildRows
		if *probe != "" {
			opt.ProbeRows, err = parseCount("--probe-rows", *probe)
		}
	}
	if err == nil {
		opt.ChunkRows, err = parseCount("--chunk-rows", *chunk)
	}
	if err == nil {
		opt.MatchRates, err = parseRates(*match)
	}
	if err == nil && (opt.BuildRows < 1 || opt.BuildRows >= 1<<31 || opt.ProbeRows >= 1<<31) {
		err = fmt.Errorf("--build-rows and --probe-rows must be in [1, 2G) (have %d and %d)", opt.BuildRows, opt.ProbeRows)
	}
	if err == nil && (opt.Streams < 1 || opt.ChunkRows < 1) {
		err = fmt.Errorf("--streams and --chunk-rows must be positive")
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench uva:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := gpu.BenchUVA(ctx, opt, func(r gpu.UVAResult) {
		fmt.Fprintf(stderr, "%s, result cache %v, match %g done\n", r.Mode, r.Cache, r.Match)
	})
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench uva:", err)
		return 1
	}
	printUVA(stdout, rep)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(stderr, "gpusql bench uva:", err)
			return 1
		}
	}
	return 0
}

// parseCount reads a tuple count: a number with an optional K, M or G
// (powers of 1024, as the paper's 16M-tuple tables).
func parseCount(flag, s string) (int64, error) {
	n, err := exec.ParseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", flag, strings.ReplaceAll(err.Error(), "byte size", "count"))
	}
	return n, nil
}

func parseRates(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v < 0 || v > 1 {
			return nil, fmt.Errorf("--match: %q is not a rate between 0 and 1", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// printUVA prints the link limits, then one row per configuration with
// its GB/s of input tuples and the end-to-end rate as a percentage of each
// limit.
func printUVA(w io.Writer, r *gpu.UVAReport) {
	fmt.Fprintf(w, "%s: build %d x probe %d tuples of 8 B; streamed: %d streams, chunks of %d tuples\n",
		r.Device, r.BuildRows, r.ProbeRows, r.Streams, r.ChunkRows)
	fmt.Fprintf(w, "measured link: pinned copies %.1f GB/s, zero-copy reads %.1f GB/s\n\n", r.CopyGBs, r.ZeroCopyGBs)
	fmt.Fprintf(w, "%-10s %-6s %6s %11s %9s %10s %10s %10s %8s %8s\n",
		"mode", "cache", "match", "matches", "build ms", "build GB/s", "probe GB/s", "total GB/s", "% copy", "% zero")
	for _, x := range r.Results {
		cache := "off"
		if x.Cache {
			cache = "on"
		}
		fmt.Fprintf(w, "%-10s %-6s %6g %11d %9.2f %10.1f %10.1f %10.1f %7.0f%% %7.0f%%\n",
			x.Mode, cache, x.Match, x.Matches, x.BuildMs, x.BuildGBs, x.ProbeGBs, x.TotalGBs,
			100*x.TotalGBs/r.CopyGBs, 100*x.TotalGBs/r.ZeroCopyGBs)
	}
}
