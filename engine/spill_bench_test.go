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
	const q = "select k from s order by k"
	for _, c := range []struct {
		name  string
		limit int64
	}{{"unlimited", -1}, {"limit=8MiB", 8 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			db.SetMemoryLimit(c.limit)
			for i := 0; i < b.N; i++ {
				res, err := db.Exec(context.Background(), q, "")
				if err != nil {
					b.Fatal(err)
				}
				if n := res[0].Result.Rows; n != 1<<20 {
					b.Fatalf("%d rows", n)
				}
			}
			rows := float64(b.N) * (1 << 20)
			b.ReportMetric(rows/b.Elapsed().Seconds()/1e6, "Mrows/s")
			// Input bytes: one 4-byte column.
			b.ReportMetric(rows*4/b.Elapsed().Seconds()/1e6, "MB/s")
		})
	}
}
