package columnar

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoadDistinctStrings loads 500,000 rows whose VARCHAR(25) values
// are nearly all distinct (like customer names and addresses), the worst
// case for the per-distinct-string VARCHAR checks: every row's string is
// checked (UTF-8; its length is counted only when it has more bytes than
// the width). Half the values carry a two-byte character.
func BenchmarkLoadDistinctStrings(b *testing.B) {
	p := filepath.Join(b.TempDir(), "strings.tbl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range 500_000 {
		accent := ""
		if i%2 == 0 {
			accent = "é"
		}
		fmt.Fprintf(w, "%d|Customer#%09d%s|addr %d street|\n", i, i, accent, i*7)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(p)
	fields := []Field{
		{Name: "id", Type: TInt32, Nullable: true},
		{Name: "name", Type: Type{ID: String, Width: 25}, Nullable: true},
		{Name: "addr", Type: Type{ID: String, Width: 25}, Nullable: true},
	}
	b.SetBytes(st.Size())
	b.ResetTimer()
	cpu0 := processCPU()
	for range b.N {
		if _, err := LoadDelimited(NewEmptyTable("c", fields), p, DelimitedOptions{Delimiter: '|'}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Size())*float64(b.N)/(processCPU()-cpu0).Seconds()/1e6, "cpu-MB/s")
}

// BenchmarkFitString is the per-distinct-string cost the loaders pay.
func BenchmarkFitString(b *testing.B) {
	vals := make([]string, 1024)
	for i := range vals {
		vals[i] = fmt.Sprintf("Customer#%09dé", i)
	}
	t := Type{ID: String, Width: 25}
	b.ResetTimer()
	for i := range b.N {
		if _, err := t.FitString(vals[i&1023]); err != nil {
			b.Fatal(err)
		}
	}
}
