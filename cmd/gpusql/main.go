// Command gpusql is the gpusql SQL shell and tool.
//
//	gpusql [PATH] [flags]                interactive shell (REPL)
//	gpusql [flags] -f script.sql -c SQL  run scripts and statements in order
//	gpusql gen ssb --sf N --out DIR      generate Star Schema Benchmark data
//	gpusql bench ssb --sf N [--chart F]  time the 13 SSB queries
//	gpusql bench load --sf N             time loading SSB data
//	gpusql bench open --sf N             time opening SSB from a database vs loading text
//	gpusql bench conflicts               shared-memory conflicts: plain, replicated, remapped
//	gpusql serve -f init.sql --mysql ADDR [--flight ADDR]  serve clients
//
// Flags: --format table|csv|json|markdown|line, --executor cpu|gpu|auto,
// --check (run each query on both executors and compare), --timing,
// --no-progress; every command lists its own with --help.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"

	"gpusql/engine"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "gen":
			return genMain(args[1:], stdout, stderr)
		case "bench":
			return benchMain(args[1:], stdout, stderr)
		case "serve":
			return serveMain(args[1:], stdout, stderr)
		case "help":
			return shellMain([]string{"--help"}, stdin, stdout, stderr)
		}
	}
	return shellMain(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  gpusql [PATH] [flags]               interactive shell on the database directory PATH
                                      (created when absent; without PATH: in memory)
  gpusql [PATH] [flags] -f FILE -c SQL ...   run scripts (-f) and statements (-c) in order, then exit
  gpusql gen ssb --sf N --out DIR [--format tbl|csv|parquet] [--seed S]
  gpusql bench ssb --sf N [--data DIR] [--executor cpu[,gpu]] [--runs R] [--json FILE] [--chart F.svg]
  gpusql bench ssb --sf N --db PATH   the same on a database: generated once, opened on later runs
  gpusql bench load --sf N [--format tbl|csv|parquet]
  gpusql bench open --sf N [--format tbl|csv|parquet] [--db PATH]
                                      load-from-text time vs open time, size on disk vs text
  gpusql bench serve --sf N [--clients 1,8,64] [--rounds R] [--stream-rows N]
  gpusql bench simjoin [--points N] [--dims 16,32,64] [--uniform-dims 2,6] [--eps E,...]
                                      ε-similarity self-join: GPU vs CPU vs brute force
  gpusql bench join [--sizes 4M,16M,64M] [--huge] [--dist uniform,zipf] [--executor cpu,gpu]
  gpusql bench conflicts [--rows N] [--distinct C] [--theta 0,1,2] [--window 0,2] [--budget 4,8] [--chart F.svg]
                                      shared-memory conflicts under skew: plain, lane-replicated, remapped
  gpusql serve [-f init.sql] [--mysql 127.0.0.1:3306] [--flight ADDR] [--file-root DIR]
               [--tls-cert FILE --tls-key FILE] [--insecure-no-auth]   (gpusql serve -h)

flags:
`)
}

// isHelp reports whether a subcommand's first argument asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// parseFlags parses a command's flags. -h / --help prints the usage line
// and every flag to stdout and ends the command with status 0; a bad flag
// prints the error, the usage and the flags to stderr and ends it with 2.
func parseFlags(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (code int, done bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintln(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "gpusql %s: %v\n%s\n", fs.Name(), err, usage)
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		return 2, true
	}
	fs.SetOutput(stderr)
	return 0, false
}

// item is one -f or -c argument; they run in the order given.
type item struct {
	file bool
	text string
}

type itemsFlag struct {
	items *[]item
	file  bool
}

func (f itemsFlag) String() string { return "" }
func (f itemsFlag) Set(v string) error {
	*f.items = append(*f.items, item{file: f.file, text: v})
	return nil
}

// session is a database with the output settings of one gpusql run.
type session struct {
	db      *engine.DB
	format  string
	timing  bool
	out     printer
	stdout  io.Writer
	stderr  io.Writer
	msgOut  io.Writer // messages: stdout for tables, stderr for csv/json
	explain io.Writer
	// resultOut is where results go: stdout, or the file of .output/.once
	// (outFile; once: for one result).
	resultOut io.Writer
	outFile   *os.File
	once      bool
	// width and maxRows fit table results to the terminal (0: no limit).
	width, maxRows int
	// progress draws running statements on a terminal's stderr, or is nil.
	progress *progressBar
}

func shellMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpusql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var items []item
	fs.Var(itemsFlag{&items, true}, "f", "run the SQL script `FILE` (repeatable; relative paths in it resolve against its folder)")
	fs.Var(itemsFlag{&items, false}, "c", "run the SQL statements `SQL` (repeatable)")
	format := fs.String("format", "table", "output format: table, csv, json (one document per run), markdown or line")
	executor := fs.String("executor", "auto", "executor: cpu, gpu or auto (GPU when available)")
	check := fs.Bool("check", false, "run every query on both the GPU and CPU executors and fail on any difference")
	timing := fs.Bool("timing", false, "print each statement's elapsed time")
	join := fs.String("join", "", "force the join algorithm: hash, merge, bitmap, twopass or auto (testing)")
	groupBy := fs.String("groupby", "", "force the group-by strategy: dense or hash (testing)")
	setOp := fs.String("setop", "", "force the GPU's DISTINCT and set operation algorithm: sort or hash (testing)")
	memLimit := fs.String("memory-limit", "default", "bytes the queries may hold at once, as `SIZE` 2GB, 512MiB or 1.5GiB (0: no limit; default: 75% of RAM)")
	tmpDir := fs.String("tmpdir", "", "directory `DIR` for the temporary files of queries past the memory limit (default: the system's temporary directory)")
	maxSpill := fs.String("max-spill", "0", "bytes a query's temporary files may hold on disk, as `SIZE` 10GB (0: no limit)")
	dbPath := fs.String("db", "", "open (or create) the database directory `PATH`; also given as the first argument (default: in memory)")
	noProgress := fs.Bool("no-progress", false, "do not draw a progress bar for long statements (it is drawn only when stderr is a terminal)")
	remap := fs.String("remap", "analyze", "when fact columns of small domains get a replica-remapped twin: `MODE` analyze (on ANALYZE TABLE), load (also after LOAD and on opening a database), off")
	gpuMemory := fs.String("gpu-memory", "default", "device memory a query's plan may use, as `SIZE` 8GB or 256MB: columns that do not fit stay in pinned host memory, streamed or read zero-copy (default: 75% of the device's free memory)")
	gpusFlag := fs.String("gpus", "all", "GPUs queries may use, as device indices `LIST` 0,1 (all: every visible GPU): star queries large enough are split over them, others run on the least busy")
	gpuProfile := fs.String("gpu-profile", "", "plan for this GPU (`NAME`: h100, h200) instead of the device's own profile; with --executor gpu, EXPLAIN shows GPU plans without a GPU")
	timeZone := fs.String("default-time-zone", "", "the session time zone (@@time_zone), as `ZONE` +02:00 or Europe/Paris (default: SYSTEM, which is UTC)")
	packing := fs.String("packing", "transfer", "the GPU's resident fact columns of star queries: sent bit-packed and unpacked there (`transfer`), kept bit-packed (on) or copied 4 bytes a value (off); SET gpu_packing changes it")
	interactive := fs.Bool("i", false, "open the REPL after running the -f and -c items (e.g. load a schema, then ask)")
	var usageText strings.Builder
	usage(&usageText)
	if code, done := parseFlags(fs, args, strings.TrimSpace(usageText.String()), stdout, stderr); done {
		return code
	}
	// gpusql PATH [flags]: the database comes first, as in sqlite3 and
	// duckdb; flags may follow it.
	if fs.NArg() > 0 && *dbPath == "" {
		*dbPath = fs.Arg(0)
		if code, done := parseFlags(fs, fs.Args()[1:], strings.TrimSpace(usageText.String()), stdout, stderr); done {
			return code
		}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gpusql: unexpected argument %q (scripts go after -f)\n", fs.Arg(0))
		return 2
	}
	limit, err := engine.ParseMemoryLimit(*memLimit)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql: --memory-limit:", err)
		return 2
	}
	spill, err := engine.ParseMaxSpill(*maxSpill)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql: --max-spill:", err)
		return 2
	}
	gpus, err := engine.ParseGPUs(*gpusFlag)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql: --gpus:", err)
		return 2
	}
	gpuMem, err := engine.ParseGPUMemory(*gpuMemory)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql: --gpu-memory:", err)
		return 2
	}
	db, err := engine.Open(engine.Options{Executor: *executor, Check: *check, Join: *join, GroupBy: *groupBy,
		MemoryLimit: limit, TmpDir: *tmpDir, MaxSpill: spill, Path: *dbPath, GPUProfile: *gpuProfile, GPUMemory: gpuMem, GPUs: gpus, Remap: *remap,
		SetOpAlgorithm: *setOp, Packing: *packing, TimeZone: *timeZone})
	if err != nil {
		fmt.Fprintln(stderr, "gpusql:", err)
		return 1
	}
	defer db.Close()
	p, err := newPrinter(*format, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "gpusql:", err)
		return 2
	}
	s := &session{db: db, format: *format, timing: *timing, out: p, stdout: stdout, stderr: stderr, msgOut: stdout, explain: stdout, resultOut: stdout}
	if jp, ok := p.(jsonPrinter); ok {
		// A run writes one JSON document (see format.go).
		jp.doc = &jsonDocument{}
		s.out = jp
		defer jp.finish()
	}
	if *format != "table" && *format != "" {
		s.msgOut = stderr
	}
	s.progress = newProgressBar(stderr, *noProgress)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(items) == 0 {
		if f, ok := stdin.(*os.File); ok && !readline.IsTerminal(int(f.Fd())) {
			// Piped input (gpusql < script.sql) runs as a script.
			b, err := io.ReadAll(stdin)
			if err != nil {
				fmt.Fprintln(stderr, "gpusql:", err)
				return 1
			}
			wd, _ := os.Getwd()
			if err := s.exec(ctx, string(b), wd); err != nil {
				fmt.Fprintf(stderr, "gpusql: stdin: %s%v\n", errorCode(err), err)
				return 1
			}
			return 0
		}
		stop()
		return s.repl(stdin)
	}
	for _, it := range items {
		text, dir, name := it.text, "", "-c"
		if it.file {
			b, err := os.ReadFile(it.text)
			if err != nil {
				fmt.Fprintln(stderr, "gpusql:", err)
				return 1
			}
			text, dir, name = string(b), filepath.Dir(it.text), it.text
		} else if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
		if err := s.exec(ctx, text, dir); err != nil {
			fmt.Fprintf(stderr, "gpusql: %s: %s%v\n", name, errorCode(err), err)
			return 1
		}
	}
	if *interactive {
		stop()
		return s.repl(stdin)
	}
	return 0
}

// exec runs text and prints each statement's output as it finishes.
func (s *session) exec(ctx context.Context, text, dir string) error {
	if s.progress != nil {
		ctx = engine.WithProgress(ctx, s.progress.report)
	}
	return s.db.ExecStream(ctx, text, dir, s.print)
}

func (s *session) print(r *engine.StatementResult) error {
	switch {
	case r.Explain != "":
		fmt.Fprintln(s.explain, r.Explain)
	case r.Kind == engine.KindRows:
		if err := s.out.rows(r.Result); err != nil {
			return err
		}
		if s.format == "table" {
			fmt.Fprintln(s.resultOut, rowCount(r.Result.Rows)+s.elapsed(r))
			s.afterResult()
			return nil
		}
		s.afterResult()
	default:
		fmt.Fprintln(s.msgOut, r.Message+s.elapsed(r))
		return nil
	}
	if s.timing {
		fmt.Fprintf(s.stderr, "Time: %s\n", seconds(r.Elapsed.Seconds()))
	}
	return nil
}

func (s *session) elapsed(r *engine.StatementResult) string {
	if !s.timing {
		return ""
	}
	exe := ""
	if r.Executor != "" {
		exe = ", " + r.Executor
	}
	return fmt.Sprintf(" (%s%s)", seconds(r.Elapsed.Seconds()), exe)
}

func seconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.3f sec", s)
	}
	return fmt.Sprintf("%.2f sec", s)
}
