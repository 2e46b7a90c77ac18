package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpusql/exec/gpu"
	"gpusql/planner"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// bench conflicts reproduces the experiment of Sitaridi and Ross
// ("Ameliorating Memory Contention of OLAP Operators on GPU Processors",
// DaMoN 2012) and goes past it: a fact column of --rows values over
// --distinct values under Zipf skew θ, hitting a table in shared memory
// once per row, written with atomics (grouped SUM) or read (foreign-key
// join), in three layouts: plain, lane-replicated (lane l on copy l mod R)
// and remapped (storage/columnar.BuildRemap). Per θ it reports the kernel
// throughput in rows/s and GB/s of the bytes read at device width (8 B a
// row for the SUM: key and measure; 4 B for the join) against the
// device's measured HBM bandwidth, the estimated serialization rounds per
// warp, the remap's copies per value and its build time.

// conflictFlags are bench conflicts' settings.
type conflictFlags struct {
	rows, distinct, replicas, runs int
	thetas                         []float64
	windows, budgets               []int
	chart, jsonOut                 string
}

// conflictRow is one line of the report: one θ, operation and layout.
type conflictRow struct {
	Theta  float64 `json:"theta"`
	Op     string  `json:"op"`
	Layout string  `json:"layout"`
	// Window and Budget: the remap's settings (remapped only).
	Window int `json:"window,omitempty"`
	Budget int `json:"budget,omitempty"`
	// Copies: table entries per distinct value (slots for the remap,
	// replicas for lane-replicated).
	Copies float64 `json:"copies_per_value"`
	// RemapSecPer100M: the remap's build time scaled to 100 M rows.
	RemapSecPer100M float64 `json:"remap_s_per_100m_rows,omitempty"`
	Rounds          float64 `json:"est_rounds_per_warp"`
	// Kernel figures: absent without a GPU.
	KernelMs float64 `json:"kernel_ms,omitempty"`
	RowsPerS float64 `json:"rows_per_s,omitempty"`
	GBps     float64 `json:"gb_per_s,omitempty"`
	HBMPct   float64 `json:"hbm_pct,omitempty"`
}

type conflictReport struct {
	Rows     int           `json:"rows"`
	Distinct int           `json:"distinct"`
	Replicas int           `json:"replicas"`
	Device   string        `json:"device"`
	HBMGBs   float64       `json:"hbm_gb_per_s"`
	Results  []conflictRow `json:"results"`
}

func benchConflicts(args []string, stdout, stderr io.Writer) int {
	f, code, done := parseConflictFlags(args, stdout, stderr)
	if done {
		return code
	}
	prof := planner.DefaultGPUProfile()
	gpuOK, why := gpu.Available()
	if gpuOK {
		if p, err := gpu.DeviceProfile(); err == nil {
			prof = p
		}
	} else {
		fmt.Fprintf(stderr, "gpusql bench conflicts: no GPU (%s): reporting remap times and estimated rounds per warp only\n", why)
	}
	rep := &conflictReport{Rows: f.rows, Distinct: f.distinct, Replicas: f.replicas, Device: prof.Name, HBMGBs: prof.HBMGBs}
	measure := make([]int32, f.rows)
	for i := range measure {
		measure[i] = int32(i%13 + 1)
	}
	payload := make([]int32, f.distinct)
	for v := range payload {
		payload[v] = int32(v*7919%10007 + 1)
	}
	// Every θ's column and remaps first, the remaps of all θ built at once
	// (one core each); then the kernels, one at a time.
	var layouts []conflictLayout
	for _, theta := range f.thetas {
		start := time.Now()
		vals := ssbgen.ZipfColumn(f.rows, f.distinct, theta, 1)
		fmt.Fprintf(stderr, "θ=%g: generated %d rows in %.2f s\n", theta, f.rows, time.Since(start).Seconds())
		layouts = append(layouts, conflictLayouts(f, theta, vals, prof)...)
	}
	start := time.Now()
	if err := buildRemaps(layouts, f.distinct, prof.Banks, prof.WarpSize); err != nil {
		fmt.Fprintln(stderr, "gpusql bench conflicts:", err)
		return 1
	}
	fmt.Fprintf(stderr, "built the remaps in %.2f s on %d cores\n", time.Since(start).Seconds(), runtime.GOMAXPROCS(0))
	for _, theta := range f.thetas {
		rows, err := conflictTheta(f, theta, layouts, measure, payload, gpuOK, prof)
		if err != nil {
			fmt.Fprintf(stderr, "gpusql bench conflicts: θ=%g: %v\n", theta, err)
			return 1
		}
		rep.Results = append(rep.Results, rows...)
	}
	printConflicts(stdout, rep, gpuOK)
	return writeConflictOutputs(f, rep, gpuOK, stderr)
}

func parseConflictFlags(args []string, stdout, stderr io.Writer) (*conflictFlags, int, bool) {
	fs := flag.NewFlagSet("bench conflicts", flag.ContinueOnError)
	f := &conflictFlags{}
	fs.IntVar(&f.rows, "rows", 200_000_000, "rows of the fact column")
	fs.IntVar(&f.distinct, "distinct", 1024, "distinct values (the cardinality C)")
	fs.IntVar(&f.replicas, "replicas", 0, "copies of the lane-replicated table (default: as many as fit 32 KiB, at most 32)")
	fs.IntVar(&f.runs, "runs", 5, "timed kernel runs per layout (the median is reported)")
	thetas := fs.String("theta", "0,0.5,1,1.5,2", "comma-separated Zipf skews θ")
	windows := fs.String("window", "2", "comma-separated remap windows (chunks before a copy written with atomics is reused); a list sweeps")
	budgets := fs.String("budget", "8", "comma-separated remap budgets (copies per value at most); a list sweeps")
	fs.StringVar(&f.chart, "chart", "", "also draw rows/s per θ and layout into `FILE` (.svg, .png or .pdf)")
	fs.StringVar(&f.jsonOut, "json", "", "also write the results as JSON to `FILE`")
	if code, done := parseFlags(fs, args, "usage: gpusql bench conflicts [flags]   shared-memory conflicts under skew: plain, lane-replicated and remapped tables", stdout, stderr); done {
		return nil, code, true
	}
	var err error
	if f.thetas, err = parseList(*thetas, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err == nil {
		if f.windows, err = parseList(*windows, strconv.Atoi); err == nil {
			f.budgets, err = parseList(*budgets, strconv.Atoi)
		}
	}
	switch {
	case err != nil:
	case f.rows < 0 || f.distinct < 1:
		err = fmt.Errorf("--rows must be at least 0 and --distinct at least 1")
	case f.rows > 1<<31-1:
		err = fmt.Errorf("--rows %d: at most %d rows (the remap's slots are int32 rows per chunk)", f.rows, 1<<31-1)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpusql bench conflicts:", err)
		return nil, 2, true
	}
	if f.replicas <= 0 {
		f.replicas = min(32, max(1, (32<<10)/(4*(f.distinct|1))))
	}
	return f, 0, false
}

// parseList parses a comma-separated list of numbers.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, p := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("list %q: %w", s, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// conflictLayout is one table layout of one operation on one θ's column
// (values), with the keys the kernel reads.
type conflictLayout struct {
	row       conflictRow
	values    []int32
	keys      []int32
	slotValue []int32
}

// conflictTheta times θ's layouts on the GPU, checking each result against
// the brute-force one.
func conflictTheta(f *conflictFlags, theta float64, all []conflictLayout, measure, payload []int32, gpuOK bool, prof *planner.GPUProfile) ([]conflictRow, error) {
	var layouts []conflictLayout
	for _, l := range all {
		if l.row.Theta == theta {
			layouts = append(layouts, l)
		}
	}
	var out []conflictRow
	if !gpuOK || len(layouts) == 0 {
		for _, l := range layouts {
			out = append(out, l.row)
		}
		return out, nil
	}
	vals := layouts[0].values
	wantSums, wantJoin := bruteConflict(vals, measure, payload, f.distinct)
	for _, l := range layouts {
		join := l.row.Op == "join"
		res, err := gpu.RunConflictKernel(gpu.ConflictRun{Join: join, Keys: l.keys, SlotValue: l.slotValue,
			Replicas: replicasOf(l), Distinct: f.distinct, Measure: measure, Payload: payload, Runs: f.runs})
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", l.row.Op, l.row.Layout, err)
		}
		if err := checkConflict(res.Sums, join, wantSums, wantJoin); err != nil {
			return nil, fmt.Errorf("%s %s: %w", l.row.Op, l.row.Layout, err)
		}
		r := l.row
		width := 8.0
		if join {
			width = 4
		}
		r.KernelMs = res.KernelMs
		if res.KernelMs > 0 {
			r.RowsPerS = float64(len(vals)) / (res.KernelMs / 1e3)
			r.GBps = r.RowsPerS * width / 1e9
			r.HBMPct = 100 * r.GBps / prof.HBMGBs
		}
		out = append(out, r)
	}
	return out, nil
}

func replicasOf(l conflictLayout) int {
	if l.row.Layout == "replicated" {
		return int(l.row.Copies)
	}
	return 1
}

// conflictLayouts lists, for the SUM and the join, the plain and
// lane-replicated layouts and one remapped layout per window and budget
// (windows apply to atomics only), the remaps still to build.
func conflictLayouts(f *conflictFlags, theta float64, vals []int32, prof *planner.GPUProfile) []conflictLayout {
	banks, warp := max(prof.Banks, 1), max(prof.WarpSize, 1)
	var out []conflictLayout
	for _, op := range []string{"sum", "join"} {
		atomic := op == "sum"
		base := conflictRow{Theta: theta, Op: op}
		plain, repl := base, base
		plain.Layout, plain.Copies = "plain", 1
		plain.Rounds = columnar.LayoutRounds(vals, 1, f.distinct, banks, warp, atomic)
		repl.Layout, repl.Copies = "replicated", float64(f.replicas)
		repl.Rounds = columnar.LayoutRounds(vals, f.replicas, f.distinct|1, banks, warp, atomic)
		out = append(out, conflictLayout{row: plain, values: vals, keys: vals}, conflictLayout{row: repl, values: vals, keys: vals})
		windows := f.windows
		if !atomic {
			windows = []int{0}
		}
		for _, w := range windows {
			for _, b := range f.budgets {
				r := base
				r.Layout, r.Window, r.Budget = "remapped", w, b
				out = append(out, conflictLayout{row: r, values: vals})
			}
		}
	}
	return out
}

// buildRemaps fills the remapped layouts, one goroutine per remap (at most
// one per core, so that each build time is one core's).
func buildRemaps(layouts []conflictLayout, distinct, banks, warp int) error {
	banks, warp = max(banks, 1), max(warp, 1)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	errs := make([]error, len(layouts))
	var wg sync.WaitGroup
	for i := range layouts {
		l := &layouts[i]
		if l.row.Layout != "remapped" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := columnar.RemapOptions{Banks: banks, Chunk: warp, Atomic: l.row.Op == "sum", Window: l.row.Window, Budget: l.row.Budget}
			start := time.Now()
			vals := l.values
			rm, err := columnar.BuildRemap(vals, distinct, o)
			if err != nil {
				errs[i] = err
				return
			}
			if len(vals) > 0 {
				l.row.RemapSecPer100M = time.Since(start).Seconds() * 1e8 / float64(len(vals))
			}
			l.keys, l.slotValue = rm.Slots, rm.SlotValue
			l.row.Copies = rm.CopiesPerValue()
			if rm.Chunks > 0 {
				l.row.Rounds = float64(rm.Rounds) / float64(rm.Chunks)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// bruteConflict is the expected per-value SUM of measure and join payload
// sum, from first principles.
func bruteConflict(vals, measure, payload []int32, distinct int) ([]uint64, uint64) {
	sums := make([]uint64, distinct)
	var join uint64
	for i, v := range vals {
		sums[v] += uint64(measure[i])
		join += uint64(payload[v])
	}
	return sums, join
}

func checkConflict(got []uint64, join bool, wantSums []uint64, wantJoin uint64) error {
	if join {
		if got[0] != wantJoin {
			return fmt.Errorf("payload sum %d, want %d", got[0], wantJoin)
		}
		return nil
	}
	for v, w := range wantSums {
		if got[v] != w {
			return fmt.Errorf("value %d sums to %d, want %d", v, got[v], w)
		}
	}
	return nil
}

func printConflicts(w io.Writer, r *conflictReport, gpuOK bool) {
	fmt.Fprintf(w, "%d rows, %d distinct values, lane-replicated: %d copies; %s, HBM %.0f GB/s\n", r.Rows, r.Distinct, r.Replicas, r.Device, r.HBMGBs)
	fmt.Fprintf(w, "%-5s %-4s %-10s %6s %6s %7s %9s %7s", "θ", "op", "layout", "window", "budget", "copies", "remap s/", "rounds/")
	if gpuOK {
		fmt.Fprintf(w, " %9s %10s %8s %6s", "kernel", "G rows/s", "GB/s", "% HBM")
	}
	fmt.Fprintf(w, "\n%-5s %-4s %-10s %6s %6s %7s %9s %7s\n", "", "", "", "", "", "/value", "100M rows", "warp")
	for _, x := range r.Results {
		win, bud, remap := "-", "-", "-"
		if x.Layout == "remapped" {
			bud, remap = strconv.Itoa(x.Budget), fmt.Sprintf("%.2f", x.RemapSecPer100M)
			if x.Op == "sum" {
				win = strconv.Itoa(x.Window)
			}
		}
		fmt.Fprintf(w, "%-5g %-4s %-10s %6s %6s %7.2f %9s %7.2f", x.Theta, x.Op, x.Layout, win, bud, x.Copies, remap, x.Rounds)
		if gpuOK {
			fmt.Fprintf(w, " %7.3fms %10.2f %8.1f %5.1f%%", x.KernelMs, x.RowsPerS/1e9, x.GBps, x.HBMPct)
		}
		fmt.Fprintln(w)
	}
}

func writeConflictOutputs(f *conflictFlags, r *conflictReport, gpuOK bool, stderr io.Writer) int {
	if f.jsonOut != "" {
		b, _ := json.MarshalIndent(r, "", "  ")
		if err := os.WriteFile(f.jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(stderr, "gpusql bench conflicts:", err)
			return 1
		}
	}
	if f.chart != "" {
		if !gpuOK {
			fmt.Fprintln(stderr, "gpusql bench conflicts: --chart needs kernel times, hence a GPU")
			return 1
		}
		if err := conflictChart(f.chart, r); err != nil {
			fmt.Fprintln(stderr, "gpusql bench conflicts: chart:", err)
			return 1
		}
		fmt.Fprintf(stderr, "wrote %s\n", f.chart)
	}
	return 0
}

// conflictChart draws G rows/s per θ: one bar per operation and layout
// (the first window and budget of a sweep for the remapped one).
func conflictChart(path string, r *conflictReport) error {
	var thetas []string
	var series []chartSeries
	index := map[string]int{}
	for _, x := range r.Results {
		th := strconv.FormatFloat(x.Theta, 'g', -1, 64)
		if len(thetas) == 0 || thetas[len(thetas)-1] != "θ="+th {
			thetas = append(thetas, "θ="+th)
		}
		name := x.Op + " " + x.Layout
		i, ok := index[name]
		if !ok {
			i = len(series)
			index[name] = i
			series = append(series, chartSeries{name: name, ms: map[string]float64{}})
		}
		if _, seen := series[i].ms["θ="+th]; !seen {
			series[i].ms["θ="+th] = x.RowsPerS / 1e9
		}
	}
	title := fmt.Sprintf("%d M rows, %d values, Zipf θ: shared-memory SUM and join (%s; HBM limit %.0f G rows/s SUM, %.0f join)",
		r.Rows/1_000_000, r.Distinct, r.Device, r.HBMGBs/8, r.HBMGBs/4)
	return writeBarChart(path, title, "G rows/s", thetas, series)
}
