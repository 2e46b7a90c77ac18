package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"gpusql/engine"
	"gpusql/storage/ssbgen"
)

// fillSSB puts SSB into db: loaded from the files and schema.sql in data
// when it is given, else generated at sf straight into columnar memory
// (ssbgen.GenerateTables: no text, on workers goroutines, 0 = one per
// CPU). A database directory then gets the generated tables written to
// it. It reports on stderr what it did and how long it took.
func fillSSB(ctx context.Context, db *engine.DB, data string, sf float64, workers int, stderr io.Writer) error {
	if data != "" {
		start := time.Now()
		if err := loadSchema(ctx, db, data, func(*engine.StatementResult) {}); err != nil {
			return fmt.Errorf("load: %w", err)
		}
		fmt.Fprintf(stderr, "loaded %s in %.2f s\n", data, time.Since(start).Seconds())
		return nil
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	start := time.Now()
	tables, err := ssbgen.GenerateTables(ssbgen.TableOptions{SF: sf, Workers: workers})
	if err != nil {
		return err
	}
	var bytes int64
	lineorder := 0
	for _, t := range tables {
		if t.Name == "lineorder" {
			lineorder = t.Rows
		}
		for _, c := range t.Columns {
			bytes += c.Bytes()
		}
		db.Catalog().Put(t)
	}
	goroutines := "workers"
	if workers == 1 {
		goroutines = "worker"
	}
	fmt.Fprintf(stderr, "generated SSB SF %g in memory in %.2f s on %d %s (%d lineorder rows, %.2f GB of columns)\n",
		sf, time.Since(start).Seconds(), workers, goroutines, lineorder, float64(bytes)/1e9)
	if db.Path() == "" {
		return nil
	}
	start = time.Now()
	if err := db.Persist(); err != nil {
		return fmt.Errorf("write the database: %w", err)
	}
	fmt.Fprintf(stderr, "wrote the tables into database %s in %.2f s\n", db.Path(), time.Since(start).Seconds())
	return nil
}
