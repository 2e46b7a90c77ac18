package engine

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkWideDecimal times SUM, ORDER BY ... LIMIT and GROUP BY over 1 M
// rows of a DECIMAL(15,2) (scaled int64, 8 bytes a value) and the same
// values as DECIMAL(30,2) (256-bit words, 32 bytes a value) on the CPU
// executor, reporting the column's stored bytes over the time: what the
// wide representation costs next to the narrow one.
func BenchmarkWideDecimal(b *testing.B) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	setup := `SET cte_max_recursion_depth = 2000;
		CREATE TABLE d AS WITH RECURSIVE s (x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM s WHERE x < 999) SELECT x FROM s;
		CREATE TABLE t AS SELECT a.x * 1000 + b.x AS id, CAST((a.x * 7919 + b.x * 104729) % 1000003 AS DECIMAL(15,2)) / 100 AS n,
			CAST(CAST((a.x * 7919 + b.x * 104729) % 1000003 AS DECIMAL(15,2)) / 100 AS DECIMAL(30,2)) AS w FROM d a, d b`
	if _, err := db.Exec(ctx, setup, ""); err != nil {
		b.Fatal(err)
	}
	const rows = 1_000_000
	for _, q := range []struct{ name, sql string }{
		{"sum", "SELECT SUM(%s) FROM t"},
		{"top10", "SELECT %s FROM t ORDER BY %s DESC LIMIT 10"},
		{"group", "SELECT COUNT(*) FROM (SELECT %s, COUNT(*) FROM t GROUP BY %s) x"},
	} {
		for _, col := range []struct {
			name  string
			width int
		}{{"n", 8}, {"w", 32}} {
			text := strings.ReplaceAll(q.sql, "%s", col.name)
			b.Run(q.name+"/"+map[string]string{"n": "narrow", "w": "wide"}[col.name], func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := db.Exec(ctx, text, ""); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(rows*col.width)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}
