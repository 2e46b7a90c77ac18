package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSortSpill sorts 1 M INTs in scrambled order in memory and
// under an 8 MiB limit, which makes the sort write sorted runs to
// temporary files and merge them (the 4 MiB output and the merge's
// buffers fit; sorting in memory needs about 28 MiB):
//
//	go test ./engine -run '^$' -bench SortSpill -benchtime 5x
func BenchmarkSortSpill(b *testing.B) {
	db := spillBenchDB(b)
	benchSpill(b, db, "select k from s order by k", 8<<20, 1<<20)
}

// BenchmarkAggregateSpill groups 1 M rows into 100 K groups (count,
// sum) in memory and under 8 MiB, where the aggregation partitions its
// input rows to files and aggregates them file by file.
func BenchmarkAggregateSpill(b *testing.B) {
	db := spillBenchDB(b)
	benchSpill(b, db, "select k % 100000, count(*), sum(x) from s group by k % 100000", 8<<20, 100000)
}

// BenchmarkJoinSpill joins 1 M rows with 1 M rows on a key (count, sum)
// in memory and under 8 MiB, where the join runs as a grace hash join.
func BenchmarkJoinSpill(b *testing.B) {
	db := spillBenchDB(b)
	benchSpill(b, db, "select count(*), sum(a.x) from s a join s b on a.k = b.x", 8<<20, 1)
}

// spillBenchDB is table s of 1 M rows: k scrambled, x = 1..1 M.
func spillBenchDB(b *testing.B) *DB {
	db, err := Open(Options{Executor: "cpu", TmpDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("create table t (x int);\ninsert into t values (1),(2),(3),(4),(5),(6),(7),(8);\n")
	for k := 8; k < 1<<20; k *= 2 {
		fmt.Fprintf(&sb, "insert into t select x + %d from t;\n", k)
	}
	sb.WriteString("create table s (k int, x int);\ninsert into s select (x * 7919) % 1000003, x from t")
	if _, err := db.Exec(context.Background(), sb.String(), ""); err != nil {
		b.Fatal(err)
	}
	return db
}

// benchSpill times q unlimited and under limit, checking its row count.
func benchSpill(b *testing.B, db *DB, q string, limit int64, rows int) {
	for _, c := range []struct {
		name  string
		limit int64
	}{{"unlimited", -1}, {fmt.Sprintf("limit=%dMiB", limit>>20), limit}} {
		b.Run(c.name, func(b *testing.B) {
			db.SetMemoryLimit(c.limit)
			for i := 0; i < b.N; i++ {
				res, err := db.Exec(context.Background(), q, "")
				if err != nil {
					b.Fatal(err)
				}
				if n := res[0].Result.Rows; n != rows {
					b.Fatalf("%d rows, want %d", n, rows)
				}
			}
			// Input: 1 M rows of the 4-byte columns read.
			b.ReportMetric(float64(b.N)*(1<<20)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}
