package engine

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/internal/decimal"
	"gpusql/internal/slt"
	"gpusql/storage/columnar"
)

// The SQL logic tests: every file of testdata/slt runs on a fresh database
// under each planner strategy (join hash/merge/auto × group-by
// dense/hash/auto) on the CPU executor, and once on the GPU executor where
// this build has CUDA and a device answers. All must give the expected rows,
// which were checked by SQLite (internal/slt's oracle) or by hand.
//
// -update rewrites the expected rows from gpusql's own output (auto
// strategies); review the diff, and run the SQLite oracle after.
var (
	update = flag.Bool("update", false, "rewrite the expected rows of testdata/slt from gpusql's output")
	sltDir = flag.String("slt-dir", "../testdata/slt", "folder of the SQL logic test files")
)

// sltEngineNames are the names gpusql answers to in skipif/onlyif: it
// follows MySQL 8, so classic files' MySQL records are its records.
var sltEngineNames = []string{"gpusql", "mysql"}

type strategy struct {
	name string
	opts Options
}

func strategies() []strategy {
	var out []strategy
	for _, j := range []string{"", "hash", "merge"} {
		for _, g := range []string{"", "dense", "hash"} {
			name := fmt.Sprintf("cpu-join=%s-groupby=%s", or(j, "auto"), or(g, "auto"))
			opts := Options{Executor: "cpu", Join: j, GroupBy: g}
			if j == "" && g == "" {
				// Every query is also planned for the GPU (no GPU needed),
				// so the GPU planning pass sees the whole corpus.
				opts.GPUProfile = "h100"
			}
			out = append(out, strategy{name, opts})
		}
	}
	// Every equi-join forced to a bitmap where one applies (bucketed for
	// wide domains); the others fall back to a hash table.
	out = append(out, strategy{"cpu-join=bitmap-groupby=auto", Options{Executor: "cpu", Join: "bitmap"}})
	// Every equi-join run by two-pass bucketing on the CPU.
	out = append(out, strategy{"cpu-join=twopass-groupby=auto", Options{Executor: "cpu", Join: "twopass"}})
	// Every query run twice, the second time from the plan cache where it
	// is cacheable (PlanCache "on" asks runSLTFile for the repeat; every
	// strategy runs with the cache on, the default, but most queries of a
	// file run only once).
	out = append(out, strategy{"cpu-plan-cache-repeat", Options{Executor: "cpu", GPUProfile: "h100", PlanCache: "on"}})
	// On a database directory (Path set per file by runSLTFile), reopened
	// after every statement: later queries read the columns as mapped
	// from the files.
	out = append(out, strategy{persistentSLT, Options{Executor: "cpu", NoSync: true}})
	if ok, _ := GPUStatus(); ok {
		// Auto runs each query on the GPU where its executor supports the
		// plan (the CPU otherwise) and Check compares it with the CPU.
		for _, g := range []string{"", "dense", "hash"} {
			name := "gpu-check-groupby=" + or(g, "auto")
			out = append(out, strategy{name, Options{Executor: "auto", Check: true, GroupBy: g}})
		}
		out = append(out, strategy{"gpu-check-join=merge", Options{Executor: "auto", Check: true, Join: "merge"}})
		out = append(out, strategy{"gpu-check-join=bitmap", Options{Executor: "auto", Check: true, Join: "bitmap"}})
		// Every DISTINCT and set operation by sorting (the cost picks
		// hashing for the corpus's small tables).
		out = append(out, strategy{"gpu-check-setop=sort", Options{Executor: "auto", Check: true, SetOpAlgorithm: "sort"}})
		if gpuDeviceCount() > 1 {
			// Every star split over all the GPUs (issue 18).
			out = append(out, strategy{"gpu-check-split", Options{Executor: "auto", Check: true, SplitEveryStar: true}})
		}
	}
	return out
}

const persistentSLT = "cpu-persistent-reopened"

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func TestSLT(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(*sltDir, "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SLT files (%v)", err)
	}
	if ok, why := GPUStatus(); !ok {
		t.Logf("GPU executor not tested: %s", why)
	}
	total, failed := 0, 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := slt.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range strategies() {
				if *update && i > 0 {
					break
				}
				t.Run(st.name, func(t *testing.T) {
					n, bad := runSLTFile(t, f, st.opts)
					total += n
					failed += bad
				})
			}
			if *update {
				if err := f.Write(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	t.Logf("%d records run over all strategies, %d failed", total, failed)
}

// runSLTFile runs a file's records on a fresh database and returns how many
// ran and failed.
func runSLTFile(t *testing.T, f *slt.File, opts Options) (ran, failed int) {
	onGPU := 0
	defer func() {
		if opts.Check {
			t.Logf("%d of %d records ran on the GPU (checked against the CPU)", onGPU, ran)
		}
	}()
	// Session state (SET, an open transaction) does not survive a
	// reopen: files that use it run on the directory without reopening.
	reopen := false
	if opts.NoSync {
		opts.Path = filepath.Join(t.TempDir(), "db")
		reopen = !usesSessionState(f)
	}
	db, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	ctx := context.Background()
	base := filepath.Dir(f.Path)
	for _, r := range f.Records {
		if r.Skipped(sltEngineNames...) {
			continue
		}
		if r.Kind == slt.Halt {
			return
		}
		ran++
		where := fmt.Sprintf("%s:%d", f.Path, r.Line)
		msg, executor := runRecord(ctx, db, r, base)
		// A query that assigns user variables (@n := @n + 1) changes what
		// its next run returns, and is never cached: it runs once.
		if msg == "" && opts.PlanCache == "on" && r.Kind == slt.Query && !strings.Contains(r.SQL, ":=") {
			if msg, _ = runRecord(ctx, db, r, base); msg != "" {
				msg = "run again (plan cache): " + msg
			}
		}
		if executor == "gpu" {
			onGPU++
		}
		if msg != "" {
			failed++
			t.Errorf("%s: %s\n%s", where, msg, r.SQL)
		}
		if reopen && r.Kind == slt.Statement {
			db.Close()
			if db, err = Open(opts); err != nil {
				t.Fatal(err)
			}
		}
	}
	return
}

// runRecord runs one record and describes how it failed ("" if it passed),
// with the executor that ran a query.
func runRecord(ctx context.Context, db *DB, r *slt.Record, base string) (string, string) {
	res, err := db.Exec(ctx, r.SQL, base)
	if r.Kind == slt.Statement {
		switch {
		case r.ExpectError && err == nil:
			return "statement succeeded, want an error", ""
		case r.ExpectError && !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(r.ErrorSubstr)):
			return fmt.Sprintf("error %q does not contain %q", err, r.ErrorSubstr), ""
		case !r.ExpectError && err != nil:
			return fmt.Sprintf("statement failed: %v", err), ""
		}
		return "", ""
	}
	if err != nil {
		return fmt.Sprintf("query failed: %v", err), ""
	}
	if len(res) != 1 || res[0].Kind != KindRows {
		return fmt.Sprintf("want one result set, got %d results", len(res)), ""
	}
	got, ferr := slt.Format(r, cells(res[0].Result))
	if ferr != nil {
		return ferr.Error(), res[0].Executor
	}
	if *update {
		r.SetResult(got)
		return "", res[0].Executor
	}
	return slt.Diff(r, got), res[0].Executor
}

// cells turns a result into the runner's neutral cells.
func cells(res *exec.Result) [][]slt.Cell {
	out := make([][]slt.Cell, res.Rows)
	for i := range out {
		row := make([]slt.Cell, len(res.Columns))
		for j, c := range res.Columns {
			row[j] = cell(c, i)
		}
		out[i] = row
	}
	return out
}

func cell(c *columnar.Column, i int) slt.Cell {
	if c.IsNull(i) {
		return slt.Cell{Null: true}
	}
	cl := slt.Cell{Text: exec.FormatValue(c, i)}
	switch c.Type.ID {
	case columnar.Int32, columnar.Int64, columnar.Bool:
		cl.Num, cl.IsNum = float64(c.Int64At(i)), true
	case columnar.Float64:
		cl.Num, cl.IsNum = c.F64[i], true
	case columnar.Decimal:
		if c.W != nil {
			cl.Num, cl.IsNum = decimal.Float64(c.W[i], c.Type.Scale), true
			break
		}
		cl.Num, cl.IsNum = float64(c.I64[i])/float64(columnar.Pow10[c.Type.Scale]), true
	}
	return cl
}

// TestStatementErrorLine checks that a failing statement's error names the
// line it starts on.
func TestStatementErrorLine(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(context.Background(), "create table t (a int);\n\ninsert into t values (1);\nselect\n  nosuch from t;", "")
	var se *StatementError
	if !errors.As(err, &se) || se.Line != 4 {
		t.Fatalf("error %v, want a StatementError at line 4", err)
	}
	if !strings.HasPrefix(err.Error(), "statement at line 4: line 5:") {
		t.Errorf("error %q should start with 'statement at line 4: line 5:'", err)
	}
}

// usesSessionState reports whether a file's SQL sets session variables,
// opens transactions or reads the previous statement's warnings.
func usesSessionState(f *slt.File) bool {
	for _, r := range f.Records {
		u := strings.ToUpper(strings.TrimSpace(r.SQL))
		for _, p := range []string{"SET ", "BEGIN", "START TRANSACTION", "PREPARE ", "SHOW WARNINGS"} {
			if strings.HasPrefix(u, p) || strings.Contains(u, ";\n"+p) || strings.Contains(u, "; "+p) {
				return true
			}
		}
	}
	return false
}
