package cpu_test

import (
	"context"
	"fmt"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
)

// BenchmarkWindowCPU times window queries over 1 M rows (1,000
// partitions, a DATE order key with ties) whole: the sort, the frames and
// the function, in the executor's order of work.
//
//	go test ./exec/cpu -run '^$' -bench WindowCPU -benchtime 3x
func BenchmarkWindowCPU(b *testing.B) {
	d := newTestDB(b, false)
	d.create("create table wb (id int, g int, d date, v int, x double)")
	lines := make([]string, 1_000_000)
	for i := range lines {
		lines[i] = fmt.Sprintf("%d|%d|2024-%02d-%02d|%d|%d.25", i, i%1000, 1+i%12, 1+i%28, i%97, i%13)
	}
	d.load("wb", lines)
	for _, q := range []struct{ name, text string }{
		{"row_number", "select id, row_number() over (partition by g order by d, id) from wb"},
		{"running_sum", "select id, sum(v) over (partition by g order by d) from wb"},
		{"sliding_sum", "select id, sum(v) over (partition by g order by id rows between 5 preceding and 5 following) from wb"},
		{"moving_avg_double", "select id, avg(x) over (partition by g order by id rows between 6 preceding and current row) from wb"},
		{"range_7_days", "select id, sum(v) over (partition by g order by d range between interval 7 day preceding and current row) from wb"},
		{"sliding_max", "select id, max(v) over (partition by g order by id rows between 50 preceding and 50 following) from wb"},
	} {
		p := d.plan(q.text, planner.Options{})
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := cpu.Run(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
