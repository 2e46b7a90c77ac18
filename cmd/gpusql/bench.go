package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gpusql/engine"
	"gpusql/exec"
	"gpusql/exec/gpu"
	"gpusql/storage/ssbgen"
)

func benchMain(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "ssb":
			return benchSSB(args[1:], stdout, stderr)
		case "load":
			return benchLoad(args[1:], stdout, stderr)
		case "open":
			return benchOpen(args[1:], stdout, stderr)
		case "serve":
			return benchServe(args[1:], stdout, stderr)
		case "simjoin":
			return benchSimjoin(args[1:], stdout, stderr)
		case "join":
			return benchJoin(args[1:], stdout, stderr)
		case "conflicts":
			return benchConflicts(args[1:], stdout, stderr)
		case "uva":
			return benchUVA(args[1:], stdout, stderr)
		case "narrow":
			return benchNarrow(args[1:], stdout, stderr)
		case "skeletons":
			return benchSkeletons(args[1:], stdout, stderr)
		}
		if isHelp(args[0]) {
			benchSSB([]string{"--help"}, stdout, stderr)
			fmt.Fprintln(stdout)
			benchOpen([]string{"--help"}, stdout, stderr)
			fmt.Fprintln(stdout)
			return benchLoad([]string{"--help"}, stdout, stderr)
		}
	}
	fmt.Fprintln(stderr, "usage: gpusql bench ssb|load|open|serve|simjoin|join|conflicts|uva|narrow|skeletons ... (gpusql bench NAME --help lists the flags)")
	return 2
}

// dataDir returns a folder holding SSB data and schema.sql: data if given,
// else a temporary folder generated at sf (removed by cleanup). Only the
// benchmarks that measure text (bench load, bench open) need it; the
// others generate into memory (fillSSB).
func dataDir(data string, sf float64, format string, stderr io.Writer) (dir string, cleanup func(), err error) {
	if data != "" {
		return data, func() {}, nil
	}
	dir, err = os.MkdirTemp("", "gpusql-ssb-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	start := time.Now()
	counts, err := ssbgen.Generate(ssbgen.Options{SF: sf, Out: dir, Format: ssbgen.Format(format)})
	if err != nil {
		cleanup()
		return "", nil, err
	}
	fmt.Fprintf(stderr, "generated SSB SF %g in %.2f s (%d lineorder rows)\n", sf, time.Since(start).Seconds(), counts["lineorder"])
	return dir, cleanup, nil
}

// loadSchema runs dir/schema.sql, reporting each LOAD.
func loadSchema(ctx context.Context, db *engine.DB, dir string, report func(*engine.StatementResult)) error {
	path := filepath.Join(dir, "schema.sql")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return db.ExecStream(ctx, string(b), dir, func(r *engine.StatementResult) error {
		report(r)
		return nil
	})
}

// queryTiming is one query on one executor.
type queryTiming struct {
	// ColdMs is a run with none of the query's columns in device memory.
	// For a GPU, FirstMs is the first such run in the process, which also
	// makes the host copies of its columns a cold load sends (packed, run
	// length, pinned: exec/gpu/packed_copies.go) where no earlier query
	// made them, and ColdMs a second one after the device's columns were
	// dropped again, with those copies kept: what every later cold run of
	// the query pays.
	FirstMs float64   `json:"first_ms,omitempty"`
	ColdMs  float64   `json:"cold_ms"`
	WarmMs  float64   `json:"warm_ms"`
	RunsMs  []float64 `json:"runs_ms"`
	// GBps is bytes of the columns touched over the warm median; ColdGBps
	// over the cold time, which for the GPU includes copying them over PCIe.
	GBps     float64 `json:"gb_per_s"`
	ColdGBps float64 `json:"cold_gb_per_s"`
	// The GPU's profiled run (one more warm run with every kernel timed by
	// CUDA events): KernelMs is the sum of its kernels' device times,
	// HostMs the warm median minus that (launches, synchronizations, small
	// copies, host steps), DeviceBytes the columns read as stored on the
	// device (a BIGINT narrowed to 4 bytes counts 4); FetchBytes the
	// plan's estimate of what the kernels fetch of them (a star reads fact
	// columns only for rows alive: engine.Prepared.FetchBytes; 0 when
	// not estimated); KernelGBps is the fetched bytes (else the device
	// bytes) over the kernel time and HBMPct its share of the profile's
	// measured HBM read rate (HBMGBs).
	KernelMs    float64 `json:"kernel_ms,omitempty"`
	HostMs      float64 `json:"host_ms,omitempty"`
	Kernels     int     `json:"kernels,omitempty"`
	DeviceBytes int64   `json:"device_bytes,omitempty"`
	FetchBytes  int64   `json:"fetch_bytes,omitempty"`
	KernelGBps  float64 `json:"kernel_gb_per_s,omitempty"`
	HBMPct      float64 `json:"hbm_pct,omitempty"`
	HBMGBs      float64 `json:"hbm_gb_per_s,omitempty"`
	// MovedBytes is what the kernels read and wrote at device width, as
	// each launch site counts it (outputs, row-id lists, a sort's passes
	// included); Unnoted counts the kernels whose launch site does not
	// say, whose bytes MovedBytes leaves out.
	MovedBytes int64 `json:"moved_bytes,omitempty"`
	Unnoted    int   `json:"unnoted_kernels,omitempty"`
	// KernelTable is the profiled run's kernel by kernel table
	// (QueryProfile.Table), for bench skeletons --kernels.
	KernelTable string `json:"-"`
}

type queryReport struct {
	Name  string `json:"query"`
	Rows  int    `json:"rows"`
	Bytes int64  `json:"bytes_scanned"`
	// LinkBytes is what the GPU plan reads across the host link each run
	// (streamed and zero-copy columns; 0 when all are resident).
	LinkBytes int64                   `json:"link_bytes,omitempty"`
	Executors map[string]*queryTiming `json:"executors"`
	// PlanMs is the median host time to parse, bind and plan the query
	// (the GPU's part included on a GPU database), which the timed runs
	// leave out; CachedPlanMs the median time to get the same plan from
	// the plan cache, as a repeated statement does.
	PlanMs       float64 `json:"plan_ms"`
	CachedPlanMs float64 `json:"cached_plan_ms"`
}

type benchReport struct {
	SF        float64  `json:"sf,omitempty"`
	Data      string   `json:"data,omitempty"`
	Runs      int      `json:"runs"`
	Executors []string `json:"executor_order"`
	// Packing is --packing: the GPU's fact columns bit-packed or not.
	Packing   string             `json:"packing"`
	Queries   []*queryReport     `json:"queries"`
	TotalWarm map[string]float64 `json:"total_warm_s"`
	// LinkGBs is the pinned host-to-device copy rate measured after the
	// timed runs when some plan streamed: the limit the link columns are
	// judged against, from the same process and machine.
	LinkGBs float64 `json:"link_copy_gbs,omitempty"`
}

func benchSSB(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench ssb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := fs.Float64("sf", 1, "scale factor to generate (ignored with --data)")
	data := fs.String("data", "", "folder with schema.sql and the table files to load (default: generate straight into memory, no files)")
	workers := fs.Int("workers", 0, "goroutines generating the data (0: one per CPU; ignored with --data)")
	executors := fs.String("executor", "auto", "comma-separated executors to time: cpu, gpu; auto: gpu,cpu when a GPU is usable, else cpu")
	runs := fs.Int("runs", 5, "warm runs per query (the median is reported)")
	jsonOut := fs.String("json", "", "also write the results as JSON to `FILE`")
	only := fs.String("queries", "", "comma-separated query names to run (e.g. Q1.1,Q3.2); default all 13")
	dbPath := fs.String("db", "", "keep the data in the database directory `PATH`: generated in memory and written there on the first run, opened on the next ones")
	gpuMemory := fs.String("gpu-memory", "default", "GPU memory budget of each query's plan, as `SIZE` 256MB: a fact table that does not fit streams in chunks (see EXPLAIN)")
	packing := fs.String("packing", "transfer", "the GPU's resident fact columns: sent bit-packed and unpacked there (`transfer`), kept bit-packed (on) or copied 4 bytes a value (off)")
	gpuSets := fs.String("gpus", "", "time the GPU executor on each device set of `SETS`, lists of device indices separated by / (0/0,1: one GPU, then two); default: every visible GPU")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the timed runs to `FILE` (go tool pprof): where the host time goes")
	chart := fs.String("chart", "", "also draw the times as grouped bars into `FILE` (.svg, .png or .pdf)")
	var compare []string
	fs.Func("compare", "add the figures of `FILE` to the chart: a bench --json report or {\"series\": {\"Q1.1\": ms}} (repeatable)", func(v string) error {
		compare = append(compare, v)
		return nil
	})
	if code, done := parseFlags(fs, args, "usage: gpusql bench ssb [flags]   time the 13 Star Schema Benchmark queries", stdout, stderr); done {
		return code
	}
	if *dbPath != "" && *data != "" {
		fmt.Fprintln(stderr, "gpusql bench: give --data or --db, not both")
		return 2
	}
	exes, code := benchExecutors(*executors, stderr)
	if code != 0 {
		return code
	}
	if *runs < 1 {
		*runs = 1
	}
	exes, err := gpuExecutors(exes, *gpuSets)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench: --gpus:", err)
		return 2
	}
	gpuMem, err := engine.ParseGPUMemory(*gpuMemory)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench: --gpu-memory:", err)
		return 2
	}
	if *packing != "on" && *packing != "off" && *packing != "transfer" {
		fmt.Fprintf(stderr, "gpusql bench: --packing %q: want transfer, on or off\n", *packing)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	// Opening for the GPU puts the loaded columns in pinned host memory, so
	// the cold runs measure copies at PCIe speed, as a GPU session sees them.
	// (Columns opened from a database are mapped pageable memory instead.)
	primary := "cpu"
	if slices.ContainsFunc(exes, isGPU) {
		primary = "gpu"
	}
	db, err := benchDB(ctx, *dbPath, *data, *sf, *workers, primary, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench:", err)
		return 1
	}
	defer db.Close()
	db.SetGPUMemory(gpuMem)
	if err := db.SetGPUPacking(*packing); err != nil {
		fmt.Fprintln(stderr, "gpusql bench: --packing:", err)
		return 2
	}

	if *data != "" {
		*sf = 0 // the data's scale factor is whatever generated it
	}
	report := &benchReport{SF: *sf, Data: *data, Runs: *runs, Executors: exes, Packing: *packing, TotalWarm: map[string]float64{}}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "gpusql bench: --cpuprofile:", err)
			return 1
		}
		defer stopProfile()
	}
	var queries []ssbgen.Query
	for _, q := range ssbgen.Queries() {
		if *only == "" || slices.Contains(strings.Split(*only, ","), q.Name) {
			queries = append(queries, q)
		}
	}
	if err := timeQueries(ctx, db, report, queries, stderr); err != nil {
		fmt.Fprintln(stderr, "gpusql bench:", err)
		return 1
	}
	if slices.ContainsFunc(report.Queries, func(q *queryReport) bool { return q.LinkBytes > 0 }) {
		if report.LinkGBs, err = gpu.MeasureLink(linkProbeBytes, 5); err != nil {
			fmt.Fprintln(stderr, "gpusql bench: measuring the link:", err)
		}
	}
	printBench(stdout, report)
	if *chart != "" {
		if err := benchChart(*chart, report, compare); err != nil {
			fmt.Fprintln(stderr, "gpusql bench: chart:", err)
			return 1
		}
		fmt.Fprintf(stderr, "wrote %s\n", *chart)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(stderr, "gpusql bench:", err)
			return 1
		}
	}
	return 0
}

// benchDB is the database bench ssb times: the one at dbPath (reused, or
// generated into once), or a new in-memory one loaded from data or
// generated in memory at sf.
func benchDB(ctx context.Context, dbPath, data string, sf float64, workers int, executor string, stderr io.Writer) (*engine.DB, error) {
	if dbPath != "" {
		return openSSB(ctx, dbPath, sf, workers, executor, stderr)
	}
	db, err := engine.Open(engine.Options{Executor: executor})
	if err != nil {
		return nil, err
	}
	if err := fillSSB(ctx, db, data, sf, workers, stderr); err != nil {
		return nil, err
	}
	return db, nil
}

// timeQueries times each query on report's executors (benchQuery) into
// report, saying on stderr as each one finishes.
func timeQueries(ctx context.Context, db *engine.DB, report *benchReport, queries []ssbgen.Query, stderr io.Writer) error {
	for _, q := range queries {
		qr, err := benchQuery(ctx, db, q, report.Executors, report.Runs)
		if err != nil {
			return fmt.Errorf("%s: %w", q.Name, err)
		}
		fmt.Fprintf(stderr, "%s done\n", q.Name)
		report.Queries = append(report.Queries, qr)
	}
	return nil
}

// benchQuery plans q once and times it on every executor: a cold first run
// (for a GPU two: FirstMs, then ColdMs), then runs warm runs whose median
// is reported. The results of all
// executors must agree before any time is reported.
func benchQuery(ctx context.Context, db *engine.DB, q ssbgen.Query, exes []string, runs int) (*queryReport, error) {
	prep, err := db.Prepare(q.SQL)
	if err != nil {
		return nil, err
	}
	qr := &queryReport{Name: q.Name, Bytes: prep.ScannedBytes(), Executors: map[string]*queryTiming{}}
	if qr.PlanMs, qr.CachedPlanMs, err = timePlanning(db, q.SQL, max(runs, 5)); err != nil {
		return nil, err
	}
	var first *exec.Result
	linked := false
	for _, e := range exes {
		prep, run, err := onDevices(db, q.SQL, prep, e)
		if err != nil {
			return nil, err
		}
		if isGPU(e) && !linked {
			// The first GPU executor's plan: a device set's plan may
			// place columns otherwise than the default one.
			qr.LinkBytes, linked = prep.LinkBytes(), true
		}
		t := &queryTiming{}
		var res *exec.Result
		from := 0
		if isGPU(e) {
			from = -1 // the run that makes the host copies, then a cold one
		}
		for i := from; i <= runs; i++ {
			if i <= 0 && isGPU(e) {
				// Cold means no column of the query on the device yet.
				if err := engine.DropGPUCache(); err != nil {
					return nil, err
				}
			}
			start := time.Now()
			r, err := db.Run(ctx, prep, run)
			ms := float64(time.Since(start).Microseconds()) / 1000
			if err != nil {
				return nil, fmt.Errorf("%s executor: %w", e, err)
			}
			switch {
			case i < 0:
				t.FirstMs = ms
			case i == 0:
				t.ColdMs, res = ms, r
			default:
				t.RunsMs = append(t.RunsMs, ms)
			}
		}
		sorted := slices.Clone(t.RunsMs)
		slices.Sort(sorted)
		t.WarmMs = sorted[len(sorted)/2]
		if len(sorted)%2 == 0 {
			t.WarmMs = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
		}
		if t.WarmMs > 0 {
			t.GBps = float64(qr.Bytes) / (t.WarmMs / 1000) / 1e9
		}
		if t.ColdMs > 0 {
			t.ColdGBps = float64(qr.Bytes) / (t.ColdMs / 1000) / 1e9
		}
		if isGPU(e) {
			t.FetchBytes = prep.FetchBytes()
			if err := profileGPU(ctx, db, prep, t); err != nil {
				return nil, err
			}
		}
		if first == nil {
			first, qr.Rows = res, res.Rows
		} else if err := engine.CompareResults(res, first, prep.Ordered()); err != nil {
			return nil, fmt.Errorf("%s and %s executors disagree: %w", e, exes[0], err)
		}
		qr.Executors[e] = t
	}
	return qr, nil
}

// timePlanning is the median of runs plannings of text from scratch, and
// of runs lookups of its plan in the plan cache.
func timePlanning(db *engine.DB, text string, runs int) (planMs, cachedMs float64, err error) {
	var fresh, cached []float64
	for range runs {
		start := time.Now()
		if _, err := db.Prepare(text); err != nil {
			return 0, 0, err
		}
		fresh = append(fresh, float64(time.Since(start).Nanoseconds())/1e6)
	}
	if _, _, err := db.PrepareCached(text); err != nil {
		return 0, 0, err
	}
	for range runs {
		start := time.Now()
		_, hit, err := db.PrepareCached(text)
		if err != nil {
			return 0, 0, err
		}
		if !hit {
			return 0, 0, fmt.Errorf("the plan cache did not keep the query's plan (is plan_cache off?)")
		}
		cached = append(cached, float64(time.Since(start).Nanoseconds())/1e6)
	}
	return median(fresh), median(cached), nil
}

// printPlanTotals sums the planning columns: host time per statement that
// the timed runs leave out, and what the plan cache leaves of it.
func printPlanTotals(w io.Writer, r *benchReport) {
	var fresh, cached float64
	for _, q := range r.Queries {
		fresh += q.PlanMs
		cached += q.CachedPlanMs
	}
	fmt.Fprintf(w, "planning (parse, bind, plan; not in the timed runs): %.3f ms over all queries, %.4f ms from the plan cache\n", fresh, cached)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

func printBench(w io.Writer, r *benchReport) {
	link := false
	for _, q := range r.Queries {
		link = link || q.LinkBytes > 0
	}
	nameW := 6
	for _, q := range r.Queries {
		nameW = max(nameW, len(q.Name))
	}
	fmt.Fprintf(w, "%-*s %8s %10s %8s %9s", nameW, "query", "rows", "MB", "plan ms", "cached ms")
	for _, e := range r.Executors {
		fmt.Fprintf(w, " | %4s %9s %7s %9s %7s", e, "cold ms", "GB/s", "warm ms", "GB/s")
		if isGPU(e) {
			fmt.Fprintf(w, " %7s %8s %8s %8s %8s %5s %9s", "kernels", "kern ms", "host ms", "dev MB", "read MB", "%HBM", "first ms")
		}
	}
	if link {
		// A plan under --gpu-memory reads some columns across the link on
		// every run: its bytes there and their rate over the GPU's warm time.
		fmt.Fprintf(w, " | %8s %9s", "link MB", "link GB/s")
		if r.LinkGBs > 0 {
			fmt.Fprintf(w, " %6s", "%link")
		}
	}
	fmt.Fprintln(w)
	for _, q := range r.Queries {
		fmt.Fprintf(w, "%-*s %8d %10.1f %8.3f %9.4f", nameW, q.Name, q.Rows, float64(q.Bytes)/1e6, q.PlanMs, q.CachedPlanMs)
		for _, e := range r.Executors {
			t := q.Executors[e]
			fmt.Fprintf(w, " | %4s %9.2f %7.2f %9.2f %7.2f", "", t.ColdMs, t.ColdGBps, t.WarmMs, t.GBps)
			if isGPU(e) {
				fmt.Fprintf(w, " %7d %8.3f %8.3f %8.1f %8.1f %5.1f %9.2f", t.Kernels, t.KernelMs, t.HostMs, float64(t.DeviceBytes)/1e6, float64(t.readBytes())/1e6, t.HBMPct, t.FirstMs)
			}
			r.TotalWarm[e] += t.WarmMs / 1000
		}
		if t := firstGPU(r.Executors, q); link && t != nil && t.WarmMs > 0 {
			rate := float64(q.LinkBytes) / t.WarmMs / 1e6
			fmt.Fprintf(w, " | %8.1f %9.1f", float64(q.LinkBytes)/1e6, rate)
			if r.LinkGBs > 0 {
				fmt.Fprintf(w, " %6.1f", 100*rate/r.LinkGBs)
			}
		}
		fmt.Fprintln(w)
	}
	var totals []string
	for _, e := range r.Executors {
		totals = append(totals, fmt.Sprintf("%s %.3f s", e, r.TotalWarm[e]))
	}
	printPlanTotals(w, r)
	printGPUTotals(w, r)
	if r.LinkGBs > 0 {
		fmt.Fprintf(w, "link: pinned host-to-device copies measured after the runs at %.1f GB/s (%s); %%link: link GB/s against it\n", r.LinkGBs, fmtProbe(linkProbeBytes))
	}
	if len(r.Executors) == 1 {
		fmt.Fprintf(w, "%d queries, total warm %.3f s\n", len(r.Queries), r.TotalWarm[r.Executors[0]])
	} else {
		fmt.Fprintf(w, "%d queries, total warm %s\n", len(r.Queries), strings.Join(totals, ", "))
	}
}

// benchLoad times loading generated SSB data, table by table.
func benchLoad(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := fs.Float64("sf", 1, "scale factor to generate")
	data := fs.String("data", "", "folder with schema.sql and the table files (default: generate)")
	format := fs.String("format", "tbl", "file format to generate: tbl, csv or parquet")
	if code, done := parseFlags(fs, args, "usage: gpusql bench load [flags]   time loading SSB data, table by table", stdout, stderr); done {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, cleanup, err := dataDir(*data, *sf, *format, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench:", err)
		return 1
	}
	defer cleanup()
	db, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench:", err)
		return 1
	}
	// Throughput is file bytes per second; the generated files are named
	// after their tables.
	fileBytes := map[string]int64{}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && !e.IsDir() {
				name := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
				fileBytes[name] += info.Size()
			}
		}
	}
	var total time.Duration
	var rows, bytes int64
	err = loadSchema(ctx, db, dir, func(r *engine.StatementResult) {
		if r.RowsAffected == 0 {
			return
		}
		words := strings.Fields(r.Message)
		size := fileBytes[words[len(words)-1]]
		total += r.Elapsed
		rows += r.RowsAffected
		bytes += size
		fmt.Fprintf(stdout, "%-44s %8.3f s %8.2f M rows/s %8.1f MB/s\n", r.Message, r.Elapsed.Seconds(),
			float64(r.RowsAffected)/r.Elapsed.Seconds()/1e6, float64(size)/r.Elapsed.Seconds()/1e6)
	})
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench: load:", err)
		return 1
	}
	fmt.Fprintf(stdout, "loaded %d rows (%.1f MB of %s) in %.3f s: %.1f MB/s on %d cores\n", rows, float64(bytes)/1e6, *format,
		total.Seconds(), float64(bytes)/total.Seconds()/1e6, runtime.NumCPU())
	return 0
}

// linkProbeBytes is the pinned buffer bench ssb copies to measure the link:
// large enough that the copy's fixed cost is under 1 %.
const linkProbeBytes = 1 << 30

func fmtProbe(n int64) string { return fmt.Sprintf("median of 5 copies of %d MiB", n>>20) }
