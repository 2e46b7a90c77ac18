// Command gpusql is the gpusql SQL shell and tool.
//
//	gpusql [PATH] [flags]                interactive shell (REPL)
//	gpusql [flags] -f script.sql -c SQL  run scripts and statements in order
//	gpusql gen ssb --sf N --out DIR      generate Star Schema Benchmark data
//	gpusql bench ssb --sf N              time the 13 SSB queries
//	gpusql bench load --sf N             time loading SSB data
//	gpusql bench open --sf N             time opening SSB from a database vs loading text
//
// Flags: --format table|csv|json, --executor cpu|gpu|auto, --check (run each
// query on both executors and compare), --timing.
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
		case "help":
			usage(stdout)
			return 0
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
  gpusql bench ssb --sf N [--data DIR] [--executor cpu[,gpu]] [--runs R] [--json FILE]
  gpusql bench ssb --sf N --db PATH   the same on a database: generated once, opened on later runs
  gpusql bench load --sf N [--format tbl|csv|parquet]
  gpusql bench open --sf N [--format tbl|csv|parquet] [--db PATH]
                                      load-from-text time vs open time, size on disk vs text

flags:
`)
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
}

func shellMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpusql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var items []item
	fs.Var(itemsFlag{&items, true}, "f", "run the SQL script `FILE` (repeatable; relative paths in it resolve against its folder)")
	fs.Var(itemsFlag{&items, false}, "c", "run the SQL statements `SQL` (repeatable)")
	format := fs.String("format", "table", "output format: table, csv or json")
	executor := fs.String("executor", "auto", "executor: cpu, gpu or auto (GPU when available)")
	check := fs.Bool("check", false, "run every query on both the GPU and CPU executors and fail on any difference")
	timing := fs.Bool("timing", false, "print each statement's elapsed time")
	join := fs.String("join", "", "force the join algorithm: hash or merge (testing)")
	groupBy := fs.String("groupby", "", "force the group-by strategy: dense or hash (testing)")
	memLimit := fs.String("memory-limit", "default", "bytes the queries may hold at once, as `SIZE` 2GB, 512MiB or 1.5GiB (0: no limit; default: 75% of RAM)")
	dbPath := fs.String("db", "", "open (or create) the database directory `PATH`; also given as the first argument (default: in memory)")
	interactive := fs.Bool("i", false, "open the REPL after running the -f and -c items (e.g. load a schema, then ask)")
	fs.Usage = func() { usage(stderr); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	// gpusql PATH [flags]: the database comes first, as in sqlite3 and
	// duckdb; flags may follow it.
	if fs.NArg() > 0 && *dbPath == "" {
		*dbPath = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return 2
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
	db, err := engine.Open(engine.Options{Executor: *executor, Check: *check, Join: *join, GroupBy: *groupBy,
		MemoryLimit: limit, Path: *dbPath})
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
	s := &session{db: db, format: *format, timing: *timing, out: p, stdout: stdout, stderr: stderr, msgOut: stdout, explain: stdout}
	if *format != "table" && *format != "" {
		s.msgOut = stderr
	}
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
				fmt.Fprintln(stderr, "gpusql: stdin:", err)
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
			fmt.Fprintf(stderr, "gpusql: %s: %v\n", name, err)
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
			fmt.Fprintln(s.stdout, rowCount(r.Result.Rows)+s.elapsed(r))
			return nil
		}
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
