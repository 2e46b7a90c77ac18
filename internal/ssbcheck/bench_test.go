package ssbcheck

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gpusql/engine"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// benchDB is the database BenchmarkSSBCPU loaded, kept across -count runs
// since generating and loading SF 1 takes longer than the queries.
var benchDB struct {
	sf float64
	db *engine.DB
}

// BenchmarkSSBCPU runs each SSB query on the CPU executor at scale factor
// GPUSQL_BENCH_SF (e.g. GPUSQL_BENCH_SF=1 go test -run - -bench SSBCPU
// ./internal/ssbcheck). It reports the result rows and the bytes of the
// columns the query reads (each referenced column's width × its table's
// rows, the lower bound of any columnar scan) per second.
func BenchmarkSSBCPU(b *testing.B) {
	env := os.Getenv("GPUSQL_BENCH_SF")
	if env == "" {
		b.Skip("set GPUSQL_BENCH_SF (e.g. 1) to run the SSB benchmark")
	}
	sf, err := strconv.ParseFloat(env, 64)
	if err != nil || !(sf > 0) {
		b.Fatalf("GPUSQL_BENCH_SF=%q is not a positive scale factor", env)
	}
	queries, err := parseQueries("ssbgen.QueriesSQL", ssbgen.QueriesSQL)
	if err != nil {
		b.Fatal(err)
	}
	db := loadBench(b, sf)
	ctx := context.Background()
	for _, q := range queries {
		bytes := scannedBytes(db, q.SQL)
		b.Run(q.Name, func(b *testing.B) {
			rows := 0
			for b.Loop() {
				res, err := db.Exec(ctx, q.SQL, "")
				if err != nil {
					b.Fatal(err)
				}
				rows = res[0].Result.Rows
			}
			b.ReportMetric(float64(rows), "rows")
			if s := b.Elapsed().Seconds(); s > 0 {
				b.ReportMetric(float64(bytes)*float64(b.N)/s/1e9, "GB/s")
			}
		})
	}
}

// loadBench generates SF sf into a temporary folder and loads it.
func loadBench(b *testing.B, sf float64) *engine.DB {
	if benchDB.db != nil && benchDB.sf == sf {
		return benchDB.db
	}
	dir, err := os.MkdirTemp("", "ssbcheck-bench-")
	if err != nil {
		b.Fatal(err)
	}
	// The loaded tables are in memory; the files are not needed after.
	defer os.RemoveAll(dir)
	if _, err := ssbgen.Generate(ssbgen.Options{SF: sf, Out: dir, Format: ssbgen.FormatTbl}); err != nil {
		b.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join(dir, "schema.sql"))
	if err != nil {
		b.Fatal(err)
	}
	db, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), string(schema), dir); err != nil {
		b.Fatal(err)
	}
	benchDB.sf, benchDB.db = sf, db
	return db
}

var wordRE = regexp.MustCompile(`\w+`)

// scannedBytes sums width × rows over the catalog's columns named in query
// (SSB column names are unique across tables).
func scannedBytes(db *engine.DB, query string) int64 {
	words := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(query), -1) {
		words[w] = true
	}
	var n int64
	for _, name := range db.Catalog().Names() {
		t, _ := db.Catalog().Table(name)
		for _, f := range t.Fields {
			if !words[strings.ToLower(f.Name)] {
				continue
			}
			width := int64(4)
			if f.Type.Physical() != columnar.PhysInt32 {
				width = 8
			}
			n += width * int64(t.Rows)
		}
	}
	return n
}
