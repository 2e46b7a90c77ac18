//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// BenchmarkPackedScan times the fused star kernel summing one fact column
// of b-bit values (b = 4, 8, 16, 24; GPUSQL_BENCH_ROWS rows, default 2^27)
// with the column 4 bytes a value and packed, and reports kernel-ms, the
// bytes read at device width over kernel-ms (GB/s, against the device's
// ~2.9 TB/s) and rows per second: packing pays where rows/s rise, as long
// as decoding keeps the scan at the memory limit.
func BenchmarkPackedScan(b *testing.B) {
	d := needGPU(b)
	rows := 1 << 27
	if s := os.Getenv("GPUSQL_BENCH_ROWS"); s != "" {
		rows, _ = strconv.Atoi(s)
	}
	widths := []int{4, 8, 16, 24}
	t := &columnar.Table{Name: "f", Rows: rows}
	for _, w := range widths {
		c := columnar.NewColumnIn(PinnedAllocator(), columnar.TInt32, rows, false)
		r := rand.New(rand.NewPCG(uint64(w), 1))
		for i := range c.I32 {
			c.I32[i] = int32(r.Uint32() >> (32 - w))
		}
		t.Fields = append(t.Fields, columnar.Field{Name: fmt.Sprintf("b%d", w), Type: columnar.TInt32})
		t.Columns = append(t.Columns, c)
	}
	columnar.ComputeStats(t)
	saved := starTuning
	defer func() { starTuning = saved }()
	starTuning = tuning{block: 256, items: 8, fast: true, scan: true}
	for _, w := range widths {
		name := fmt.Sprintf("b%d", w)
		s := scanOf(t, name)
		base := &planner.Physical{Root: aggOf(s, nil, sumOf(ref(s, name)))}
		for _, m := range packingModes[:2] {
			p := withPacking(b, base, m)
			b.Run(name+"/"+m.name, func(b *testing.B) {
				if _, err := Run(b.Context(), p); err != nil { // warm: the column cached
					b.Fatal(err)
				}
				var kms float64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := Run(b.Context(), p); err != nil {
						b.Fatal(err)
					}
					kms += d.last.ms
				}
				kms /= float64(b.N)
				b.ReportMetric(kms, "kernel-ms")
				if by := factBytes(d, p); by > 0 && kms > 0 {
					b.ReportMetric(float64(by)/(kms/1e3)/1e9, "GB/s")
				}
				b.ReportMetric(float64(rows)/(kms/1e3)/1e9, "Grows/s")
			})
		}
	}
}
