package ssbgen

import (
	"math"
	"slices"
	"testing"
)

// The top value's share matches 1/H(c, theta) (the Zipf normalizer) within
// sampling error, every value is in range, and the column is reproducible.
func TestZipfColumn(t *testing.T) {
	const n, c = 200_003, 1024
	for _, theta := range []float64{0, 0.5, 1, 1.5, 2} {
		col := ZipfColumn(n, c, theta, 7)
		count := make([]int, c)
		for i, v := range col {
			if v < 0 || v >= c {
				t.Fatalf("theta %g: row %d: value %d outside [0, %d)", theta, i, v, c)
			}
			count[v]++
		}
		h := 0.0
		for k := 1; k <= c; k++ {
			h += 1 / math.Pow(float64(k), theta)
		}
		want := float64(n) / h
		got := float64(slices.Max(count))
		// The most frequent value: the rank-1 value, within 5 sigma (for
		// uniform data the maximum of c counts sits a few sigma above).
		sigma := math.Sqrt(want)
		if theta > 0 && math.Abs(got-want) > 5*sigma || theta == 0 && (got < want || got > want+6*sigma) {
			t.Errorf("theta %g: top value has %v rows, want about %.0f", theta, got, want)
		}
		if !slices.Equal(col, ZipfColumn(n, c, theta, 7)) {
			t.Errorf("theta %g: two draws with one seed differ", theta)
		}
	}
	if got := ZipfColumn(0, c, 1, 7); len(got) != 0 {
		t.Errorf("empty column has %d rows", len(got))
	}
}
