package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"gpusql/engine"
)

// openSSB opens (or creates) the database at path for executor and makes
// sure it holds SSB: a database from an earlier run is reused as it is;
// an empty or incomplete one gets SSB generated at sf in memory (on
// workers goroutines) and written into it. It reports on stderr which it
// did and how long it took.
func openSSB(ctx context.Context, path string, sf float64, workers int, executor string, stderr io.Writer) (*engine.DB, error) {
	start := time.Now()
	db, err := engine.Open(engine.Options{Executor: executor, Path: path})
	if err != nil {
		return nil, err
	}
	if holdsSSB(db) {
		t, _ := db.Catalog().Table("lineorder")
		fmt.Fprintf(stderr, "opened database %s in %.3f s (lineorder: %d rows; delete it to generate again)\n",
			path, time.Since(start).Seconds(), t.Rows)
		return db, nil
	}
	for _, t := range ssbTables {
		if _, err := db.Exec(ctx, "DROP TABLE IF EXISTS `"+t+"`", ""); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := fillSSB(ctx, db, "", sf, workers, stderr); err != nil {
		db.Close()
		return nil, err
	}
	fmt.Fprintf(stderr, "the next run with --db %s opens it instead of generating\n", path)
	return db, nil
}

// holdsSSB reports whether db holds every SSB table, lineorder with rows.
func holdsSSB(db *engine.DB) bool {
	for _, name := range ssbTables {
		t, ok := db.Catalog().Table(name)
		if !ok || (name == "lineorder" && t.Rows == 0) {
			return false
		}
	}
	return true
}

// benchOpen compares loading SSB from text with opening it from a
// database: load time against open time (and the first count(*) and the
// first scan, which verifies the checksums of the columns it reads), and
// the database's size on disk against the text's.
func benchOpen(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("bench open", flag.ContinueOnError)
	fset.SetOutput(stderr)
	sf := fset.Float64("sf", 1, "scale factor to generate")
	format := fset.String("format", "tbl", "text format to generate and load: tbl, csv or parquet")
	dbPath := fset.String("db", "", "database directory to write (default: a temporary one, removed after)")
	if code, done := parseFlags(fset, args, "usage: gpusql bench open [flags]   load-from-text time vs open time, size on disk vs text", stdout, stderr); done {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fail := func(err error) int {
		fmt.Fprintln(stderr, "gpusql bench open:", err)
		return 1
	}
	text, cleanup, err := dataDir("", *sf, *format, stderr)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	path := *dbPath
	if path == "" {
		tmp, err := os.MkdirTemp("", "gpusql-db-")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(tmp)
		path = filepath.Join(tmp, "ssb.gpusql")
	} else if _, err := os.Stat(path); err == nil {
		return fail(fmt.Errorf("database %s exists; name a new one", path))
	}

	mem, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	if err := loadSchema(ctx, mem, text, func(*engine.StatementResult) {}); err != nil {
		return fail(err)
	}
	textLoad := time.Since(start)
	mem = nil
	runtime.GC()

	db, err := engine.Open(engine.Options{Executor: "cpu", Path: path})
	if err != nil {
		return fail(err)
	}
	start = time.Now()
	if err := loadSchema(ctx, db, text, func(*engine.StatementResult) {}); err != nil {
		return fail(err)
	}
	dbLoad := time.Since(start)
	db.Close()
	db = nil
	runtime.GC()

	start = time.Now()
	db, err = engine.Open(engine.Options{Executor: "cpu", Path: path})
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	open := time.Since(start)
	timed := func(q string) (time.Duration, error) {
		s := time.Now()
		_, err := db.Exec(ctx, q, "")
		return time.Since(s), err
	}
	count, err := timed("SELECT count(*) FROM lineorder")
	if err != nil {
		return fail(err)
	}
	scan, err := timed("SELECT sum(lo_revenue) FROM lineorder")
	if err != nil {
		return fail(err)
	}
	textBytes, dbBytes := dirSize(text), dirSize(path)
	fmt.Fprintf(stdout, "SSB SF %g (%s text, %d cores)\n", *sf, *format, runtime.NumCPU())
	fmt.Fprintf(stdout, "  load from text (in memory):        %9.3f s\n", textLoad.Seconds())
	fmt.Fprintf(stdout, "  load from text into a database:    %9.3f s (parse + write + fsync)\n", dbLoad.Seconds())
	fmt.Fprintf(stdout, "  open the database:                 %9.3f s\n", open.Seconds())
	fmt.Fprintf(stdout, "  then SELECT count(*) FROM lineorder: %7.3f s\n", count.Seconds())
	fmt.Fprintf(stdout, "  then first sum(lo_revenue):        %9.3f s (maps and checksums the column)\n", scan.Seconds())
	fmt.Fprintf(stdout, "  text on disk:     %9.1f MB\n", float64(textBytes)/1e6)
	fmt.Fprintf(stdout, "  database on disk: %9.1f MB (%.2f× the text)\n", float64(dbBytes)/1e6, float64(dbBytes)/float64(max(textBytes, 1)))
	return 0
}

// dirSize is the bytes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
