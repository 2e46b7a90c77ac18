package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gpusql/engine"
	"gpusql/exec"
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
	if err := checkGenerateMemory(sf); err != nil {
		return err
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

// generateHeadroom is the memory a generation needs beyond its columns'
// vectors: pinned host memory comes in size classes up to a quarter
// larger (about 12 % at SF 100), plus dictionaries and the free text
// while it is encoded.
const generateHeadroom = 1.15

// checkGenerateMemory refuses a scale factor whose tables cannot fit in
// the memory the machine has available, before anything is allocated:
// the generation would otherwise be killed by the kernel part way.
func checkGenerateMemory(sf float64) error {
	need := int64(float64(ssbgen.ColumnBytes(sf)) * generateHeadroom)
	avail := memAvailable()
	if avail <= 0 || need <= avail {
		return nil
	}
	return fmt.Errorf("SSB SF %g needs about %s of memory for its columns, more than the %s this machine has available (MemAvailable in /proc/meminfo): use a smaller --sf",
		sf, exec.FormatBytes(need), exec.FormatBytes(avail))
}

// memAvailable is MemAvailable of /proc/meminfo in bytes, 0 where it
// cannot be read (the check is then skipped). Tests replace it.
var memAvailable = func() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
