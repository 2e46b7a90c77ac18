//go:build cuda

package gpu

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
)

// BenchmarkWindow times window queries over sortTable's rows
// (GPUSQL_WINDOW_ROWS, default 10 M) on both executors, the whole query:
// the radix sort, the scans, and the result's copy back to the host (16
// bytes a row for id and one function), which at these sizes is a large
// part of the GPU's time. rows/s is input rows over the wall time.
//
//	go test -tags cuda ./exec/gpu -run '^$' -bench BenchmarkWindow -benchtime 5x
func BenchmarkWindow(b *testing.B) {
	needGPU(b)
	n := 10_000_000
	if v, err := strconv.Atoi(os.Getenv("GPUSQL_WINDOW_ROWS")); err == nil && v > 0 {
		n = v
	}
	cat := catalog.New()
	tb := sortTable(n, 11)
	cat.Put(tb)
	queries := []struct{ name, text string }{
		{"row_number", "select id, row_number() over (partition by i32 order by id) from T"},
		{"rank", "select id, rank() over (partition by s order by d) from T"},
		{"running_sum", "select id, sum(i32) over (partition by s order by d) from T"},
		{"partition_max", "select id, max(f) over (partition by i32) from T"},
		{"sliding_max", "select id, max(i64) over (partition by s order by id rows between 50 preceding and 50 following) from T"},
		{"moving_avg_double", "select id, avg(f) over (partition by s order by id rows between 6 preceding and current row) from T"},
		{"range_7_days", "select id, sum(i32) over (partition by s order by d range between interval 7 day preceding and current row) from T"},
	}
	for _, q := range queries {
		p := windowPlan(b, cat, strings.ReplaceAll(q.text, " T", " "+tb.Name))
		for _, exe := range []string{"gpu", "cpu"} {
			b.Run(q.name+"/"+exe, func(b *testing.B) {
				run := Run
				if exe == "cpu" {
					run = cpu.Run
				}
				if _, err := run(context.Background(), p); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for range b.N {
					if _, err := run(context.Background(), p); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
			})
		}
	}
}
