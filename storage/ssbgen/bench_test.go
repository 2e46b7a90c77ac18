package ssbgen

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkGenerateSF1 writes SF1 in dbgen's format (about 700 MB) and
// reports the output rate.
func BenchmarkGenerateSF1(b *testing.B) {
	for _, f := range []Format{FormatTbl, FormatCSV, FormatParquet} {
		b.Run(string(f), func(b *testing.B) {
			dir := b.TempDir()
			var bytes int64
			for b.Loop() {
				if _, err := Generate(Options{SF: 1, Out: dir, Format: f}); err != nil {
					b.Fatal(err)
				}
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*."+string(f)))
			for _, p := range files {
				if st, err := os.Stat(p); err == nil {
					bytes += st.Size()
				}
			}
			b.ReportMetric(float64(bytes)/1e6, "MB")
			b.ReportMetric(float64(bytes)*float64(b.N)/1e9/b.Elapsed().Seconds(), "GB/s")
		})
	}
}

// BenchmarkGenerateTables builds SF1 (6 M lineorder rows) in memory and
// reports lineorder rows per second and the columns' bytes per lineorder
// row (lineorder itself is 88: five BIGINT and twelve 4-byte columns).
func BenchmarkGenerateTables(b *testing.B) {
	const sf = 1
	var rows, bytes int64
	for b.Loop() {
		tables, err := GenerateTables(TableOptions{SF: sf})
		if err != nil {
			b.Fatal(err)
		}
		rows, bytes = int64(tables[0].Rows), 0
		for _, t := range tables {
			for _, c := range t.Columns {
				bytes += c.Bytes()
			}
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	b.ReportMetric(float64(bytes)/float64(rows), "B/row")
}
